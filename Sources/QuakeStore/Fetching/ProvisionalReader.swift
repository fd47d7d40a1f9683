import QuakeModel
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
