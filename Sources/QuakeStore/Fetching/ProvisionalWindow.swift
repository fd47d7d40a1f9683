import QuakeModel
/// The rows around a selection in a request's order, read straight off the sort indexes with
/// the predicate tested row by row: no match set, no section counts. It is what the screen
/// needs the moment a key changes the request; the exact sections follow (`ResultsEngine`).
///
/// Sections are the window's own: each holds the rows read so far and says its count is pending.
struct ProvisionalWindow {
    var rows: [QuakeRow] = []
    var sections: [QuakeSection] = []
    var sectionStarts: [Int] = []
    /// The offset of the anchor (or of the row that stands where it would sort).
    var anchorOffset: Int?

    /// Whether a time limit cut the reading short (a rare match: the window holds fewer rows
    /// than there are; the count that follows finds them all).
    var isPartial = false

    /// Reads up to `above` rows before `anchor` and `below` rows from it (the anchor itself when
    /// it matches), or `below` rows from the top without an anchor, each side within its time
    /// limit (`limit` ns in all: two thirds for the rows at and below the selection, read first,
    /// the rest for those above; nil: no limit). A search matching almost nothing would otherwise
    /// walk the whole index here. A distance sort walks `quake_location` (`DistanceTable.walk`).
    ///
    /// A section in `collapsed` (folded on screen) gets one row, for its header, and the reading
    /// goes on past it: a folded day longer than the window would otherwise hide the sections
    /// beyond it until the count settles.
    init(_ db: Connection, request: SectionedFetchRequest, days: DayCalendar, anchor: RowKeys?,
         above: Int, below: Int, limit: UInt64? = nil, collapsed: Set<String> = []) throws {
        var reader = ProvisionalReader(request: request, days: days)
        reader.collapsed = collapsed
        var partial = false
        let after = try reader.rows(db, from: anchor, forward: true, limit: below, within: limit.map { $0 / 3 * 2 }, partial: &partial)
        var before: [ProvisionalReader.Row] = []
        if let anchor, above > 0 {
            before = try reader.rows(db, from: anchor, forward: false, limit: above, within: limit.map { $0 / 3 }, partial: &partial)
        }
        isPartial = partial
        let all = before.reversed() + after
        rows = all.map(\.row)
        anchorOffset = anchor == nil || all.isEmpty ? nil : min(before.count, all.count - 1)
        for (offset, row) in all.enumerated() {
            if let last = sections.last, last.key == row.section.key {
                sections[sections.count - 1].count += 1
                continue
            }
            sectionStarts.append(offset)
            sections.append(QuakeSection(id: row.section.id, title: row.section.title, count: 1,
                                         key: row.section.key, isCountPending: true))
        }
    }

    /// The window of `request` around the quake `code` (or from the top), read on `context`
    /// (the exact controller's connection, which it leaves as it was): `margin` rows above the
    /// quake and twice that below, within `limit` ns.
    init(reading request: SectionedFetchRequest, around code: String?, on context: ViewContext, margin: Int,
         limit: UInt64?, collapsed: Set<String> = []) throws {
        let days = DayCalendar(timeZone: request.timeZone)
        self = try context.read { db in
            var keys: RowKeys?
            if let code {
                let statement = try db.cachedStatement("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
                try statement.bind(code, at: 1)
                keys = try statement.step() ? RowKeys(statement) : nil
            }
            return try ProvisionalWindow(db, request: request, days: days, anchor: keys, above: keys == nil ? 0 : margin,
                                         below: 2 * margin, limit: limit, collapsed: collapsed)
        }
    }

    var count: Int { rows.count }

    /// The window's sections with the whole result's counts (`totalCount`) of the same sections
    /// of `counted`, no longer pending; a section `counted` lacks (read before a commit the
    /// counts saw) stays pending.
    func sections(countedAs counted: [QuakeSection]) -> [QuakeSection] {
        let totals = Dictionary(counted.map { ($0.id, $0.count) }, uniquingKeysWith: { first, _ in first })
        return sections.map { section in
            var section = section
            section.totalCount = totals[section.id]
            section.isCountPending = section.totalCount == nil
            return section
        }
    }

    func indexPath(forOffset offset: Int) -> (section: Int, row: Int) {
        let section = (sectionStarts.lastIndex { $0 <= offset }) ?? 0
        return (section, offset - sectionStarts[section])
    }
}
