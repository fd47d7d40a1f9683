/// The rows the results controller holds — a window near what is shown, never the result set —
/// and how it reads them: by flat offset (each section from its nearer end), or by keys around
/// a row's place (`readAround`), walking the sort index both ways from it.
///
/// It reads on the connection and in the transaction it is given, with the request's plan and
/// section index of the moment; it keeps only the rows and how many it has read.
struct RowWindow {
    /// Rows read beyond each side of a requested range, so scrolling by a line does not query.
    var margin = 32
    /// How many rows were read from SQLite so far (the laziness counter tests assert on).
    private(set) var rowsMaterialized = 0
    /// The rows held and the flat offset of the first.
    private(set) var cache: (start: Int, rows: [QuakeRow])?

    /// Forgets the rows (the sections or their rows changed).
    mutating func invalidate() { cache = nil }

    /// The rows at `range` if the window holds all of them.
    func cached(_ range: Range<Int>) -> [QuakeRow]? {
        guard let cache, cache.start <= range.lowerBound, range.upperBound <= cache.start + cache.rows.count else { return nil }
        return Array(cache.rows[(range.lowerBound - cache.start)..<(range.upperBound - cache.start)])
    }

    /// The rows at `range` (within `0..<index.count`, not empty), read with `margin` rows either
    /// side into the window.
    mutating func read(_ db: Connection, _ range: Range<Int>, index: SectionIndex, plan: QueryPlan) throws -> [QuakeRow] {
        let window = max(0, range.lowerBound - margin)..<min(index.count, range.upperBound + margin)
        let rows = try fetch(db, window, index: index, plan: plan)
        cache = (window.lowerBound, rows)
        // Counts and rows come from the same snapshot and agree; clamp anyway rather than trap.
        let lower = min(range.lowerBound - window.lowerBound, rows.count)
        return Array(rows[lower..<min(range.upperBound - window.lowerBound, rows.count)])
    }

    /// Reads the rows around the place of a row with `keys` (in section `key`, flat offset
    /// `offset`) into the window, by walking the sort index from its keys both ways: the screen
    /// drawn next shows them, and reading them by OFFSET would step over every row above them in
    /// the section (tens of thousands in a big region or magnitude bucket at 1M quakes).
    mutating func readAround(_ db: Connection, keys: RowKeys, in key: SectionKey, at offset: Int,
                             index: SectionIndex, plan: QueryPlan) throws {
        guard let section = index.range(of: key), section.contains(offset) else { return }
        let (range, rangeArgs) = key.rangeSQL
        let (predicate, predicateArgs) = plan.matchedWhere
        func read(_ bound: (String, [SQLiteValue]), _ order: String, _ limit: Int) throws -> [QuakeRow] {
            let (sql, arguments) = try plan.strategy.orderedRowsQuery(
                db, select: QuakeRow.columns, where: ("\(range) AND \(predicate) AND \(bound.0)", rangeArgs + predicateArgs + bound.1),
                orderBy: order, tail: (" LIMIT ?", [.integer(Int64(limit))]))
            let statement = try db.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind(arguments)
            var rows: [QuakeRow] = []
            while try statement.step() { rows.append(QuakeRow(statement)) }
            rowsMaterialized += rows.count
            return rows
        }
        let above = min(margin, offset - section.lowerBound), below = min(2 * margin, section.upperBound - offset)
        let before = try read(plan.beforeInSection(keys), plan.reversedOrderBy, above)
        let after = try read(plan.atOrAfterInSection(keys), plan.orderBy, below)
        // Counts and rows come from the same snapshot; if they ever disagree, keep no window.
        guard before.count == above, after.count == below else { return }
        cache = (offset - above, before.reversed() + after)
    }

    /// The rows at flat offsets `window`, section by section; OFFSET steps over every row it
    /// skips, so each section is read from its nearer end.
    private mutating func fetch(_ db: Connection, _ window: Range<Int>, index: SectionIndex, plan: QueryPlan) throws -> [QuakeRow] {
        var rows: [QuakeRow] = []
        rows.reserveCapacity(window.count)
        var section = index.indexPath(forOffset: window.lowerBound).section
        // A distance sort steps on the distance index alone (`SortStrategy.countedRows`).
        let (predicate, predicateArgs) = plan.strategy.countedRows(plan).where
        while section < index.sections.count, index.starts[section] < window.upperBound {
            let start = index.starts[section], sectionCount = index.sections[section].count
            let local = max(window.lowerBound, start) - start
            let end = min(window.upperBound, start + sectionCount) - start
            let fromEnd = sectionCount - end < local
            let (sql, arguments) = try plan.strategy.windowQuery(
                db, range: index.sections[section].key.rangeSQL, predicate: (predicate, predicateArgs),
                orderBy: fromEnd ? plan.reversedOrderBy : plan.orderBy, limit: end - local, offset: fromEnd ? sectionCount - end : local)
            let statement = try db.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind(arguments)
            var part: [QuakeRow] = []
            while try statement.step() {
                part.append(QuakeRow(statement))
                rowsMaterialized += 1
            }
            rows += fromEnd ? part.reversed() : part
            section += 1
        }
        return rows
    }
}
