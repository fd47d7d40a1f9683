import QuakeModel
/// The rows the results controller holds — a window near what is shown, never the result set —
/// and how it reads them: by flat offset (each section from its nearer end), on by keys from a
/// held row next to them (`readOn`, paging far into a big section), or by keys around a row's
/// place (`readAround`), walking the sort index both ways from it.
///
/// It reads on the connection and in the transaction it is given, with the request's plan and
/// section index of the moment; it keeps only the rows and how many it has read.
struct RowWindow {
    /// Rows read beyond each side of a requested range, so scrolling by a line does not query.
    var margin = 32
    /// How many rows were read from SQLite so far (the laziness counter tests assert on).
    private(set) var rowsMaterialized = 0
    /// How far into a section an `OFFSET` may step before a window next to the held one is
    /// read on by keys instead: an `OFFSET` steps over every row before the window, and a merged
    /// order (`SortStrategy.orderedRowsQuery`) steps ~30× slower than one index.
    var offsetStepLimit = 256
    /// How many parts of windows were read on by keys (for tests).
    private(set) var partsReadOn = 0
    /// The rows held and the flat offset of the first.
    private(set) var cache: (start: Int, rows: [QuakeRow])?

    /// Where rows held before the last merge went (`ChangeDiff.places`), until the next change.
    private var placed: [String: Int] = [:]

    /// Forgets the rows (the sections or their rows changed).
    mutating func invalidate() {
        cache = nil
        placed = [:]
    }

    /// Holds again the rows `saved` held, for the results it was read for (put back after a
    /// failed change); the counters go on.
    mutating func restore(_ saved: RowWindow) {
        (cache, placed) = (saved.cache, saved.placed)
    }

    /// Forgets the rows after a merge that moved them, keeping where each went (`places`).
    mutating func invalidate(keeping places: [String: Int]) {
        invalidate()
        placed = places
    }

    /// The flat offset of the row `code` if the window holds it.
    func heldOffset(ofCode code: String) -> Int? {
        guard let cache, let index = cache.rows.firstIndex(where: { $0.code == code }) else { return nil }
        return cache.start + index
    }

    /// Where the last merge placed the row `code`, held before it (nil: not known, count it).
    func placedOffset(ofCode code: String) -> Int? { placed[code] }

    /// The offsets of the rows held, by code.
    var heldOffsets: [String: Int] {
        guard let cache else { return [:] }
        return Dictionary(cache.rows.enumerated().map { ($1.code, cache.start + $0) }, uniquingKeysWith: min)
    }

    /// Holds `rows`, read by another controller for the same results (`FetchedResultsController.adopt`).
    mutating func hold(_ rows: (start: Int, rows: [QuakeRow])?) {
        invalidate()
        cache = rows
    }

    /// The rows at `range` if the window holds all of them.
    func cached(_ range: Range<Int>) -> [QuakeRow]? {
        guard let cache, cache.start <= range.lowerBound, range.upperBound <= cache.start + cache.rows.count else { return nil }
        return Array(cache.rows[(range.lowerBound - cache.start)..<(range.upperBound - cache.start)])
    }

    /// The rows at `range` (within `0..<index.count`, not empty), read with `margin` rows either
    /// side into the window.
    mutating func read(_ db: Connection, _ range: Range<Int>, index: SectionIndex, plan: QueryPlan, table: SortTable) throws -> [QuakeRow] {
        let window = max(0, range.lowerBound - margin)..<min(index.count, range.upperBound + margin)
        let rows = try fetch(db, window, index: index, plan: plan, table: table)
        cache = (window.lowerBound, rows)
        // Counts and rows come from the same snapshot and agree; clamp anyway rather than trap.
        let lower = min(range.lowerBound - window.lowerBound, rows.count)
        return Array(rows[lower..<min(range.upperBound - window.lowerBound, rows.count)])
    }

    /// Reads the rows around the place of a row with `keys` (in section `key`, flat offset
    /// `offset`) into the window, by walking the sort index from its keys both ways: the screen
    /// drawn next shows them, and reading them by OFFSET would step over every row above them in
    /// the section (tens of thousands in a big region or magnitude bucket at 1M quakes). Nothing
    /// for an order whose rows are not read by keys (`SortStrategy.keyedRowsQuery`).
    mutating func readAround(_ db: Connection, keys: RowKeys, in key: SectionKey, at offset: Int,
                             index: SectionIndex, plan: QueryPlan) throws {
        guard let section = index.range(of: key), section.contains(offset) else { return }
        let predicate = plan.matchedWhere
        let above = min(margin, offset - section.lowerBound), below = min(2 * margin, section.upperBound - offset)
        guard let before = try readRows(db, key, predicate, from: keys, onward: false, above, plan: plan),
              let after = try readRows(db, key, predicate, from: keys, onward: true, below, plan: plan),
              // Counts and rows come from the same snapshot; if they ever disagree, keep no window.
              before.count == above, after.count == below else { return }
        cache = (offset - above, before.reversed() + after)
    }

