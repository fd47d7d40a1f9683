/// The `depth` order: shallowest first by default, sections by depth band (`DepthBands`; an
/// unknown depth sorts as the smallest, as NULL does in SQLite), by depth inside a band, then time.
struct DepthSort: SortStrategy {
    let ascending: Bool

    // Served by quake_depth (depth, time, rowid); an unknown depth (NULL) is the smallest.
    var orderBy: String { ascending ? "depth ASC, time ASC, id ASC" : "depth DESC, time DESC, id DESC" }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        let op = keysetOperator(descending: !ascending, before: before)
        // Inside the unknown-depth section every depth is NULL: by time, as for unknown magnitudes.
        guard let depth = keys.depth else { return Self.timeKeyset(keys, op) }
        return ("(depth, time, id) \(op) (?, ?, ?)", [.real(depth), .integer(keys.time), .integer(keys.id)])
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool {
        if let ad = a.depth, let bd = b.depth, ad != bd { return ascending ? ad < bd : ad > bd }
        return precedesByTime(a, b)
    }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .depth(let x) = a, case .depth(let y) = b else { preconditionFailure("sections of different kinds compared") }
        // NULL sorts smallest, as in SQLite.
        let xv = x ?? -.infinity, yv = y ?? -.infinity
        return ascending ? xv < yv : xv > yv
    }


    // MARK: Sections

    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey { DepthBands.key(of: keys.depth) }

    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel { DepthBands.section(of: keys.depth) }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        guard case .depth(let lower) = key else { preconditionFailure("a depth key") }
        return DepthBands.quakeSection(lower, count: 0)
    }
}
