import QuakeModel
/// The distance of every candidate row from the reference point, in a table in the results
/// controller's table file (`fetch_distance`, indexed by distance; `SortTableFile`): SQLite
/// cannot index a computed order, so a `distance` sort computes it once per configuration (and
/// once per changed row in a merge), then reads rows, counts bands and ranks through the index
/// like the stored orders do.
///
/// The candidates are the match set's rows when there is one (a near filter, a search), else
/// every row; the magnitude filter is applied on top, like every order's. The table keeps each
/// row's magnitude (`mag`) so that the band counts never join back to `quake`.
///
/// At 1,000,000 quakes (BENCHMARKS.md, issue 13d): the load is one `quaketui_distance` call a
/// row over `quake` in rowid order (appends to the table's B-tree), the index one sort after
/// the load; together they are what a configuration costs. The counts are range counts on the
/// index, or with a magnitude filter one pass over the table: milliseconds.
struct DistanceTable {
    /// The `FROM` of a distance-sorted fetch: distance rows joined to their quakes (`qid`, `km`,
    /// `mag` are named so that nothing of `quake` is ambiguous).
    static let from = "fetch_distance JOIN quake ON quake.id = qid"

    /// A window of rows in a band: the distance index alone steps over the `OFFSET` rows (joined
    /// to `quake`, each skipped row cost a random read of its quake: seconds for a window in the
    /// middle of a 976,000-row band at 1M), then only the window's rows are joined. Bind the
    /// range's and the predicate's arguments, then `LIMIT` and `OFFSET`.
    /// (`stepping`: the order the index is stepped in, when not `orderBy`.)
    static func windowSQL(range: String, predicate: String, orderBy: String, stepping: String? = nil) -> String {
        """
        SELECT \(QuakeRow.columns) FROM (SELECT qid, km FROM fetch_distance WHERE \(range) AND \(predicate)
        ORDER BY \(stepping ?? orderBy) LIMIT ? OFFSET ?) JOIN quake ON quake.id = qid ORDER BY \(orderBy)
        """
    }

    /// The index that orders, ranks and counts the rows: on `km` alone, since an index entry ends
    /// in the rowid, which is `qid` (an `INTEGER PRIMARY KEY`), so its order is `(km, qid)`
    /// already; naming `qid` again stored it twice and made the build's sort a quarter slower
    /// (0.86 s against 0.65 s at 1M).
    /// (Every other statement names the table alone: SQLite finds it in whichever schema holds
    /// it, `SortTableFile.schema`.)
    static func createIndex(in schema: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(schema).fetch_distance_km ON fetch_distance(km)"
    }

    /// Creates the table in `schema` of `db` if it has none (`SortTableFile.attach`).
    static func prepare(_ db: Connection, in schema: String) throws(SQLiteError) {
        try db.execute("CREATE TABLE IF NOT EXISTS \(schema).fetch_distance (qid INTEGER PRIMARY KEY, km REAL NOT NULL, mag REAL)")
        try db.execute(createIndex(in: schema))
    }

    /// Refills the table for `origin`: the index is dropped for the load and built once after
    /// (one sort instead of a B-tree insert per row).
    /// Returns how many rows the table now holds.
    @discardableResult
    static func rebuild(_ db: Connection, origin: GeoPoint, plan: QueryPlan, in schema: String) throws -> Int {
        try rebuild(db, key: origin.distanceSQL(), plan: plan, in: schema)
    }

    /// Refills the table with `key` (an SQL expression over `quake`, never NULL) in the `km`
    /// column: the distance from an origin, or another measure ranked the same way (the
    /// intensity at home, `DistanceSort.Measure`). Returns how many rows the table now holds.
    @discardableResult
    static func rebuild(_ db: Connection, key: String, plan: QueryPlan, in schema: String) throws -> Int {
        try db.execute("DROP INDEX IF EXISTS fetch_distance_km")
        try db.execute("DELETE FROM fetch_distance")
        let source = plan.usesMatchSet ? "quake WHERE \(QueryPlan.matchSetTerm)" : "quake"
        try db.execute("INSERT INTO fetch_distance (qid, km, mag) SELECT id, \(key), magnitude FROM \(source)")
        let rows = db.changes
        try db.execute(createIndex(in: schema))
        return rows
    }

    /// How many rows of the table fall in each band (`[lower, upper)` km, in the order given) at
    /// or above the plan's minimum magnitude (`QueryPlan.distanceTableWhere`), from the table
    /// alone (every row in it is a candidate already), in a single pass over the table.
    static func bandCountsFromTable(_ db: Connection, bands: [(lowerKm: Double, upperKm: Double)], plan: QueryPlan) throws -> [Int] {
        let (predicate, arguments) = plan.distanceTableWhere
        return try countsPerBand(db, rows: "SELECT km FROM fetch_distance WHERE \(predicate)", arguments: arguments, bounds: BandBounds(bands))
    }

    /// How many candidate rows fall in each band, from one pass that computes every row's
    /// distance: no table, no sort. It is what a distance configuration shows before its table is
    /// built (`FetchedResultsController.configure(_:anchoring:withinNanoseconds:isCancelled:onBandsCounted:)`).
    /// The pass runs over the digest in C when the digest answers the plan (`SearchDigest.query`),
    /// else over `quake` in SQL (a fifth of the table's build, which is mostly the load and the
    /// index's sort). The candidates are those `rebuild` loads, and each distance is
    /// `quaketui_distance`'s: a row is counted in the band its table row will be in
    /// (`usingDigest` false: always in SQL, for tests comparing the two).
    static func bandCountsInOnePass(_ db: Connection, origin: GeoPoint, plan: QueryPlan,
                                    bands: [(lowerKm: Double, upperKm: Double)], usingDigest: Bool = true) throws -> [Int] {
        try bandCountsInOnePass(db, origin: origin, key: origin.distanceSQL(), plan: plan, bands: bands, usingDigest: usingDigest)
    }

