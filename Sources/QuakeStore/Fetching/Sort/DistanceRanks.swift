import QuakeModel

/// Every `spacing`-th key of a large distance table (`fetch_distance`) with the number of
/// the table's rows below it, kept with the table (`SortTable.ranks`): how many rows come before
/// a distance is then a short walk from the sample below it, not a walk of the index from the
/// band's start. At 5,000,000 quakes that walk took ~0.25–0.45 s for a row far into its band
/// (the counts of a distance sort chosen again), and the band counts' range counts ~0.1 s more.
///
/// A sample's count is the number of rows whose `(km, qid)` is below its key, so it stays
/// exact as rows come and go (`moved(from:to:)`), even when the sample's own row leaves: a
/// changed row shifts the count of every sample above it. The samples are read after the
/// table's index is built (one walk of it, in the background build of ~9 s at 5M) and only for
/// a table of `minimumRows` or more, under which a walk is short anyway.
struct DistanceRanks: Equatable {
    /// Rows between two samples, at most, as read (merges since add to a walk, never to an error).
    static let spacing = 4_096
    /// The least table kept with samples.
    static let minimumRows = 65_536

    /// A table key: a row's `km`, then its id (`qid`), the distance index's order.
    struct Key: Comparable {
        var km: Double
        var id: Int64

        static func < (a: Key, b: Key) -> Bool { (a.km, a.id) < (b.km, b.id) }
        /// Below every row at `km` (a band's edge).
        static func edge(_ km: Double) -> Key { Key(km: km, id: .min) }
        /// At or below every row.
        static let lowest = edge(-.infinity)
    }

    /// The sampled keys, ascending.
    private(set) var keys: [Key] = []
    /// For each sampled key, the rows of the table below it.
    private(set) var below: [Int] = []

    /// The samples of the table on `db` holding `rows` rows, every `sampling.spacing`-th; nil
    /// under `sampling.minimumRows`.
    static func read(_ db: Connection, rows: Int, sampling: (minimumRows: Int, spacing: Int)) throws -> DistanceRanks? {
        guard rows >= sampling.minimumRows else { return nil }
        let spacing = max(1, sampling.spacing)
        let statement = try db.prepare(sampleSQL)
        defer { statement.reset() }
        var ranks = DistanceRanks()
        var from = Key.lowest
        // The first row, then every `spacing`-th after it, each the last of a walk that steps over
        // the rows before it inside SQLite (`OFFSET`), none of them read into Swift.
        while true {
            try db.stopIfDue()
            statement.reset()
            try statement.bind([.real(from.km), .integer(from.id), .integer(ranks.keys.isEmpty ? 0 : Int64(spacing - 1))])
            guard try statement.step() else { return ranks }
            from = Key(km: statement.double(at: 0), id: statement.int64(at: 1))
            ranks.below.append(ranks.keys.count * spacing)
            ranks.keys.append(from)
        }
    }

    /// The rows of the table below `key` (or at it too, `inclusive`): the nearest sample at or
    /// below it, then a count of the rows from there, at most about `spacing` of them.
    func count(_ db: Connection, below key: Key, inclusive: Bool = false) throws -> Int {
        // The last sample whose key is at or below `key`.
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] <= key { low = middle + 1 } else { high = middle }
        }
        // Below every sample: from the lowest key there is.
        let (sample, rows) = low == 0 ? (Key.lowest, 0) : (keys[low - 1], below[low - 1])
        let walked = try db.cachedScalar(Self.walkSQL(inclusive: inclusive),
                                         [.real(sample.km), .integer(sample.id), .real(key.km), .integer(key.id)]).int64 ?? 0
        return rows + Int(walked)
    }

    /// The next sample: the row that many rows past a key (bind the key and the rows to step
    /// over). (Numbering every row with `row_number()` in one statement took 3.5 s at 5M, the
    /// window function storing every row; these steps walk the index once, ~0.26 s.)
    static let sampleSQL = "SELECT km, qid FROM fetch_distance WHERE (km, qid) > (?, ?) ORDER BY km, qid LIMIT 1 OFFSET ?"

    /// The rows from a sample's key up to a key (or to it too, `inclusive`): bind both keys.
    static func walkSQL(inclusive: Bool) -> String {
        "SELECT count(*) FROM fetch_distance WHERE (km, qid) >= (?, ?) AND (km, qid) \(inclusive ? "<=" : "<") (?, ?)"
    }

    /// The last sample at or before ascending position `position`, with the rows below it (none
    /// is: the lowest key there is, and no rows).
    func sample(atOrBefore position: Int) -> (key: Key, below: Int) {
        var low = 0, high = below.count
        while low < high {
            let middle = (low + high) / 2
            if below[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? (.lowest, 0) : (keys[low - 1], below[low - 1])
    }

    /// A row left the table at `old` and/or came into it at `new`: the samples above each count
    /// one row fewer or more.
    mutating func moved(from old: Key?, to new: Key?) {
        for index in keys.indices {
            if let old, old < keys[index] { below[index] -= 1 }
            if let new, new < keys[index] { below[index] += 1 }
        }
    }
}
