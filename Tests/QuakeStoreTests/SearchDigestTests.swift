import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The digest (`SearchDigest`) must hold every row exactly as the table does after any write
/// that commits — `SectionCountTests`' random writes check it after each step — and a search
/// must find the same rows and counts through it as through SQL. A store it cannot describe, or
/// one written by another program, is searched with SQL until quaketui's next write.
@Suite struct SearchDigestTests {
    /// What differs between the digest and the table (`SearchDigest.mismatches`).
    static func mismatches(_ db: Connection) throws -> [String] { try SearchDigest.mismatches(db) }

    /// A write made by another program (the `sqlite3` shell): no flush follows it.
    static func writeByHand(_ store: TestStore, _ sql: String) throws {
        let other = try Connection(path: store.directory.url.appendingPathComponent("quakes.sqlite").path)
        defer { other.close() }
        try other.execute(sql)
    }

    /// The digest is complete in `db`'s snapshot and holds every row as the table does.
    static func expectCurrentAndEqual(_ db: Connection, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try SearchDigest.isCurrent(db), sourceLocation: sourceLocation)
        #expect(try mismatches(db) == [], sourceLocation: sourceLocation)
    }

    /// A store of `count` seeded records (`record`), codes q0, q1 …
    static func store(of count: Int, _ random: inout SeededGenerator) throws -> TestStore {
        let store = try TestStore()
        try store.upsert((0..<count).map { Self.record("q\($0)", &random) })
        return store
    }

    /// Opening the store in `directory` leaves its digest complete and equal to the table.
    static func expectCurrentWhenOpened(_ directory: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let container = try PersistentContainer(directory: directory)
        defer { container.close() }
        try container.viewContext.read { db throws in try expectCurrentAndEqual(db, sourceLocation: sourceLocation) }
    }

    /// Runs `body` with the store's digest set aside (a row listed dirty, as another program's
    /// write leaves it), so that its readers use SQL.
    static func withoutDigest<T>(_ store: TestStore, _ body: () throws -> T) throws -> T {
        let path = store.directory.url.appendingPathComponent("quakes.sqlite").path
        let other = try Connection(path: path)
        try other.execute("INSERT INTO quake_digest_dirty (id) VALUES (1) ON CONFLICT DO NOTHING")
        defer {
            try? other.execute("DELETE FROM quake_digest_dirty")
            other.close()
        }
        return try body()
    }

    /// The counts and ids a search finds through the digest and through SQL, per bucket kind.
    static func searchedBothWays(_ db: Connection, _ request: SectionedFetchRequest) throws -> (digest: [String], sql: [String]) {
        let plan = QueryPlan(request)
        var result: [[String]] = []
        for usingDigest in [true, false] {
            var lines: [String] = []
            for kind in [nil, 0, 1, 3] as [Int?] {
                let set = MatchSet()
                try set.register(on: db)
                let counted = try ResultMatches(plan: plan, set: set).rebuild(db, countingKind: kind, usingDigest: usingDigest)
                lines.append("kind \(kind ?? -1): \(set.count) ids, sum \(set.ids.reduce(0, +))")
                // The SQL path counts only in a scan (1–2 letters): compare what both count.
                if counted, kind != nil, !usingDigest || plan.matchSetScan(countingBy: nil) != nil {
                    lines.append("counts \(set.bucketCounts.map { $0.map { "\($0.bucket):\($0.count)" } } ?? ["too wide"])")
                }
            }
            result.append(lines)
        }
        return (result[0], result[1])
    }

    static let places = ["12 km NNE of Ålesund, Norway", "3 km W of Anchor Point, Alaska", "Near the coast of Chile",
                         "Ölfus, Iceland", "5 km S of Volcano, Hawaii", "alaska peninsula", ""]

    /// Lists the digest answers — everything, a minimum magnitude, a search, each filter whose
    /// columns it holds alone and with a search — and one it leaves to SQL (felt reports).
    static let predicates = [
        QuakePredicate(), QuakePredicate(minimumMagnitude: 2.5), QuakePredicate(searchText: "a"),
        QuakePredicate(rowFilters: [.depth(0...50)]), QuakePredicate(searchText: "a", rowFilters: [.magnitude(2...5)]),
        QuakePredicate(rowFilters: [.time(from: 1_700_000_000_000, until: 1_700_002_000_000)]),
        QuakePredicate(rowFilters: [.time(from: 0, until: nil)]),
        QuakePredicate(searchText: "al", minimumMagnitude: 1, rowFilters: [.near(GeoPoint(latitude: 60, longitude: -150), radiusKm: 3_000)]),
        QuakePredicate(rowFilters: [.near(GeoPoint(latitude: -17, longitude: 179), radiusKm: 5_000), .depth(-10...700)]),
        QuakePredicate(searchText: "a", rowFilters: [.felt]),
    ]

    static func record(_ code: String, _ random: inout SeededGenerator) -> QuakeRecord {
        var record = SectionCountTests.randomRecord(code, &random)
        record.place = places[random.next(places.count)]
        return record
    }

    @Test func aSearchFindsTheSameRowsAndCountsThroughTheDigestAsThroughSQL() throws {
        var random = SeededGenerator(seed: 11)
        let store = try Self.store(of: 600, &random)
        defer { store.remove() }
        try store.read { db throws in
            try Self.expectCurrentAndEqual(db)
            for predicate in Self.predicates {
                let (digest, sql) = try Self.searchedBothWays(db, SectionedFetchRequest(predicate: predicate))
                #expect(digest == sql, "\(predicate)")
            }
            for search in ["a", "al", "ala", "alaska", "ö", "of ", "x", "ålesund", "zz"] {
                for minimum in [nil, 2.5] as [Double?] {
                    let request = SectionedFetchRequest(predicate: QuakePredicate(searchText: search, minimumMagnitude: minimum))
                    let (digest, sql) = try Self.searchedBothWays(db, request)
                    #expect(digest == sql, "\(search) ≥ \(minimum ?? -1)")
                }
            }
        }
    }

    @Test func theMapCountsTheSameCellsThroughTheDigestAsThroughSQL() throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: 17)
        try store.upsert((0..<800).map { index in
            var record = Self.record("q\(index)", &random)
            record.latitude = [-90, 90, 0, -0.0, 89.99][index % 11 < 5 ? index % 11 : 2] + (index % 11 < 5 ? 0 : Double(random.next(17_000)) / 100 - 85)
            record.longitude = index % 13 == 0 ? [180, -180, 179.9][index % 3] : Double(random.next(36_000)) / 100 - 180
            return record
        })
        let windows = [GridWindow.world(cellDegrees: 2), .world(cellDegrees: 0.25),
                       .around(latitude: -18, longitude: 179, latitudeSpan: 20, cellDegrees: 0.2),
                       .around(latitude: 60, longitude: -150, latitudeSpan: 40, cellDegrees: 1)]
        let requests = (Self.predicates + [QuakePredicate(searchText: "alaska", minimumMagnitude: 1)]).map { SectionedFetchRequest(predicate: $0) }
        #expect(try store.read { try SearchDigest.isCurrent($0) })
        #expect(try Self.withoutDigest(store) { try store.read { try !SearchDigest.isCurrent($0) } })
        var nonEmpty = 0
        defer { #expect(nonEmpty > windows.count * requests.count / 2, "most windows hold quakes") }
        for window in windows {
            for request in requests {
                let digest = try store.read { db in try db.densityGrid(of: request, in: window) }
                let sql = try Self.withoutDigest(store) { try store.read { db in try db.densityGrid(of: request, in: window) } }
                #expect(digest == sql, "\(window) \(request.predicate)")
                if !digest.cells.isEmpty { nonEmpty += 1 }
            }
        }
    }

    /// A scan of the digest is C between a statement's steps, which SQLite's progress handler
    /// never counts: a passed deadline (a key's budget) and a cancellation (a newer job) stop it
    /// at the next chunk all the same, so the key that asked is answered in time.
    @Test func aDeadlineOrACancellationStopsADigestScan() throws {
        var random = SeededGenerator(seed: 23)
        let store = try Self.store(of: 600, &random)
        defer { store.remove() }
        let request = SectionedFetchRequest(predicate: QuakePredicate(searchText: "a"))
        let scans: [(String, (Connection) throws -> Void)] = [
            ("matches", { db in
                let set = MatchSet()
                try set.register(on: db)
                _ = try ResultMatches(plan: QueryPlan(request), set: set).rebuild(db, countingKind: 0, usingDigest: true)
            }),
            ("statistics", { db in _ = try db.catalogueStatistics(of: request) }),
            ("map", { db in _ = try db.densityGrid(of: request, in: .world(cellDegrees: 2)) }),
        ]
        try store.read { db throws in
            #expect(try SearchDigest.isCurrent(db))
            for (name, scan) in scans {
                try scan(db)  // unstopped, it runs to its end
                let late = #expect(throws: SQLiteError.self, "\(name)") { try db.withDeadline(nanoseconds: 1) { try scan(db) } }
                #expect(late?.isInterrupted == true, "\(name)")
                let replaced = #expect(throws: SQLiteError.self, "\(name)") { try db.withCancellation({ true }) { try scan(db) } }
                #expect(replaced?.isInterrupted == true, "\(name)")
            }
        }
    }

    @Test func theStatisticsAreTheSameThroughTheDigestAsThroughSQL() throws {
        var random = SeededGenerator(seed: 19)
        let store = try Self.store(of: 700, &random)
        defer { store.remove() }
        #expect(try store.read { try SearchDigest.isCurrent($0) })
        let predicates = Self.predicates + [QuakePredicate(searchText: "alaska", minimumMagnitude: 1), QuakePredicate(searchText: "zz")]
        for zone in ["UTC", "Asia/Kathmandu"] {
            for predicate in predicates {
                let request = SectionedFetchRequest(predicate: predicate, timeZone: TimeZone(identifier: zone)!)
                let digest = try store.read { db in try db.catalogueStatistics(of: request) }
                let sql = try Self.withoutDigest(store) { try store.read { db in try db.catalogueStatistics(of: request) } }
                #expect(digest == sql, "\(zone) \(predicate)")
                #expect(digest.topRegions() .map { "\($0)" } == sql.topRegions().map { "\($0)" })
            }
        }
    }

    /// The statistics' pass over the digest counts most rows in C and leaves the others to Swift:
    /// those in a new day or hour, those that may be among the largest (ties too), a magnitude or
    /// depth outside the bins. Over more than one chunk, in time order and not, before 1970 and
    /// after, under three days (hours) and over, in zones with and without daylight saving and a
    /// local mean time, it counts what the SQL pass counts.
    @Test(arguments: [(UInt64(31), Int64(2 * 86_400_000)), (UInt64(32), Int64(40 * 86_400_000)), (UInt64(33), Int64(30 * 86_400_000))])
    func theStatisticsCountedInCAreThoseCountedInSwift(seed: UInt64, span: Int64) throws {
        var random = SeededGenerator(seed: seed)
        let magnitudes: [Double?] = [nil, 2.5, 2.5, 3.14, 4.45, 0.05, 7.0, 7.0, 25, -9, 19.14, 19.15, -6.45, -6.44, .nan, 1e308, -1e308, 9e17]
        let start: Int64 = seed == 33 ? -2_208_988_800_000 : 1_700_000_000_000  // 1900 or 2023
        let store = try TestStore()
        defer { store.remove() }
        var records: [QuakeRecord] = []
        for index in 0..<5_000 {
            // The first half in time order (runs of days and hours), the rest anywhere in the span.
            let time = start + (index < 2_500 ? Int64(index) * (span / 2_500) : Int64(random.next(Int(span / 1000))) * 1000)
            var record = Self.record("q\(index)", &random)
            record.time = time
            record.magnitude = magnitudes[random.next(magnitudes.count)]
            record.depth = SectionCountTests.depths[random.next(SectionCountTests.depths.count)]
            records.append(record)
        }
        try store.upsert(records)
        #expect(try store.read { try SearchDigest.isCurrent($0) })
        for zone in ["UTC", "Europe/Amsterdam", "America/Santiago", "Asia/Kathmandu"] {
            for predicate in [QuakePredicate(), QuakePredicate(searchText: "a", minimumMagnitude: 2.5)] {
                let request = SectionedFetchRequest(predicate: predicate, timeZone: TimeZone(identifier: zone)!)
                let digest = try store.read { db in try db.catalogueStatistics(of: request) }
                let sql = try Self.withoutDigest(store) { try store.read { db in try db.catalogueStatistics(of: request) } }
                #expect(digest == sql, "\(zone) \(predicate)")
                #expect(digest.isHourly == (span < CatalogueStatistics.hourlySpan))
                #expect(digest.count > 0)
            }
        }
    }

    @Test func aStoreWrittenByAnotherProgramIsSearchedWithSQLUntilQuaketuiWritesAgain() throws {
        var random = SeededGenerator(seed: 12)
        let store = try Self.store(of: 200, &random)
        defer { store.remove() }
        // Another program (the `sqlite3` shell) changes places: the triggers list the rows, and
        // nothing patches their slots.
        try Self.writeByHand(store, "UPDATE quake SET placeKey = 'edited by hand', place = 'Edited by hand' WHERE id % 3 = 0")
        try Self.writeByHand(store, "DELETE FROM quake WHERE id % 7 = 0")
        let search = SectionedFetchRequest(predicate: QuakePredicate(searchText: "by hand"))
        try store.read { db throws in
            #expect(try !SearchDigest.isCurrent(db))
            let set = MatchSet()
            #expect(try !SearchDigest.fill(db, plan: QueryPlan(search), countingKind: 0, into: set))
            let (digest, sql) = try Self.searchedBothWays(db, search)
            #expect(digest == sql)
            // Ids 3, 6 … 198 but the multiples of 7 (deleted): 66 - 9.
            #expect(sql[0].hasPrefix("kind -1: 57 ids"), "\(sql)")
        }
        // `quaketui info` says so: the rows listed, 66 updated and 28 deleted (9 of them both).
        #expect(try store.read { try $0.digestState() } == .behind(rows: 85))
        // quaketui's next write, of anything, catches the digest up.
        try store.upsert([Self.record("new", &random)])
        #expect(try store.read { try $0.digestState() } == .current)
        try store.read { db throws in
            try Self.expectCurrentAndEqual(db)
        }
    }

    @Test func aRowTheSlotsCannotHoldLeavesTheStoreWithoutADigest() throws {
        var random = SeededGenerator(seed: 13)
        let store = try Self.store(of: 50, &random)
        defer { store.remove() }
        // A time that is not an integer compares with the search's bounds as text in SQL.
        try Self.writeByHand(store, "UPDATE quake SET time = 'yesterday' WHERE id = 5")
        try store.upsert([Self.record("new", &random)])
        try store.read { db throws in
            #expect(try !SearchDigest.isCurrent(db))
            let (digest, sql) = try Self.searchedBothWays(db, SectionedFetchRequest(predicate: QuakePredicate(searchText: "a")))
            #expect(digest == sql)
        }
        #expect(try store.read { try $0.digestState() } == .unheld)
        // Marked so: opening the store again does not read every row to try again.
        let again = try PersistentContainer(directory: store.directory.url)
        #expect(try again.viewContext.read { try $0.scalar("SELECT value FROM meta WHERE key = 'digest'") } == .integer(0))
        again.close()
        // Once the row is put right, the next bulk import (a rebuild) gives the store its digest back.
        try Self.writeByHand(store, "UPDATE quake SET time = 0 WHERE id = 5")
        let context = try store.container.newBackgroundContext(author: "test")
        defer { context.close() }
        var bulk = (0..<3_000).map { Self.record("bulk\($0)", &random) }.makeIterator()
        _ = try context.performAndWait(importing: true) { tx in try tx.upsert(from: { bulk.next() }) }
        try store.read { db throws in #expect(try Self.mismatches(db) == []) }
    }

    @Test func aWriteThatFailsLeavesTheDigestAsItWas() throws {
        var random = SeededGenerator(seed: 14)
        let store = try Self.store(of: 100, &random)
        defer { store.remove() }
        let before = try store.read { db in try SearchDigest.rows(db)!.mapValues { "\($0.place) \($0.region) \($0.row)" } }
        struct Stop: Error {}
        let context = try store.container.newBackgroundContext(author: "test")
        defer { context.close() }
        #expect(throws: Stop.self) {
            try context.performAndWait { tx in
                for i in 0..<40 { _ = try tx.upsert(Self.record("q\(i)", &random)) }
                _ = try tx.deleteQuakes(codePrefix: "q5")
                throw Stop()
            }
        }
        try store.read { db throws in
            #expect(try SearchDigest.rows(db)!.mapValues { "\($0.place) \($0.region) \($0.row)" } == before)
            #expect(try Self.mismatches(db) == [])
        }
    }

    @Test func theMigrationBuildsTheDigestOfAnExistingStore() throws {
        let directory = try TemporaryDirectory(prefix: "quaketui-digest-migration")
        defer { directory.remove() }
        let old = try PersistentContainer(directory: directory.url, migrations: Array(Schema.migrations.prefix(SearchDigest.schemaVersion - 1)))
        let writer = try old.newBackgroundContext(author: "test")
        var random = SeededGenerator(seed: 15)
        try writer.performAndWait { tx in for i in 0..<5_000 { _ = try tx.upsert(Self.record("q\(i)", &random)) } }
        writer.close()
        old.close()
        let container = try PersistentContainer(directory: directory.url)
        defer { container.close() }
        try container.viewContext.read { db throws in
            try Self.expectCurrentAndEqual(db)
            #expect(try db.scalar("SELECT count(*) FROM quake_digest").int64 == 2)  // ids 1 ... 5,000
        }
    }

    @Test func aDigestOfAnotherFormatIsBuiltAgainWhenTheStoreOpens() throws {
        let directory = try TemporaryDirectory(prefix: "quaketui-digest-format")
        defer { directory.remove() }
        var random = SeededGenerator(seed: 18)
        do {
            let container = try PersistentContainer(directory: directory.url)
            defer { container.close() }
            let writer = try container.newBackgroundContext(author: "test")
            defer { writer.close() }
            try writer.performAndWait { tx in for i in 0..<300 { _ = try tx.upsert(Self.record("q\(i)", &random)) } }
            // An older quaketui's digest: another format, other slots.
            try writer.performAndWait { tx in
                try tx.connection.execute("UPDATE meta SET value = ? WHERE key = 'digest'", [.integer(Int64(SearchDigest.format - 1))])
                try tx.connection.execute("UPDATE quake_digest SET slots = zeroblob(length(slots))")
            }
        }
        try Self.expectCurrentWhenOpened(directory.url)
    }

    @Test func aStoreLoadedWithoutItsDigestGetsOneWhenItOpens() throws {
        var random = SeededGenerator(seed: 20)
        let store = try Self.store(of: 300, &random)
        defer { store.remove() }
        // As an expert's `sqlite3` load leaves it: the schema, the rows, no digest.
        try Self.writeByHand(store, "DELETE FROM quake_digest; DELETE FROM quake_digest_location; DELETE FROM quake_digest_detail; DELETE FROM meta WHERE key = 'digest'")
        #expect(try store.read { try $0.digestState() } == .absent)
        try Self.expectCurrentWhenOpened(store.directory.url)
    }

    /// A digest BLOB cut short by hand is read no further than it goes: fewer rows, no crash.
    @Test func aDigestCutShortByHandIsReadAsFarAsItGoes() throws {
        var random = SeededGenerator(seed: 21)
        let store = try Self.store(of: 100, &random)
        defer { store.remove() }
        try Self.writeByHand(store, "UPDATE quake_digest_location SET slots = substr(slots, 1, 160); UPDATE quake_digest_detail SET slots = x''")
        try store.read { db throws in
            let grid = try db.densityGrid(of: SectionedFetchRequest(), in: .world(cellDegrees: 2))
            #expect(grid.cells.reduce(0) { $0 + $1.count } == 9)  // ids 1 … 9: the 10 slots of 16 bytes from id 0
            let statistics = try db.catalogueStatistics(of: SectionedFetchRequest())
            #expect(statistics.count == 0)
        }
    }

    /// A dictionary of more than two chunks of texts (a real catalogue's places are mostly
    /// distinct), grown by a rebuild and then by patches across chunk boundaries, is searched as
    /// SQL searches; with a chunk of its packed names cut or gone, searches fall back to SQL.
    @Test func aDictionaryOfManyChunksIsSearchedAsSQLSearches() throws {
        var random = SeededGenerator(seed: 23)
        func record(_ i: Int) -> QuakeRecord {
            var record = Self.record("d\(i)", &random)
            record.place = i % 7 == 0 ? "\(i) km N of Ölfus, Iceland" : "\(i % 977) km \(["N", "SSW", "E"][i % 3]) of Town \(i), Alaska"
            return record
        }
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<5_000).map(record))
        for batch in stride(from: 5_000, to: 9_200, by: 700) { try store.upsert((batch..<batch + 700).map(record)) }
        func expectSearchesAgree(_ note: String, throughDigest: Bool) throws {
            try store.read { db throws in
                let plan = QueryPlan(SectionedFetchRequest(predicate: QuakePredicate(searchText: "town")))
                #expect((try SearchDigest.query(db, plan: plan, countingKind: nil) != nil) == throughDigest, "\(note)")
                for search in ["a", "ö", "1", "12", "town 40", "km n", "9199", "ssw of town 91", "iceland", "zz", "n of", "a, al"] {
                    let (digest, sql) = try Self.searchedBothWays(db, SectionedFetchRequest(predicate: QuakePredicate(searchText: search)))
                    #expect(digest == sql, "\(note): \(search)")
                }
            }
        }
        try store.read { db throws in
            try Self.expectCurrentAndEqual(db)
            #expect(try db.scalar("SELECT count(*) FROM quake_digest_names").int64 == 3)
        }
        try expectSearchesAgree("packed", throughDigest: true)
        try Self.writeByHand(store, "UPDATE quake_digest_names SET texts = substr(texts, 1, 9000) WHERE chunk = 1")
        try expectSearchesAgree("a chunk cut short", throughDigest: false)
        try Self.writeByHand(store, "DELETE FROM quake_digest_names WHERE chunk = 1")
        try expectSearchesAgree("a chunk gone", throughDigest: false)
    }

    /// A chunk of packed names reads back as it was written, in Swift and in C, and a BLOB cut
    /// short is refused by both rather than read past its end.
    @Test func packedNamesReadBackAsWrittenAndACutBlobIsRefused() {
        let texts = ["", "3 km w of anchor point, alaska", "", "ölfus, iceland", "a", "nul\u{0}in it"]
        let blob = DigestNames.encode(texts.map { Array($0.utf8) })
        #expect(blob.withUnsafeBytes(DigestNames.decode) == texts)
        var bits = [UInt64](repeating: 0, count: 1)
        let count = blob.withUnsafeBytes { blob in
            Array("a".utf8).withUnsafeBytes { DigestNames.mark(blob, firstID: 0, matching: $0, in: &bits, below: 64) }
        }
        #expect(count == 6)
        #expect(bits[0] == 0b01_1010)  // ids 1, 3 and 4 hold "a"; the empty ones and "nul…" do not
        for length in [0, 3, 10, blob.count - 1] {
            let cut = Array(blob.prefix(length))
            #expect(cut.withUnsafeBytes(DigestNames.decode) == nil, "\(length) bytes")
            var none = [UInt64](repeating: 0, count: 1)
            let marked = cut.withUnsafeBytes { cut in
                Array("a".utf8).withUnsafeBytes { DigestNames.mark(cut, firstID: 0, matching: $0, in: &none, below: 64) }
            }
            #expect(marked == nil, "\(length) bytes")
        }
    }

    @Test func aWriteOfManyRowsRebuildsAndAFewArePatched() throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: 16)
        // Row by row into a store of 10,000 (no bulk switch below its size): patched slots.
        try store.upsert((0..<10_000).map { Self.record("q\($0)", &random) })
        try store.upsert((0..<500).map { Self.record(random.next(2) == 0 ? "q\(random.next(10_000))" : "n\($0)", &random) })
        try store.read { db throws in #expect(try Self.mismatches(db) == []) }
        // Every row deleted: past the patch limit, a rebuild of the empty table.
        let context = try store.container.newBackgroundContext(author: "test")
        defer { context.close() }
        _ = try context.performAndWait { tx in try tx.deleteQuakes() }
        try store.read { db throws in
            #expect(try Self.mismatches(db) == [])
            #expect(try db.scalar("SELECT count(*) FROM quake_digest").int64 == 0)
        }
    }
}

