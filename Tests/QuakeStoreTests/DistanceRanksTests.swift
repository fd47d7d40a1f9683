import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// A large distance table keeps every few thousandth key with its rank (`DistanceRanks`), and the
/// distance and intensity orders count their bands and a row's place from them: sampled densely
/// here, on small tables, the counts equal a brute-force count, and a controller counting from
/// its ranks shows, anchors and merges as one that walks the index, through seeded walks of
/// commits, merges and orders left and chosen again.
@Suite struct DistanceRanksTests {
    static let (utc, tokyo) = (DistanceTableKeptTests.utc, DistanceTableKeptTests.tokyo)

    /// Quakes spread over the globe by a seeded generator (the places of
    /// `DistanceTableKeptTests`), some on the same spot so that distances tie.
    static func records(_ range: Range<Int>, seed: UInt64) -> [QuakeRecord] {
        var records = DistanceTableKeptTests.records(range, seed: seed)
        for i in records.indices where i % 7 == 3 {
            records[i].latitude = -33.4
            records[i].longitude = -70.6
        }
        return records
    }

    @Test func aCountFromTheSamplesIsTheTablesCount() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(0..<600, seed: 11))
        var random = SeededGenerator(seed: 5)
        // The controller's own connection is writable (its table file); the view context is not.
        let db = try Connection(path: store.directory.url.appendingPathComponent(PersistentContainer.fileName).path)
        defer { db.close() }
        let file = SortTableFile()
        defer { file.remove() }
        do {
            try file.attach(db)
            let plan = QueryPlan(DistanceTableKeptTests.distance().normalized)
            let rows = try DistanceTable.rebuild(db, origin: Self.tokyo, plan: plan, in: file.schema)
            for spacing in [1, 2, 7, 64, 1_000] {
                var ranks = try #require(try DistanceRanks.read(db, rows: rows, sampling: (0, spacing)))
                #expect(try DistanceRanks.read(db, rows: rows, sampling: (rows + 1, spacing)) == nil)
                func expectCounts(_ label: String) throws {
                    let all = try Self.keys(db)
                    var probes = all + [.edge(0), .edge(-.infinity), .edge(.infinity), .edge(20_000)]
                    for _ in 0..<40 { probes.append(.edge(Double(random.next(20_000)))) }
                    for probe in probes {
                        for inclusive in [false, true] {
                            let expected = all.filter { inclusive ? $0 <= probe : $0 < probe }.count
                            #expect(try ranks.count(db, below: probe, inclusive: inclusive) == expected,
                                    "\(label) spacing \(spacing) \(probe) inclusive \(inclusive)")
                        }
                    }
                }
                try expectCounts("as read")
                // Rows leave and come (a sampled row among them), as a merge moves them.
                var moved: [(DistanceRanks.Key?, DistanceRanks.Key?)] = []
                for id in try Self.keys(db).map(\.id).shuffled(using: &random).prefix(25) {
                    let old = try Self.key(db, id: id)
                    try db.execute("DELETE FROM fetch_distance WHERE qid = ?", [.integer(id)])
                    let new = random.next(3) == 0 ? nil : DistanceRanks.Key(km: Double(random.next(20_000)), id: id)
                    if let new { try db.execute("INSERT INTO fetch_distance (qid, km) VALUES (?, ?)", [.integer(id), .real(new.km)]) }
                    moved.append((old, new))
                }
                for (old, new) in moved { ranks.moved(from: old, to: new) }
                try expectCounts("after moves")
                _ = try DistanceTable.rebuild(db, origin: Self.tokyo, plan: plan, in: file.schema)
            }
        }
    }

    static func keys(_ db: Connection) throws -> [DistanceRanks.Key] {
        let statement = try db.prepare("SELECT km, qid FROM fetch_distance ORDER BY km, qid")
        var keys: [DistanceRanks.Key] = []
        while try statement.step() { keys.append(DistanceRanks.Key(km: statement.double(at: 0), id: statement.int64(at: 1))) }
        return keys
    }

    static func key(_ db: Connection, id: Int64) throws -> DistanceRanks.Key? {
        try DistanceTable.km(db, id: id).map { DistanceRanks.Key(km: $0, id: id) }
    }

    static func request(_ order: QuakeSortOrder, ascending: Bool, search: String, minimum: Double?) -> SectionedFetchRequest {
        SectionedFetchRequest(predicate: QuakePredicate(searchText: search, minimumMagnitude: minimum),
                              sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: utc,
                              distanceReference: DistanceReference(origin: tokyo))
    }

    /// What a controller shows, and where it places some quakes of the store.
    static func shown(_ controller: FetchedResultsController, anchoring codes: [String]) throws -> [String] {
        try DistanceTableKeptTests.contents(controller) + codes.map { "\($0) at \(String(describing: try controller.anchor(code: $0)))" }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func countingFromTheRanksShowsWhatTheWalkShows(seed: UInt64) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(0..<500, seed: seed))
        var random = SeededGenerator(seed: seed)
        let controller = try FetchedResultsController(container: store.container, request: SectionedFetchRequest(timeZone: Self.utc))
        defer { controller.close() }
        controller.distanceRankSampling = (0, 1 + random.next(9))
        var next = 500
        for step in 0..<14 {
            let order: QuakeSortOrder = random.next(3) == 0 ? .intensity : .distance
            let request = Self.request(order, ascending: random.next(2) == 0, search: random.next(3) == 0 ? "japan" : "",
                                       minimum: random.next(4) == 0 ? 3 : nil)
            try controller.configure(request)
            let label = "seed \(seed) step \(step) \(order) asc \(request.sortDescriptor.ascending) '\(request.predicate.searchText)'"
            #expect(controller.keepsDistanceRanks, "\(label)")
            #expect(try DistanceTableKeptTests.contents(controller) == DistanceTableKeptTests.fresh(store, request), "\(label) before the changes")
            // Changes committed, then merged into the table (or caught up when the order comes back).
            let deleted = (0..<random.next(4)).map { _ in random.next(next) }
            let moved = random.next(next)
            try DistanceTableKeptTests.commitChanges(store, inserting: next..<next + random.next(12),
                                                     moving: moved..<moved + random.next(6), deleting: deleted)
            next += 12
            if random.next(3) == 0 {
                try controller.configure(SectionedFetchRequest(timeZone: Self.utc))
                _ = try controller.merge()
                try controller.configure(request)
            } else {
                _ = try controller.merge()
            }
            let stored = try store.read { db in try Self.codes(db) }
            let codes = (0..<8).map { _ in stored[random.next(stored.count)] }
            let walking = try FetchedResultsController(container: store.container, request: request)
            defer { walking.close() }
            walking.distanceRankSampling = (.max, 1)
            try walking.configure(request)
            #expect(!walking.keepsDistanceRanks)
            let (ranked, walked) = (try Self.shown(controller, anchoring: codes), try Self.shown(walking, anchoring: codes))
            let differ = zip(ranked, walked).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(ranked == walked, "\(label): \(ranked.count) against \(walked.count) lines, first different \(String(describing: differ))")
            // Windows read on from a sample, from either end of a band, are slices of the whole list.
            let all = try walking.rows(in: 0..<walking.count).map(\.code)
            let windows = try FetchedResultsController(container: store.container, request: SectionedFetchRequest(timeZone: Self.utc))
            defer { windows.close() }
            windows.distanceRankSampling = controller.distanceRankSampling
            windows.windowMargin = 0
            try windows.configure(request)
            for _ in 0..<12 where !all.isEmpty {
                let lower = random.next(all.count), range = lower..<min(all.count, lower + 1 + random.next(9))
                #expect(try windows.rows(in: range).map(\.code) == Array(all[range]), "\(label) window \(range)")
            }
        }
    }

    static func codes(_ db: Connection) throws -> [String] {
        let statement = try db.prepare("SELECT code FROM quake ORDER BY id")
        var codes: [String] = []
        while try statement.step() { codes.append(statement.text(at: 0)) }
        return codes
    }
}
