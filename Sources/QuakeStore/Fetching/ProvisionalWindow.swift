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

// MARK: The reader under the window

/// Reads rows in a request's display order from a row's keys, forward or backward, straight
/// off the sort indexes: each order's strategy knows how (`SegmentedSort` for the orders an
/// index serves in stretches, `DistanceSort` walking `quake_location`).
struct ProvisionalReader {
    struct Row {
        let row: QuakeRow
        let section: SectionLabel
    }

    /// The request compiled: the reader tests its whole predicate per row (`QueryPlan.rowWhere`).
    let plan: QueryPlan
    let days: DayCalendar
    /// Sections folded on screen: the reader keeps the first row it meets of each (for its
    /// header) and goes on past the rest.
    var collapsed: Set<String> = []
    /// Under a time limit, a distance walk that would read every row (from a middle distance)
    /// gives up at once when that is more rows than this (`readsEveryRowInTime`): the deadline
    /// would stop it before its sort yields a row. The same bound as a distance table built
    /// under a deadline.
    var scanAllRowLimit = FetchedResultsController.distanceRowsWithinADeadline

    init(request: SectionedFetchRequest, days: DayCalendar) {
        plan = QueryPlan(request)
        self.days = days
    }

    var request: SectionedFetchRequest { plan.request }

    /// Up to `limit` rows from `anchor` (included when it matches) going `forward` in display
    /// order, or strictly before it going backward (nearest first); from the first row when
    /// `anchor` is nil.
    ///
    /// With `within` (ns), reading stops there and returns the rows found so far, setting `partial`.
    /// The anchor itself is read first, outside that limit (one lookup by id): a window cut
    /// short must still hold the quake it was read around, or the selection would move to a
    /// neighbour (and be saved there).
    func rows(_ db: Connection, from anchor: RowKeys?, forward: Bool, limit: Int, within: UInt64? = nil,
              partial: inout Bool) throws -> [Row] {
        guard limit > 0 else { return [] }
        var result: [Row] = []
        if forward, let anchor, let row = try plan.strategy.provisionalRow(db, anchor, reader: self) { result.append(row) }
        do {
            try db.withDeadline(nanoseconds: within) {
                try plan.strategy.readProvisional(db, reader: self, from: anchor, forward: forward, limit: limit,
                                                  bounded: within != nil, into: &result)
            }
        } catch let error as SQLiteError where error.isInterrupted && within != nil {
            partial = true
        }
        return result
    }

    func rows(_ db: Connection, from anchor: RowKeys?, forward: Bool, limit: Int) throws -> [Row] {
        var partial = false
        return try rows(db, from: anchor, forward: forward, limit: limit, partial: &partial)
    }

    /// The section of a row read off an index (`regionTitle`: its segment's, for a region sort).
    func section(of keys: RowKeys, regionTitle: String) -> SectionLabel {
        plan.strategy.section(of: keys, days: days, regionTitle: regionTitle)
    }

    /// Up to `limit` rows of `segment` strictly past `anchor` (from its start without one).
    /// Stops after the first row of a folded section and returns the keys past that section
    /// (`strategy.keys(past:descending:)`), for the next read to start from (nil: read to the
    /// limit or the segment's end).
    func read(_ db: Connection, _ segment: ProvisionalSegment, of strategy: some SegmentedSort, from anchor: RowKeys?,
              forward: Bool, limit: Int, into rows: inout [Row]) throws -> RowKeys? {
        let descending = segment.descending == forward
        let (predicate, predicateArguments) = plan.rowWhere
        var terms = [segment.filter, predicate]
        var arguments = segment.arguments + predicateArguments
        if let anchor {
            let op = descending ? "<" : ">"
            terms.append("(\(segment.columns.joined(separator: ", "))) \(op) (\(segment.columns.map { _ in "?" }.joined(separator: ", ")))")
            arguments += segment.columns.map { column -> SQLiteValue in
                switch column {
                case "magnitude": anchor.magnitude.map { .real($0) } ?? .null
                case "depth": anchor.depth.map { .real($0) } ?? .null
                case "time": .integer(anchor.time)
                default: .integer(anchor.id)
                }
            }
        }
        let order = segment.columns.map { "\($0) \(descending ? "DESC" : "ASC")" }.joined(separator: ", ")
        let (sql, allArguments) = try strategy.orderedRowsQuery(
            db, select: "\(QuakeRow.columns), \(RowKeys.columns)", where: (terms.joined(separator: " AND "), arguments),
            orderBy: order, tail: (" LIMIT ?", [.integer(Int64(limit))]))
        let statement = try db.cachedStatement(sql)
        try statement.bind(allArguments)
        defer { statement.reset() }
        while try statement.step() {
            let keys = RowKeys(statement, from: QuakeRow.columnCount)
            let row = Row(row: QuakeRow(statement), section: section(of: keys, regionTitle: segment.regionTitle))
            rows.append(row)
            if collapsed.contains(row.section.id) { return strategy.keys(past: row.section.key, descending: descending) }
        }
        return nil
    }

    /// Whether a distance walk's read of every candidate row is at most `scanAllRowLimit` rows.
    /// It reads the rows at or above the minimum magnitude (the kept counts of their buckets:
    /// at most 8 rows); a filter's index (time, location) may narrow it further, so with a
    /// filter the read is tried and left to the time limit.
    func readsEveryRowInTime(_ db: Connection) throws -> Bool {
        guard plan.filters.isEmpty else { return true }
        let floor = plan.minimumMagnitude.map { Int64(SectionKey.bucket(of: $0) ?? 0) } ?? -1
        let rows = try db.scalar("SELECT sum(count) FROM quake_count WHERE kind = 1 AND bucket >= ?", [.integer(floor)]).int64 ?? 0
        return rows <= Int64(scanAllRowLimit)
    }
}
