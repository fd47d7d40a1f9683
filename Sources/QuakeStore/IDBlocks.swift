import QuakeModel
/// Rows in blocks of 65,536 ids, the key the location, depth and magnitude indexes lead with
/// (schemas 10–12). New rows take the largest ids, so an import's rows land together at the end of such
/// an index, in its last block's part, instead of at random across all of it: after a load every
/// page is full, and a month into 5,000,000 quakes rewrote ~10k of the location index's 31k leaf
/// pages and split most of the ~9k depth pages it touched (1.6 s for the month; see DECISIONS.md,
/// "A month into a large store"). A read names the blocks: a range by one seek per block
/// (`everyBlock`), an order by merging one run per block (`SortStrategy.orderedRowsQuery`).
enum IDBlocks {
    /// The block of a row, `id` being the column as the statement names it.
    static func of(_ id: String) -> String { "\(id) >> 16" }

    /// "The row's block is one the table has": every block from the smallest id's to the
    /// largest's (two lookups of the rowid), so that SQLite reads a range of an index led by the
    /// block as one range per block (77 at 5,000,000 quakes, a few µs each).
    static let everyBlock = """
        (\(of("quake.id"))) IN (WITH RECURSIVE block(b) AS (SELECT \(of("(SELECT min(id) FROM quake)")) \
        UNION ALL SELECT b + 1 FROM block WHERE b < \(of("(SELECT max(id) FROM quake)"))) SELECT b FROM block)
        """

    /// The most blocks an order's read merges in one statement (SQLite allows 500 arms in a
    /// compound `SELECT`); a table spanning more (16,777,216 ids) is read by one statement that
    /// sorts: correct, and slow.
    static let mostMerged = 256

    /// The blocks from the smallest id's to the largest's; nil for an empty table.
    static func range(_ db: Connection) throws(SQLiteError) -> ClosedRange<Int64>? {
        // Each its own subquery: SQLite finds a lone min() or max() of the rowid by one seek, but
        // reads the whole table for both in one SELECT.
        let statement = try db.cachedStatement(
            "SELECT \(of("(SELECT min(id) FROM quake)")), \(of("(SELECT max(id) FROM quake)"))")
        defer { statement.reset() }
        guard try statement.step(), case .integer(let first) = statement.value(at: 0),
              case .integer(let last) = statement.value(at: 1) else { return nil }
        return first...last
    }
}