    /// The rows at flat offsets `window`, section by section; OFFSET steps over every row it
    /// skips, so each section is read from its nearer end, or on from a held row next to it.
    private mutating func fetch(_ db: Connection, _ window: Range<Int>, index: SectionIndex, plan: QueryPlan, table: SortTable) throws -> [QuakeRow] {
        var rows: [QuakeRow] = []
        rows.reserveCapacity(window.count)
        var section = index.indexPath(forOffset: window.lowerBound).section
        // A distance sort steps on the distance index alone (`SortStrategy.countedRows`).
        let (predicate, predicateArgs) = plan.strategy.countedRows(plan).where
        while section < index.sections.count, index.starts[section] < window.upperBound {
            let start = index.starts[section], sectionCount = index.sections[section].count
            let local = max(window.lowerBound, start) - start
            let end = min(window.upperBound, start + sectionCount) - start
            let range = index.sections[section].key.rangeSQL
            if let part = try readOn(db, local..<end, sectionStart: start, sectionCount: sectionCount,
                                     section: index.sections[section].key, predicate: (predicate, predicateArgs), plan: plan) {
                rows += part
                section += 1
                continue
            }
            let fromEnd = sectionCount - end < local
            let (sql, arguments) = try plan.strategy.windowQuery(
                db, in: index.sections[section].key, range: range, predicate: (predicate, predicateArgs),
                orderBy: fromEnd ? plan.reversedOrderBy : plan.orderBy, limit: end - local, offset: fromEnd ? sectionCount - end : local,
                table: table)
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

    /// The rows at `part` (offsets in a section of `sectionCount` rows from flat offset
    /// `sectionStart`) read on by keys from the held row just before them (or, backward, just
    /// after them), when an `OFFSET` would step over more than `offsetStepLimit` rows; nil when
    /// the window holds neither row, the order's rows are not read by keys, or what is read does
    /// not agree with the counts.
    private mutating func readOn(_ db: Connection, _ part: Range<Int>, sectionStart: Int, sectionCount: Int,
                                 section key: SectionKey, predicate: (String, [SQLiteValue]), plan: QueryPlan) throws -> [QuakeRow]? {
        guard let cache, min(part.lowerBound, sectionCount - part.upperBound) > offsetStepLimit else { return nil }
        let held = cache.start..<(cache.start + cache.rows.count)
        let forward = held.contains(sectionStart + part.lowerBound - 1)
        guard forward || held.contains(sectionStart + part.upperBound) else { return nil }
        let code = cache.rows[(forward ? sectionStart + part.lowerBound - 1 : sectionStart + part.upperBound) - cache.start].code
        let lookup = try db.cachedStatement("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
        try lookup.bind(code, at: 1)
        let keys = try lookup.step() ? RowKeys(lookup) : nil
        lookup.reset()
        guard let keys else { return nil }
        let rows: [QuakeRow]
        if forward {
            // At or after the held row: itself first.
            guard let read = try readRows(db, key, predicate, from: keys, onward: true, part.count + 1, plan: plan),
                  read.count == part.count + 1, read.first?.code == code else { return nil }
            rows = Array(read.dropFirst())
        } else {
            guard let read = try readRows(db, key, predicate, from: keys, onward: false, part.count, plan: plan),
                  read.count == part.count else { return nil }
            rows = read.reversed()
        }
        partsReadOn += 1
        return rows
    }

    /// Up to `limit` rows of section `key` passing `predicate`, at or after the row with `keys`
    /// in order (`onward`) or before it backwards, read by keys; nil when the order's rows are
    /// not read so.
    private mutating func readRows(_ db: Connection, _ key: SectionKey, _ predicate: (String, [SQLiteValue]),
                                   from keys: RowKeys, onward: Bool, _ limit: Int, plan: QueryPlan) throws -> [QuakeRow]? {
        let (bound, boundArguments) = plan.inSection(key, from: keys, onward: onward)
        guard let (sql, arguments) = try plan.strategy.keyedRowsQuery(
            db, where: ("\(bound) AND \(predicate.0)", boundArguments + predicate.1),
            orderBy: onward ? plan.orderBy : plan.reversedOrderBy, limit: limit) else { return nil }
        let statement = try db.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [QuakeRow] = []
        while try statement.step() { rows.append(QuakeRow(statement)) }
        rowsMaterialized += rows.count
        return rows
    }
}
