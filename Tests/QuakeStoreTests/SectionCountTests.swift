import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The section counts the store keeps (`quake_count`), and the digest (`SearchDigest`), must
/// equal a `GROUP BY` recount and the table after any
/// mix of writes — new quakes, updates of one sort key (magnitude, time, region) or all three,
/// deletes by code, prefix and age, and bulk imports both with the count triggers and without
/// them (an import that outnumbers the store recounts at the end) — and the section index built
/// from them must equal the one walked over the rows.
@Suite struct SectionCountTests {
    /// The kept counts, and the same counts recounted from the rows, as comparable lists.
    static func keptAndRecounted(_ store: TestStore) throws -> (kept: [String], recounted: [String]) {
        try store.read { db in
            func rows(_ sql: String) throws -> [String] {
                let statement = try db.prepare(sql)
                var result: [String] = []
                while try statement.step() {
                    result.append("\(statement.int64(at: 0)) \(statement.value(at: 1)) \(statement.int64(at: 2))")
                }
                return result
            }
            let kept = try rows("SELECT kind, bucket, count FROM quake_count ORDER BY kind, bucket")
            let recounted = try rows("""
                SELECT 0 AS kind, CAST(floor(time / 900000.0) AS INTEGER) AS bucket, count(*) FROM quake GROUP BY 2
                UNION ALL SELECT 1, CASE WHEN magnitude IS NULL THEN -1 ELSE max(0, min(6, CAST(floor(floor(magnitude * 10 + 0.5) / 10) AS INTEGER))) END, count(*) FROM quake GROUP BY 2
                UNION ALL SELECT 2, regionKey, count(*) FROM quake GROUP BY 2
                UNION ALL SELECT 3, CASE WHEN depth IS NULL THEN -1000000 WHEN depth >= 9900 THEN 9900 WHEN depth < -990 THEN -1000
                    WHEN depth < 100 THEN CAST(floor(depth / 10.0) AS INTEGER) * 10 ELSE CAST(floor(depth / 100.0) AS INTEGER) * 100 END,
                    count(*) FROM quake GROUP BY 2
                ORDER BY 1, 2
                """)
            return (kept, recounted)
        }
    }

    static func randomRecord(_ code: String, _ random: inout SeededGenerator) -> QuakeRecord {
        // The whole magnitude as shown (rounded to a tenth, half up): 0.949 is `M <1`, 0.95 `M 1`,
        // 2.96 `M 3`, 5.95 `M 6+`.
        let magnitudes: [Double?] = [nil, -0.4, 0.2, 0.949, 0.95, 0.999, 1.0, 2.5, 2.949, 2.96, 4.99, 5.0, 5.949, 5.95, 6.0, 7.3]
        let regions = ["Alaska", "Chile", "Région 3", "Nepal", "Hawaii", "Ölfus, Iceland"]
        // Around the epoch too, so negative times are floored like the Swift calendar does.
        let base: Int64 = random.next(3) == 0 ? -2_000_000_000 : 1_700_000_000_000
        var record = QuakeRecord.fixture(code, magnitude: magnitudes[random.next(magnitudes.count)],
                                         place: "\(random.next(90)) km N of Town, \(regions[random.next(regions.count)])",
                                         time: base + Int64(random.next(4_000_000)) * 1_000, updated: Int64(random.next(1_000_000)))
        record.depth = depths[random.next(depths.count)]
        return record
    }

    /// Depths in every kind of band (issue 31): unknown, the open outermost ones, above sea
    /// level, on edges, deep.
    static let depths: [Double?] = [nil, -1_500, -995, -3, -0.0, 0, 4.5, 10, 35, 99.5, 100, 250, 650, 9_950, 1e300]

