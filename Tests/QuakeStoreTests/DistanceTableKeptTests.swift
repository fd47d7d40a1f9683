import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// A distance table left behind by another order is kept: the sort coming back to the same
/// origin and matches catches it up with what was committed meanwhile instead of building it
/// again, and shows what a fresh controller shows. Past `maxListedChanges`, another origin or
/// other matches, it is built again.
@Suite struct DistanceTableKeptTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let tokyo = GeoPoint(latitude: 35.68, longitude: 139.69)

    /// Quakes spread over the globe by a seeded generator, one in three in Japan (the search "japan").
    static func records(_ range: Range<Int>, seed: UInt64) -> [QuakeRecord] {
        var random = SeededGenerator(seed: seed)
        return range.map { i in
            var record = QuakeRecord.fixture(String(format: "kept%05d", i), magnitude: Double(Int.random(in: 10...70, using: &random)) / 10,
                                             place: i % 3 == 0 ? "\(i) km E of Sendai, Japan" : "\(i) km N of Somewhere, Chile",
                                             time: 1_700_000_000_000 + Int64(i) * 60_000)
            record.latitude = Double.random(in: -80...80, using: &random)
            record.longitude = Double.random(in: -180...180, using: &random)
            return record
        }
    }

    static func distance(search: String = "", minimum: Double? = nil, from origin: GeoPoint = tokyo) -> SectionedFetchRequest {
        SectionedFetchRequest(predicate: QuakePredicate(searchText: search, minimumMagnitude: minimum),
                              sortDescriptor: QuakeSortDescriptor(.distance), timeZone: utc,
                              distanceReference: DistanceReference(origin: origin))
    }

    static let time = SectionedFetchRequest(timeZone: utc)

    /// Sections and rows, for comparing with a fresh controller.
    static func contents(_ controller: FetchedResultsController) throws -> [String] {
        controller.sections.map { "\($0.id) \($0.count)" } + (try controller.rows(in: 0..<controller.count).map(\.code))
    }

    static func fresh(_ store: TestStore, _ request: SectionedFetchRequest) throws -> [String] {
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        return try contents(controller)
    }

    /// Inserts some quakes, moves some (new places), deletes some: `count` changes in all.
    static func commitChanges(_ store: TestStore, inserting range: Range<Int>, moving moved: Range<Int>, deleting deleted: [Int]) throws {
        var moves = records(moved, seed: 99)
        for i in moves.indices { moves[i].latitude = -moves[i].latitude }
        try store.upsert(records(range, seed: 7) + moves)
        let writer = try store.container.newBackgroundContext(author: "test")
        defer { writer.close() }
        try writer.performAndWait { tx in for i in deleted { _ = try tx.deleteQuake(code: String(format: "kept%05d", i)) } }
    }

    /// A controller makes its table file when it first sorts by distance, not when it opens (a
    /// `list`, a browser that never sorts by distance, makes none), and keeps it for the sort's
    /// return; closing deletes it.
    @Test func theTableFileIsMadeByTheFirstDistanceSort() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(0..<40, seed: 1))
        let controller = try FetchedResultsController(container: store.container, request: SectionedFetchRequest(timeZone: Self.utc))
        #expect(controller.tablePath == nil)
        try controller.configure(Self.distance())
        let path = try #require(controller.tablePath)
        #expect(FileManager.default.fileExists(atPath: path))
        try controller.configure(SectionedFetchRequest(timeZone: Self.utc))
        #expect(controller.tablePath == path)
        controller.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: ["", "japan"])
    func aDistanceSortComingBackCatchesItsTableUp(search: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(0..<400, seed: 1))
        let request = Self.distance(search: search)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        #expect(controller.tableBuilds == 1)

        // Away in the time order (with the same search), commits arrive and are merged.
        try controller.configure(SectionedFetchRequest(predicate: QuakePredicate(searchText: search), timeZone: Self.utc))
        try Self.commitChanges(store, inserting: 400..<430, moving: 10..<25, deleting: [3, 6, 9, 30, 31])
        _ = try controller.merge()
        try controller.configure(Self.distance(search: search, minimum: 3))
        #expect(controller.tableBuilds == 1, "caught up, not built again")
        #expect(try Self.contents(controller) == Self.fresh(store, Self.distance(search: search, minimum: 3)))
        try controller.configure(request)
        #expect(try Self.contents(controller) == Self.fresh(store, request))

        // Away again (the same search), commits not merged yet when the sort comes back.
        try controller.configure(SectionedFetchRequest(predicate: QuakePredicate(searchText: search), timeZone: Self.utc))
        try Self.commitChanges(store, inserting: 430..<440, moving: 40..<45, deleting: [60])
        try controller.configure(request)
        _ = try controller.merge()
        #expect(controller.tableBuilds == 1)
        #expect(try Self.contents(controller) == Self.fresh(store, request))

        // More changes than a merge lists: built again.
        try controller.configure(Self.time)
        try store.upsert(Self.records(1_000..<(1_000 + FetchedResultsController.maxListedChanges + 1), seed: 3))
        _ = try controller.merge()
        try controller.configure(request)
        #expect(controller.tableBuilds == 2)
        #expect(try Self.contents(controller) == Self.fresh(store, request))

        // Another origin, or other matches: built again, and each shows what a fresh one does.
        let elsewhere = Self.distance(search: search, from: GeoPoint(latitude: -33.4, longitude: -70.6))
        try controller.configure(elsewhere)
        #expect(controller.tableBuilds == 3)
        #expect(try Self.contents(controller) == Self.fresh(store, elsewhere))
        let otherSearch = Self.distance(search: search.isEmpty ? "japan" : "")
        try controller.configure(otherSearch)
        #expect(controller.tableBuilds == 4)
        #expect(try Self.contents(controller) == Self.fresh(store, otherSearch))
    }
}
