import QuakeModel

/// An order's own table (the distance order's `fetch_distance`, `DistanceTable`) in the
/// file attached to a results controller's connection (`SortTableFile`): the file, what the table
/// was last built for and the history it has seen; it moves between controllers with its file
/// (`FetchedResultsController.tradeTables(with:)`). The controller keeps it across
/// configurations; the order that owns it builds it, catches it up and reads through it (`SortStrategy.prepareRows`, `merge`); the stored orders
/// leave it as it is, so the order coming back to the same origin and matches catches it up
/// with the commits since instead of building it again (0.2 s of counts and 0.7 s of order at
/// 1,000,000 quakes).
struct SortTable {
    /// The file the table lives in (nil: none attached yet).
    var file: SortTableFile?
    /// What it was built for (its plan's order and matches) and the history it has seen.
    var built: (plan: QueryPlan, token: HistoryToken)?
    /// Rows in it as last built (emptying many is one step no deadline stops).
    var rows = 0
    /// How many times it was built (for tests).
    var builds = 0
    /// What it held for the rows the last merge deleted (their distances: they have left it).
    var vanished: [Int64: Double] = [:]
    /// Every few thousandth key of a large table with its rank, kept as rows move (nil: a small
    /// table, or none): what the distance order counts from (`DistanceRanks`).
    var ranks: DistanceRanks?
    /// From how many rows a table keeps ranks, and how far apart (tests sample small tables).
    var rankSampling = (minimumRows: DistanceRanks.minimumRows, spacing: DistanceRanks.spacing)

    /// Puts back what a failed read changed (the read's transaction rolled the table back).
    mutating func restore(_ saved: SortTable) {
        (built, rows, ranks) = (saved.built, saved.rows, saved.ranks)
    }
}

/// What the results controller lends an order that does part of its work: its two ways of
/// merging changes and of finding the next of some quakes, for rows ordered by keys Swift
/// compares (the stored orders) or by a table (the distance order), and the history and
/// matches a table follows. The order picks (`SortStrategy.merge`, `next(among:)`), so no
/// caller asks which kind of order it holds.
protocol SortHost {
    /// The changes placed row by row: old and new ranks, section deltas (keys Swift compares).
    func mergeListing(_ db: Connection, before: [String: RowKeys?]) throws -> ResultChanges
    /// Each changed row followed in the match set and handed to `move` (its keys before and
    /// now, whether it is a candidate now, and `table` to move it in), then the sections
    /// recounted over `table` as moved: a reload.
    func mergeReloading(_ db: Connection, before: [String: RowKeys?], table: inout SortTable,
                        move: (_ old: RowKeys?, _ new: RowKeys?, _ isCandidate: Bool, _ table: inout SortTable) throws -> Void) throws -> ResultChanges
    /// The next of `codes` by their keys, sorted in Swift, only the one found ranked.
    func nextByKeys(among codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong?
    /// The next of `codes` by ranking each.
    func locatingEach(_ codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong?
    /// The rows committed after `since` up to the results' token, as they were and are; nil
    /// when the history cannot list them.
    func rowsChanged(_ db: Connection, since: HistoryToken) throws -> [(old: RowKeys?, new: RowKeys?)]?
    /// Whether a row with `keys` is a candidate of the results (in the match set, when there is one).
    func isCandidate(_ keys: RowKeys) -> Bool
}