    @Test(arguments: [1, 2, 3])
    func keptCountsEqualARecountAfterRandomWrites(seed: UInt64) throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: seed)
        var codes: [String] = []
        for step in 0..<40 {
            let context = try store.container.newBackgroundContext(author: "test")
            defer { context.close() }
            // Steps 12 and 30 always import in bulk (outnumbering the store), the rest at random.
            switch step == 12 || step == 30 ? 0 : random.next(7) {
            case 0 where step % 3 == 0:
                // A bulk import: large enough to defer the search index; every other one also
                // outnumbers the store, which drops the count triggers and recounts at the end
                // (WriteTransaction.dropSecondaryIndexes).
                // The importer compares its new rows with max(id), an upper bound of the row count.
                let maxID = try store.read { db in Int(try db.scalar("SELECT coalesce(max(id), 0) FROM quake").int64 ?? 0) }
                let outnumbers = step % 2 == 0 && maxID < 2_500
                let size = outnumbers ? max(WriteTransaction.secondaryIndexDeferralMinimum, maxID) + 100 + random.next(200)
                    : WriteTransaction.searchIndexDeferralMinimum + 300
                var records = (0..<size).map { i in
                    Self.randomRecord(!outnumbers && random.next(2) == 0 && !codes.isEmpty ? codes[random.next(codes.count)] : "b\(step)x\(i)", &random)
                }
                if outnumbers, !codes.isEmpty {
                    // Changed versions of stored quakes too, before and after the triggers are dropped.
                    records += (0..<random.next(150)).map { _ in Self.randomRecord(codes[random.next(codes.count)], &random) }
                    records.shuffle(using: &random)
                }
                // Rows this import adds change again later in it: above the mark of the deferred
                // count triggers, they are counted once, as they end (WriteTransaction+SearchIndex).
                let added = records.map(\.code).filter { $0.hasPrefix("b\(step)x") }
                records += (0..<min(added.count, 1 + random.next(40))).map { _ in
                    var again = Self.randomRecord(added[random.next(added.count)], &random)
                    again.updated = 2_000_000 + Int64(random.next(1_000))
                    return again
                }
                var iterator = records.makeIterator()
                _ = try context.performAndWait { tx in try tx.upsert(from: { iterator.next() }) }
                codes += records.map(\.code)
            case 0, 1, 2:
                // Upserts: new codes and changed versions of old ones (time, magnitude, region move).
                let records = (0..<random.next(30)).map { i in
                    Self.randomRecord(random.next(2) == 0 && !codes.isEmpty ? codes[random.next(codes.count)] : "s\(step)x\(i)", &random)
                }
                try context.performAndWait { tx in for record in records { _ = try tx.upsert(record) } }
                codes += records.map(\.code)
            case 5 where !codes.isEmpty:
                // Updates of one sort key at a time: magnitude (across buckets or within one),
                // time (across 15-minute buckets or within one), region, or depth.
                let chosen = (0..<(1 + random.next(12))).map { _ in codes[random.next(codes.count)] }
                let current = try store.read { db in try chosen.compactMap { try db.quake(code: $0)?.record } }
                let changed = current.map { old in
                    var record = old
                    record.updated = old.updated + 1 + Int64(random.next(1_000))
                    switch random.next(4) {
                    case 0: record.magnitude = [nil, -0.2, 0.5, 1.0, 2.49, 2.5, 2.95, 2.94, 5.99, 6.0, 8.1][random.next(11)]
                    case 3: record.depth = Self.depths[random.next(Self.depths.count)]
                    case 1: record.time = old.time + Int64(random.next(2) == 0 ? 1 : 1_800_000) * (random.next(2) == 0 ? 1 : -1)
                    default: record.place = "\(random.next(90)) km S of Village, \(["Alaska", "Peru", "Région 3", "Ölfus, Iceland"][random.next(4)])"
                    }
                    return record
                }
                try context.performAndWait { tx in for record in changed { _ = try tx.upsert(record) } }
            case 3 where !codes.isEmpty:
                let victims = (0..<random.next(10)).map { _ in codes[random.next(codes.count)] }
                try context.performAndWait { tx in for code in victims { _ = try tx.deleteQuake(code: code) } }
            case 4:
                _ = try context.performAndWait { tx in try tx.deleteQuakes(codePrefix: "s\(random.next(step + 1))x") }
            default:
                let cutoff = Date(timeIntervalSince1970: random.next(2) == 0 ? -1_000_000 : 1_700_002_000)
                _ = try context.performAndWait { tx in try tx.deleteQuakes(before: cutoff) }
            }
            let (kept, recounted) = try Self.keptAndRecounted(store)
            #expect(kept == recounted, "seed \(seed), step \(step)")
            // The digest, patched or rebuilt by the same writes, holds every row as the table does.
            let digest = try store.read { try SearchDigestTests.mismatches($0) }
            #expect(digest == [], "digest: seed \(seed), step \(step)")
            if kept != recounted || digest != [] { return }
        }
    }

    /// `quake_count`'s rows (of `kind`, or of every kind) as `kind bucket count`.
    static func keptCounts(_ container: PersistentContainer, kind: Int? = nil) throws -> [String] {
        try container.viewContext.read { db in
            let statement = try db.prepare("SELECT kind, bucket, count FROM quake_count WHERE \(kind.map { "kind = \($0)" } ?? "1") ORDER BY kind, bucket")
            var rows: [String] = []
            while try statement.step() { rows.append("\(statement.int64(at: 0)) \(statement.value(at: 1)) \(statement.int64(at: 2))") }
            return rows
        }
    }

    /// The magnitude counts as schema 19's triggers kept them, cut at the integers (for stores this
    /// code writes as an older one would have).
    static let magnitudeCountsOfSchema19 = """
        DELETE FROM quake_count WHERE kind = 1;
        INSERT INTO quake_count (kind, bucket, count)
            SELECT 1, max(0, min(6, CAST(floor(magnitude) AS INTEGER))), count(*) FROM quake GROUP BY 2;
        """

    @Test func migrationCountsAnExistingStore() throws {
        let directory = try TemporaryDirectory(prefix: "quaketui-count-migration")
        defer { directory.remove() }
        // A store of the schema before the counts (version 2, with issue 14's source column), with
        // rows, written as the previous release would have.
        let v1 = try PersistentContainer(directory: directory.url, migrations: Array(Schema.migrations.prefix(2)))
        let writer = try v1.newBackgroundContext(author: "test")
        try writer.performAndWait { tx in
            _ = try tx.upsert(.fixture("a", magnitude: 4.5, place: "x, Alaska", time: 1_700_000_000_000))
            _ = try tx.upsert(.fixture("b", magnitude: nil, place: "y, Alaska", time: 1_700_000_900_000))
            _ = try tx.upsert(.fixture("c", magnitude: 6.1, place: "z, Chile", time: -1))
        }
        writer.close()
        v1.close()
        let container = try PersistentContainer(directory: directory.url)
        defer { container.close() }
        #expect(try Self.keptCounts(container) == ["0 integer(-1) 1", "0 integer(1888888) 1", "0 integer(1888889) 1",
                                                   "1 integer(-1) 1", "1 integer(4) 1", "1 integer(6) 1",
                                                   "2 text(\"alaska\") 2", "2 text(\"chile\") 1", "3 integer(10) 3"])
    }

    /// Migration 20 recounts the magnitude sections as shown: a store of schema 19 counted 2.96
    /// in `M 2` and 5.95 in `M 5`; after it they are in `M 3` and `M 6+`, as the triggers count
    /// new rows from then on.
    @Test func migrationRecountsMagnitudesAsShown() throws {
        let directory = try TemporaryDirectory(prefix: "quaketui-count-migration-20")
        defer { directory.remove() }
        let records = Self.records(magnitudes: [0.949, 0.95, 2.949, 2.96, 3.0, 5.949, 5.95])
        let v19 = try Self.olderStore(in: directory.url, schema: 19, records, counted: Self.magnitudeCountsOfSchema19)
        #expect(try Self.bucketCounts(v19, kind: 1) == ["0:2", "2:2", "3:1", "5:2"])
        v19.close()
        let container = try PersistentContainer(directory: directory.url)
        defer { container.close() }
        #expect(try Self.bucketCounts(container, kind: 1) == ["0:1", "1:1", "2:1", "3:2", "5:1", "6:1"])
        try Self.upsert(Self.records(magnitudes: [1.96], code: "new"), into: container)
        #expect(try Self.bucketCounts(container, kind: 1) == ["0:1", "1:1", "2:2", "3:2", "5:1", "6:1"])
    }

    /// A store of `schema` (this code's first migrations) holding `records`, its counts then kept
    /// as that schema's triggers kept them (`counted`: this code's triggers wrote the rows).
    static func olderStore(in directory: URL, schema: Int, _ records: [QuakeRecord], counted: String) throws -> PersistentContainer {
        let container = try PersistentContainer(directory: directory, migrations: Array(Schema.migrations.prefix(schema)))
        try upsert(records, into: container, then: counted)
        return container
    }

    static func upsert(_ records: [QuakeRecord], into container: PersistentContainer, then sql: String = "") throws {
        let writer = try container.newBackgroundContext(author: "test")
        defer { writer.close() }
        try writer.performAndWait { tx in
            for record in records { _ = try tx.upsert(record) }
            if !sql.isEmpty { try tx.connection.execute(sql) }
        }
    }

    /// `quake_count`'s buckets of `kind` as `bucket:count` (`1 integer(3) 2` → `3:2`).
    static func bucketCounts(_ container: PersistentContainer, kind: Int) throws -> [String] {
        try keptCounts(container, kind: kind).map { row in
            let parts = row.split(separator: " ")
            return "\(parts[1].dropFirst("integer(".count).dropLast()):\(parts[2])"
        }
    }

    /// A quake a millisecond apart for each magnitude, or each depth, in Alaska.
    static func records(magnitudes: [Double?] = [], depths: [Double?] = [], code: String = "q") -> [QuakeRecord] {
        let count = max(magnitudes.count, depths.count)
        return (0..<count).map { index in
            var record = QuakeRecord.fixture("\(code)\(index)", magnitude: index < magnitudes.count ? magnitudes[index] : 2,
                                             place: "x, Alaska", time: 1_700_000_000_000 + Int64(index))
            if index < depths.count { record.depth = depths[index] }
            return record
        }
    }

    /// The depth counts as schema 20's triggers kept them, cut at the stored depth, and the digest
    /// of that release's slot format (4), for stores this code writes as an older one would have.
    static let depthCountsOfSchema20 = """
        DELETE FROM quake_count WHERE kind = 3;
        INSERT INTO quake_count (kind, bucket, count)
            SELECT 3, CASE WHEN depth IS NULL THEN -1000000 WHEN depth < 0 THEN -10 WHEN depth < 100 THEN CAST(depth / 10 AS INTEGER) * 10
                ELSE CAST(depth / 100 AS INTEGER) * 100 END, count(*) FROM quake GROUP BY 2;
        UPDATE meta SET value = 4 WHERE key = 'digest';
        """

    /// Migration 21 recounts the depth bands as shown, and the digest, whose slots keep each row's
    /// band, is rebuilt: the C pass counts the same bands.
    @Test func migrationRecountsDepthsAsShown() throws {
        let directory = try TemporaryDirectory(prefix: "quaketui-count-migration-21")
        defer { directory.remove() }
        let records = Self.records(depths: [-0.04, 9.949, 9.96, 10, 99.94, 99.96])
        let v20 = try Self.olderStore(in: directory.url, schema: 20, records, counted: Self.depthCountsOfSchema20)
        #expect(try Self.bucketCounts(v20, kind: 3) == ["-10:1", "0:2", "10:1", "90:2"])
        v20.close()
        let container = try PersistentContainer(directory: directory.url)
        defer { container.close() }
        #expect(try Self.bucketCounts(container, kind: 3) == ["0:2", "10:2", "90:1", "100:1"])
        let digest = try container.viewContext.read { db in try SearchDigest.bucketCounts(db, kind: 3) }
        #expect(digest?.map { "\($0.bucket):\($0.count)" } == ["0:2", "10:2", "90:1", "100:1"])
        try Self.upsert(Self.records(depths: [19.96], code: "new"), into: container)
        #expect(try Self.bucketCounts(container, kind: 3) == ["0:2", "10:2", "20:1", "90:1", "100:1"])
    }

    /// Every way of counting gives the walk's sections. Zones whose days start off the hour (+05:45, −03:30, Lord Howe's 30-minute DST) and the usual ones.
    @Test(arguments: ["UTC", "Asia/Kathmandu", "America/St_Johns", "Australia/Lord_Howe", "America/Los_Angeles"])
    func storedSectionsEqualTheWalkedOnes(zone: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: 7)
        try store.upsert((0..<800).map { Self.randomRecord("q\($0)", &random) })
        // Unfiltered (kept counts), sparse filters (grouped matches), dense ones (counted by the
        // scan that builds the match set, with or without a minimum magnitude) and trigram
        // searches (the walk).
        let predicates = [QuakePredicate(), QuakePredicate(searchText: "17 km"), QuakePredicate(minimumMagnitude: 2.5),
                          QuakePredicate(searchText: "2 km", minimumMagnitude: 1), QuakePredicate(searchText: "a"),
                          QuakePredicate(rowFilters: [.depth(0...5)]), QuakePredicate(searchText: "a", minimumMagnitude: 2.5),
                          QuakePredicate(searchText: "o ", rowFilters: [.depth(0...50)]), QuakePredicate(searchText: "of "),
                          QuakePredicate(minimumMagnitude: 3, rowFilters: [.depth(0...50)])]
        for predicate in predicates {
            for order in QuakeSortOrder.allCases {
                for ascending in [false, true] {
                    let request = SectionedFetchRequest(predicate: predicate, sortDescriptor: QuakeSortDescriptor(order, ascending: ascending),
                                                        timeZone: TimeZone(identifier: zone)!)
                    let controller = try FetchedResultsController(container: store.container, request: request)
                    defer { controller.close() }
                    let walked = try controller.walkedSections()
                    #expect(controller.sections == walked, "\(zone) \(predicate) \(order) ascending: \(ascending)")
                    if predicate == QuakePredicate() { #expect(controller.sections.reduce(0) { $0 + $1.count } == 800) }
                }
            }
        }
    }
}