    /// `bandCountsInOnePass(_:origin:plan:bands:usingDigest:)` for the rows' `key` (nil origin:
    /// a measure other than the distance, counted in SQL, never by the digest's pass).
    static func bandCountsInOnePass(_ db: Connection, origin: GeoPoint?, key: String, plan: QueryPlan,
                                    bands: [(lowerKm: Double, upperKm: Double)], usingDigest: Bool = true) throws -> [Int] {
        let bounds = BandBounds(bands)
        guard !bounds.values.isEmpty else { return bounds.bandCounts(atLeast: []) }
        if usingDigest, let origin, let query = try SearchDigest.query(db, plan: plan, countingKind: nil) {
            var distances = DigestDistances(bounds: bounds.values)
            let chunks = try SearchDigest.chunks(db, locations: true, details: query.needsDetails)
            while try chunks.step() {
                try db.stopIfDue()  // a newer request's cancellation, between chunks counted in C
                distances.add(chunks, query: query, origin: origin)
            }
            return bounds.bandCounts(atLeast: distances.atLeast)
        }
        let (predicate, arguments) = plan.matchedWhere
        // `LIMIT -1` keeps SQLite from flattening the subquery into the counting query, which
        // would compute the distance once for each band bound it is compared with.
        let rows = "SELECT \(key) AS km FROM quake WHERE \(predicate) LIMIT -1"
        return try countsPerBand(db, rows: rows, arguments: arguments, bounds: bounds)
    }

    /// The rows of `rows` (a query with one column, `km`) in each band, in one pass: for each
    /// bound, the rows at or past it (`count(*) FILTER`). (Grouping by band instead sorted every
    /// row by its band: 0.19 s against 0.07 s for a million rows in the `sqlite3` shell.)
    private static func countsPerBand(_ db: Connection, rows: String, arguments: [SQLiteValue], bounds: BandBounds) throws -> [Int] {
        guard !bounds.values.isEmpty else { return bounds.bandCounts(atLeast: []) }
        let columns = bounds.values.map { "count(*) FILTER (WHERE km >= \($0.sqlLiteral))" }.joined(separator: ", ")
        let statement = try db.prepare("SELECT \(columns) FROM (\(rows))")
        try statement.bind(arguments)
        guard try statement.step() else { return bounds.bandCounts(atLeast: bounds.values.map { _ in 0 }) }
        return bounds.bandCounts(atLeast: bounds.values.indices.map { Int(statement.int64(at: Int32($0))) })
    }

    /// The finite bounds of bands, ascending: a band's rows are those at or past its lower bound
    /// less those at or past its upper one (none past an infinite bound; all bands empty
    /// without a finite one).
    private struct BandBounds {
        let bands: [(lowerKm: Double, upperKm: Double)]
        let values: [Double]

        init(_ bands: [(lowerKm: Double, upperKm: Double)]) {
            self.bands = bands
            values = Array(Set(bands.flatMap { [$0.lowerKm, $0.upperKm] }.filter(\.isFinite))).sorted()
        }

        /// Each band's rows, from the rows at or past each of `values` (`atLeast`, in their order).
        func bandCounts(atLeast: [Int]) -> [Int] {
            let reaching = Dictionary(uniqueKeysWithValues: zip(values, atLeast))
            return bands.map { band in (reaching[band.lowerKm] ?? 0) - (reaching[band.upperKm] ?? 0) }
        }
    }

    /// The stored distance of row `id`, or nil when it is not a candidate.
    static func km(_ db: Connection, id: Int64) throws -> Double? {
        try db.scalar("SELECT km FROM fetch_distance WHERE qid = ?", [.integer(id)]).double
    }

    /// Moves one changed row to its new version: out under its old id, in under its new one
    /// when `isCandidate` (its distance computed in SQL from its new coordinates).
    static func update(_ db: Connection, origin: GeoPoint, oldID: Int64?, newID: Int64?, isCandidate: Bool) throws {
        try update(db, key: origin.distanceSQL(), oldID: oldID, newID: newID, isCandidate: isCandidate)
    }

    /// `update(_:origin:oldID:newID:isCandidate:)` with the row's `key` (see `rebuild(_:key:plan:)`).
    static func update(_ db: Connection, key: String, oldID: Int64?, newID: Int64?, isCandidate: Bool) throws {
        if let oldID { try db.execute("DELETE FROM fetch_distance WHERE qid = ?", [.integer(oldID)]) }
        guard let newID, isCandidate else { return }
        try db.execute("INSERT OR REPLACE INTO fetch_distance (qid, km, mag) SELECT id, \(key), magnitude FROM quake WHERE id = ?",
                       [.integer(newID)])
    }
}

extension SectionKey {
    /// The bounds of a distance band (`.distance` keys only).
    var distanceBounds: (lowerKm: Double, upperKm: Double) {
        guard case .distance(let lower, let upper) = self else { preconditionFailure("distance bounds of \(self)") }
        return (lower, upper)
    }
}