/// The digest counts each kind's rows (`quake_digest_kind.rows`, schema 19), so that a write
/// knows which agencies the store holds now: one whose rows are all gone no longer makes every
/// report of an import look for that agency's reports near it.
@Suite struct DigestKindCountTests {
    static let magTypes: [String?] = ["ml", "mb", "mww", nil]
    static let agencies = ["usgs", "emsc", "geofon"]

    /// A report of `agency`, alone in its hour: agencies a day apart never join one event.
    static func record(_ code: String, agency: Int, _ random: inout SeededGenerator) -> QuakeRecord {
        let day = Int64(agency) * 86_400_000 + Int64(random.next(40)) * 1_200_000
        var record = QuakeRecord.fixture(code, magnitude: Double(random.next(60)) / 10, time: 1_704_067_200_000 + day)
        record.magType = magTypes[random.next(magTypes.count)]
        record.source = agencies[agency]
        return record
    }

    /// What `WriteTransaction.agenciesOfStore` answers, and the agencies the table holds.
    static func agencies(_ store: PersistentContainer) throws -> (told: Set<String>?, held: Set<String>) {
        let context = try store.newBackgroundContext(author: "test")
        defer { context.close() }
        let told = try context.performAndWait { tx in try tx.agenciesOfStore() }
        let held = try store.viewContext.read { db throws in
            var held: Set<String> = []
            let rows = try db.prepare("SELECT DISTINCT ifnull(source, 'usgs') FROM quake")
            while try rows.step() { held.insert(rows.text(at: 0)) }
            return held
        }
        return (told, held)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func eachKindCountsItsRowsThroughWritesUpdatesAndDeletes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let store = try TestStore()
        defer { store.remove() }
        var next = 0
        for step in 0..<24 {
            let context = try store.container.newBackgroundContext(author: "test")
            defer { context.close() }
            switch random.next(4) {
            case 0, 1:
                // New rows of one agency: a few (slots patched) or many (chunks written whole, or a rebuild).
                let agency = random.next(Self.agencies.count), count = [3, 80, 6_000][random.next(3)]
                let records = (0..<count).map { _ in
                    next += 1
                    return Self.record("\(Self.agencies[agency]):q\(next)", agency: agency, &random)
                }
                try store.upsert(records)
            case 2:
                // Some rows take another magnitude type: their slots change kind.
                let agency = random.next(Self.agencies.count)
                try context.performAndWait { tx in
                    try tx.connection.execute("""
                        UPDATE quake SET magType = ?, updated = updated + 1 WHERE id IN (SELECT id FROM quake WHERE ifnull(source, 'usgs') = ? LIMIT 5)
                        """, [.text(["ml", "mb", "mwr"][random.next(3)]), .text(Self.agencies[agency])])
                    try SearchDigest.flush(tx.connection)
                }
            default:
                // One agency's rows deleted, all of them.
                let agency = Self.agencies[random.next(Self.agencies.count)]
                _ = try context.performAndWait { tx in try tx.deleteQuakes(codePrefix: "\(agency):") }
            }
            try store.read { db throws in #expect(try SearchDigest.mismatches(db) == [], "seed \(seed) step \(step)") }
            let (told, held) = try Self.agencies(store.container)
            #expect(told == held, "seed \(seed) step \(step)")
        }
    }

    @Test func aStoreOfSchema18CountsItsKindsWhenItOpens() throws {
        let directory = try TemporaryDirectory(prefix: "quaketui-kind-counts")
        defer { directory.remove() }
        var random = SeededGenerator(seed: 9)
        do {
            // Schema 18 kept no counts: the EMSC rows' kinds stay after their rows are deleted.
            let old = try PersistentContainer(directory: directory.url, migrations: Array(Schema.migrations.prefix(Schema.kindsCounted - 1)))
            defer { old.close() }
            let writer = try old.newBackgroundContext(author: "test")
            defer { writer.close() }
            try writer.performAndWait { tx in
                for i in 0..<300 { _ = try tx.upsert(Self.record("usgs:q\(i)", agency: 0, &random)) }
                for i in 0..<300 { _ = try tx.upsert(Self.record("emsc:q\(i)", agency: 1, &random)) }
            }
            _ = try writer.performAndWait { tx in try tx.deleteQuakes(codePrefix: "emsc:") }
            #expect(try old.viewContext.read { try $0.scalar("SELECT count(*) FROM quake_digest_kind WHERE source = 'emsc'").int64 } ?? 0 > 0)
        }
        let store = try PersistentContainer(directory: directory.url)
        defer { store.close() }
        #expect(try store.viewContext.read { try $0.scalar("SELECT count(*) FROM quake_digest_kind WHERE rows IS NULL").int64 } == 0)
        try store.viewContext.read { db throws in #expect(try SearchDigest.mismatches(db) == []) }
        let (told, held) = try Self.agencies(store)
        #expect(told == ["usgs"] && held == ["usgs"])
    }
}
