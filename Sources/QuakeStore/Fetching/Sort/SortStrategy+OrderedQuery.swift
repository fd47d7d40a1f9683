import QuakeModel
/// Every read of rows in an order — a window, the rows around one, a provisional read, a walk
/// to rank, a seek to the next section — is written here, so that how an order's index holds
/// its rows is decided in one place.
///
/// An index whose leading key is the order's (time, region) holds the order in one run: one
/// statement reads it. An index led by the row's block of ids (`IDBlocks`; depth and magnitude,
/// `blockLedSince`) holds one run per block, each in the order: the statement merges them,
/// a `UNION ALL` of one arm per block under the order's `ORDER BY`, which SQLite runs as a
/// merge of the arms, each stepping its block's part of the index (no sort). The arms read
/// only the index's keys; the rows they keep are then read by id, so rows stepped over by an
/// `OFFSET` are never read (as `DistanceTable.windowSQL` does).
extension SortStrategy {
    var blockLedSince: Int? { nil }

    /// A term naming every block, ANDed to a count over a range of this order, so that SQLite
    /// counts it along the index (a seek per block); nil when the index needs none.
    var countingTerm: String? { blockLedSince == nil ? nil : IDBlocks.everyBlock }

    /// `SELECT columns` of the rows of `from` passing `where` in `orderBy` (a total order ending
    /// in the id), then `tail` (` LIMIT ?`, ` OFFSET ?`), with its arguments.
    ///
    /// Merged, the arms' `LIMIT` keeps only the window's ids, which `CROSS JOIN` (SQLite's
    /// way to fix the outer loop) reads rows for in the merge's order: the rows come out as
    /// they are merged, with no second sort, so a read under a deadline keeps what it read.
    func orderedRowsQuery(_ db: Connection, select columns: String, where condition: (String, [SQLiteValue]),
                          orderBy: String, tail: (String, [SQLiteValue])) throws -> (String, [SQLiteValue]) {
        switch try runs(db) {
        case nil:
            return ("SELECT \(columns) FROM \(from) WHERE \(condition.0) ORDER BY \(orderBy)\(tail.0)", condition.1 + tail.1)
        case let blocks? where blocks.count == 1:
            return ("SELECT \(columns) FROM quake WHERE \(IDBlocks.of("id")) = \(blocks.lowerBound) AND (\(condition.0)) ORDER BY \(orderBy)\(tail.0)",
                    condition.1 + tail.1)
        case let blocks?:
            let (merged, arguments) = Self.merge(blocks, where: condition, orderBy: orderBy, tail: tail)
            return ("SELECT \(columns) FROM (\(merged)) AS run CROSS JOIN quake ON quake.id = run.rid", arguments)
        }
    }

    /// The ids of the rows of `from` passing `where` in `orderBy`, in that order (the first column).
    func orderedIDsQuery(_ db: Connection, where condition: (String, [SQLiteValue]), orderBy: String) throws -> (String, [SQLiteValue]) {
        guard let blocks = try runs(db) else {
            return ("SELECT quake.id FROM \(from) WHERE \(condition.0) ORDER BY \(orderBy)", condition.1)
        }
        return Self.merge(blocks, where: condition, orderBy: orderBy, tail: ("", []))
    }

    /// The blocks whose runs the order's index holds; nil when one statement reads the order
    /// (its index leads with the order's key, this store's does not lead with the block yet, the
    /// table is empty or spans more blocks than a statement merges).
    private func runs(_ db: Connection) throws -> ClosedRange<Int64>? {
        guard let since = blockLedSince, try db.hasSchema(since),
              let blocks = try IDBlocks.range(db), blocks.count <= IDBlocks.mostMerged else { return nil }
        return blocks
    }

    /// The merge of one arm per block, each selecting the row's id (`rid`) and the order's other
    /// keys (`k1`, `k2`, …), under the order's `ORDER BY`.
    private static func merge(_ blocks: ClosedRange<Int64>, where condition: (String, [SQLiteValue]), orderBy: String,
                              tail: (String, [SQLiteValue])) -> (String, [SQLiteValue]) {
        // "depth ASC, time ASC, id ASC" → [("depth", "ASC"), …, ("id", "ASC")]
        let terms = orderBy.split(separator: ",").map { $0.split(separator: " ").map(String.init) }
        precondition(terms.last?.first == "id" && terms.allSatisfy { $0.count == 2 }, "an order ending in the id: \(orderBy)")
        let names = terms.indices.map { $0 == terms.count - 1 ? "rid" : "k\($0 + 1)" }
        let keys = (["id AS rid"] + terms.dropLast().enumerated().map { "\($1[0]) AS k\($0 + 1)" }).joined(separator: ", ")
        let arms = blocks.map { "SELECT \(keys) FROM quake WHERE \(IDBlocks.of("id")) = \($0) AND (\(condition.0))" }
        let order = zip(names, terms).map { "\($0) \($1[1])" }.joined(separator: ", ")
        return (arms.joined(separator: " UNION ALL ") + " ORDER BY \(order)\(tail.0)",
                Array(repeating: condition.1, count: blocks.count).flatMap { $0 } + tail.1)
    }
}
