/// The `time` order: newest first by default, sections by day (in the request's time zone).
struct TimeSort: SortStrategy {
    let ascending: Bool

    var orderBy: String { ascending ? "time ASC, id ASC" : "time DESC, id DESC" }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        Self.timeKeyset(keys, keysetOperator(descending: !ascending, before: before))
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool { precedesByTime(a, b) }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .day(let x, _) = a, case .day(let y, _) = b else { preconditionFailure("sections of different kinds compared") }
        return ascending ? x < y : x > y
    }


    // MARK: Sections

    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey { days.key(containing: keys.time) }

    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel { days.day(containing: keys.time) }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        guard case .day(let start, _) = key else { preconditionFailure("a day key") }
        let day = days.day(containing: start)
        return QuakeSection(id: day.id, title: day.title, count: 0, key: key)
    }
}
