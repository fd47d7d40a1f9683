import QuakeModel
/// A section index from counts per bucket rather than a walk over every quake's index entry:
/// unfiltered, from the counts the store keeps (`quake_count`, maintained by triggers in every
/// write's transaction, see `Schema`), a few hundred small rows; filtered by few matches, from
/// one `GROUP BY` over the matching rows (driven by the match set or the magnitude index, so it
/// reads the matches, not the table).
///
/// Each order reads its buckets into sections itself (`SortStrategy.countedSections`).
///
/// Time is counted in 15-minute buckets, so the days of every time zone (`+05:45` included)
/// are whole runs of buckets; a day whose bounds fall inside a bucket (a historical zone
/// offset in seconds) makes `TimeSort.countedSections` return nil, and the caller counts by walking instead.
struct SectionCounts {
    /// The width of a time bucket, in ms.
    static let timeBucket: Int64 = 900_000

    /// Where the counts per bucket come from.
    enum Source {
        /// The store's `quake_count` (an unfiltered fetch).
        case kept
        /// A `GROUP BY` over the rows matching a `WHERE` clause (with its arguments).
        case matching(String, [SQLiteValue])
        /// The rows of a match set passing a `WHERE` term (the plan's `magnitudeTerm`; nil: all),
        /// each read by its id: for a set that is a small part of the table, which a walk of the
        /// sort index would mostly skip.
        case matchSet(MatchSet, (String, [SQLiteValue])?)
        /// The counts per bucket of the scan that built a match set, read where C keeps them
        /// (`MatchSet.nextBucketCount`), not copied: 2.7 MB for five years of 15-minute buckets.
        case counted(MatchSet)
    }

    /// The bucket of `kind` (0 time, 1 magnitude, 2 region, 3 depth) of a row, as SQL over
    /// `quake`: what `quake_count` keeps per kind.
    static func bucketSQL(kind: Int) -> String {
        [Schema.timeBucket("time"), Schema.magnitudeBucket("magnitude"), "regionKey", Schema.depthBucket("depth")][kind]
    }

    /// The buckets of `kind` (0 time, 1 magnitude, 2 region, 3 depth) in `direction`, one `(bucket,
    /// count)` per call of the returned function, then nil.
    static func buckets(_ db: Connection, kind: Int, source: Source,
                                ascending: Bool) throws -> () throws -> (SQLiteValue, Int)? {
        let shownSince: Int? = switch kind { case 1: Schema.magnitudesAsShown; case 3: Schema.depthsAsShown; default: nil }
        if case .kept = source, let shownSince, try !db.hasSchema(atLeast: shownSince) {
            // A store before migration 20 or 21 (read-only, read as it is) keeps whole magnitudes or
            // depth bands cut at the stored value, not as shown: counted from the rows instead.
            return try buckets(db, kind: kind, source: .matching("1", []), ascending: ascending)
        }
        let bucket = bucketSQL(kind: kind)
        let direction = ascending ? "ASC" : "DESC"
        let statement: Statement
        switch source {
        case .kept:
            statement = try db.prepare("SELECT bucket, count FROM quake_count WHERE kind = \(kind) ORDER BY bucket \(direction)")
        case .matching(let clause, let arguments):
            statement = try db.prepare("SELECT \(bucket) AS bucket, count(*) FROM quake WHERE \(clause) GROUP BY 1 ORDER BY 1 \(direction)")
            try statement.bind(arguments)
        case .counted(let set):
            var index: Int?
            return { set.nextBucketCount(after: &index, ascending: ascending).map { (.integer($0.bucket), $0.count) } }
        case .matchSet(let set, let term):
            let row = try db.prepare("SELECT \(bucket) FROM quake WHERE id = ? AND \(term?.0 ?? "1")")
            var counts: [SQLiteValue: Int] = [:]
            for id in set.ids {
                row.reset()  // and its bindings
                try row.bind(id, at: 1)
                for (index, argument) in (term?.1 ?? []).enumerated() { try row.bind(argument, at: Int32(index + 2)) }
                if try row.step() { counts[row.value(at: 0), default: 0] += 1 }
            }
            // In SQLite's order: integers numerically, text by its UTF-8 bytes (BINARY).
            let sorted = counts.sorted { a, b in
                switch (a.key, b.key) {
                case (.integer(let x), .integer(let y)): ascending ? x < y : x > y
                case (.text(let x), .text(let y)):
                    ascending ? x.utf8.lexicographicallyPrecedes(y.utf8) : y.utf8.lexicographicallyPrecedes(x.utf8)
                default: preconditionFailure("buckets of one kind are all integers or all text")
                }
            }
            var next = sorted.makeIterator()
            return { next.next().map { ($0.key, $0.value) } }
        }
        return {
            guard try statement.step() else { return nil }
            return (kind == 2 ? .text(statement.text(at: 0)) : .integer(statement.int64(at: 0)), Int(statement.int64(at: 1)))
        }
    }
}