extension SectionCountTests {
    /// A bulk load counts the time, magnitude and depth buckets over the digest in C
    /// (`SearchDigest.recountSections`): the same counts as `GROUP BY`, every kind of magnitude and
    /// depth band, times before 1970; over a span of times too wide for its buckets, the times
    /// are counted by SQL.
    @Test(arguments: [1, 2])
    func aBulkLoadCountsFromTheDigestAsSQLDoes(seed: UInt64) throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: seed)
        let records = (0..<3_000).map { Self.randomRecord("r\($0)", &random) }
        // Into an empty store: the import outnumbers it, so the digest is rebuilt and counts from.
        let context = try store.container.newBackgroundContext(author: "import")
        defer { context.close() }
        _ = try context.performAndWait(importing: true) { tx in
            var iterator = records.makeIterator()
            return try tx.upsert(from: { iterator.next() })
        }
        var (kept, recounted) = try Self.keptAndRecounted(store)
        #expect(kept == recounted)
        #expect(kept.contains { $0.hasPrefix("3 ") && $0.contains("-1000000") } && kept.contains { $0.hasPrefix("1 ") && $0.contains("(-1)") },
                "unknown depths and magnitudes counted: \(kept.filter { !$0.hasPrefix("0 ") })")

        // The digest's counts are the table's, each kind; thrown away, they come back.
        func sql(_ kind: Int) -> [String] { recounted.filter { $0.hasPrefix("\(kind) ") } }
        func digest(_ kind: Int) throws -> [String]? {
            try store.read { db in try SearchDigest.bucketCounts(db, kind: kind) }?
                .map { "\(kind) \(SQLiteValue.integer($0.bucket)) \($0.count)" }
        }
        for kind in [0, 1, 3] { #expect(try digest(kind) == sql(kind), "kind \(kind)") }
        try context.performAndWait { tx in
            try tx.connection.execute("DELETE FROM quake_count")
            try SearchDigest.recountSections(tx.connection)
        }
        #expect(try Self.keptAndRecounted(store).kept == recounted)

        // Two quakes 2,000 years apart: too many 15-minute buckets to count in memory, so the
        // times are counted by SQL, the rest still over the digest.
        try store.upsert([.fixture("ancient", time: -60_000_000_000_000)])
        #expect(try digest(0) == nil)
        #expect(try digest(1) != nil && digest(3) != nil)
        try context.performAndWait { tx in
            try tx.connection.execute("UPDATE quake_count SET count = 7")
            try SearchDigest.recountSections(tx.connection)
        }
        (kept, recounted) = try Self.keptAndRecounted(store)
        #expect(kept == recounted)
    }

    /// Matches spread over more years than the scan counts in memory (a bucket per 15 minutes,
    /// 60 years at most): the scan gives up counting and the walk counts, with the same result.
    @Test func matchesSpreadOverCenturiesAreCountedByTheWalk() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("old", magnitude: 5, place: "x, Alaska", time: -5_000_000_000_000),
                          .fixture("new", magnitude: 3, place: "y, Alaska", time: 1_700_000_000_000),
                          .fixture("newer", magnitude: 4, place: "z, Alaska", time: 1_700_000_900_000)])
        for order in [QuakeSortOrder.time, .magnitude] {
            let request = SectionedFetchRequest(predicate: QuakePredicate(searchText: "a"),
                                                sortDescriptor: QuakeSortDescriptor(order, ascending: false), timeZone: .gmt)
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            #expect(controller.sections == (try controller.walkedSections()))
            #expect(controller.count == 3)
        }
    }

    /// The match set's bucket counts, as the scan leaves them: ascending, empty buckets left
    /// out, NULL buckets not counted; a span too wide is nil; `removeAll` starts again.
    @Test func aMatchSetCountsItsRowsPerBucket() throws {
        let store = try TestStore()
        defer { store.remove() }
        let set = MatchSet()
        try store.container.viewContext.read { db in
            try set.register(on: db)
            try db.execute("""
                WITH rows(id, bucket) AS (VALUES (1, 7), (2, -3), (3, 7), (4, NULL), (5, 500))
                SELECT count(quaketui_match_counting(id, bucket)) FROM rows
                """)
            #expect(set.count == 5)
            #expect(set.bucketCounts?.map { [$0.bucket, Int64($0.count)] } == [[-3, 1], [7, 2], [500, 1]])
            try db.execute("SELECT quaketui_match_counting(6, 500 + (1 << 21))")
            #expect(set.bucketCounts == nil)
            set.removeAll()
            try db.execute("SELECT quaketui_match_counting(6, 1 << 40)")
            #expect(set.bucketCounts?.map { [$0.bucket, Int64($0.count)] } == [[1 << 40, 1]])
        }
    }
}

extension SeededGenerator {
    /// A value in `0..<bound` (a bound of 0 gives 0).
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
