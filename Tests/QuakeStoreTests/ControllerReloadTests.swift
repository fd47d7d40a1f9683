import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The merge's reload paths: a bulk commit, history purged past the controller's token, and
/// more listed changes than `maxListedChanges`. Each reports `reloaded`, ends equal to a fresh
/// fetch, and still anchors a kept selection on its row (and its window on its neighbours).
///
/// Each runs under several requests: unfiltered (sections from the kept counts), with a search
/// (the match set is rebuilt), with a minimum magnitude, in each sort order.
@Suite struct ControllerReloadTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let requests = [
        SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.region), timeZone: utc),
        SectionedFetchRequest(predicate: QuakePredicate(searchText: "hawaii"), sortDescriptor: QuakeSortDescriptor(.time), timeZone: utc),
        SectionedFetchRequest(predicate: QuakePredicate(searchText: "i", minimumMagnitude: 2),
                              sortDescriptor: QuakeSortDescriptor(.magnitude, ascending: true), timeZone: utc),
    ]

    /// After the merge: reported as a reload, and sections, count, token and every row equal a
    /// fresh controller's on the same store; a selection on `selected` anchors on its row.
    static func check(_ store: TestStore, _ controller: FetchedResultsController, selected: String) throws {
        let changes = try #require(try controller.merge())
        #expect(changes.reloaded)
        let fresh = try FetchedResultsController(container: store.container, request: controller.request)
        defer { fresh.close() }
        let all = try fresh.rows(in: 0..<fresh.count)
        #expect(controller.sections == fresh.sections)
        #expect(controller.count == fresh.count)
        #expect(controller.token == fresh.token)
        #expect(try controller.rows(in: 0..<controller.count) == all)
        guard all.contains(where: { $0.code == selected }) else { return }
        let offset = try #require(try controller.anchor(code: selected))
        #expect(all[offset].code == selected)
        // Nothing more to merge: the token moved past what was reloaded.
        #expect(try controller.merge() == nil)
    }

    static func makeStore(_ request: SectionedFetchRequest) throws -> (TestStore, FetchedResultsController) {
        let store = try TestStore()
        try store.upsert(ExpectedResults.variedRecords(count: 300))
        let controller = try FetchedResultsController(container: store.container, request: request)
        // A window read before the change, so a stale one would show.
        _ = try controller.rows(in: 0..<min(40, controller.count))
        return (store, controller)
    }

    @Test(arguments: requests)
    func aBulkCommitReloads(request: SectionedFetchRequest) throws {
        let (store, controller) = try Self.makeStore(request)
        defer { controller.close(); store.remove() }
        let writer = try store.container.newBackgroundContext(author: "bulk")
        defer { writer.close() }
        try writer.performAndWait { tx in
            for index in 0..<20 { _ = try tx.upsert(.fixture("bulk\(index)", place: "Near Nuku'alofa, Tonga")) }
            tx.markBulk()
        }
        let selected = try controller.rows(in: min(150, controller.count - 1)..<min(151, controller.count))[0].code
        try Self.check(store, controller, selected: selected)
    }

    /// The importer's rebuild path: an import outnumbering the store drops and recreates the
    /// secondary indexes, defers the search index and commits one bulk history entry; it
    /// updates some existing quakes (new magnitude, time and place) and adds many.
    @Test(arguments: requests)
    func aBulkImportReloads(request: SectionedFetchRequest) throws {
        let (store, controller) = try Self.makeStore(request)
        defer { controller.close(); store.remove() }
        let selected = try controller.rows(in: 0..<1).first?.code ?? "v0"
        var records = (0..<1_200).map { index in
            QuakeRecord.fixture("imp\(index)", magnitude: Double(index % 80) / 10, place: "\(index % 50) km E of Hilo, Hawaii",
                                time: 1_700_000_000_000 + Int64(index) * 3_600_000)
        }
        records += (0..<60).map { index in
            QuakeRecord.fixture("v\(index * 5)", magnitude: 6.5, place: "Off the coast of Oregon",
                                time: 1_600_000_000_000 + Int64(index) * 60_000, updated: 1_800_000_000_000)
        }
        let writer = try store.container.newBackgroundContext(author: "import")
        defer { writer.close() }
        var iterator = records.makeIterator()
        let counts = try writer.performAndWait { tx in try tx.upsert(from: { iterator.next() }) }
        #expect(counts.inserted == 1_200)
        try Self.check(store, controller, selected: selected)
    }

    @Test(arguments: requests)
    func historyPurgedPastTheTokenReloads(request: SectionedFetchRequest) throws {
        let (store, controller) = try Self.makeStore(request)
        defer { controller.close(); store.remove() }
        try store.upsert([.fixture("late1", magnitude: 4.4, place: "10 km S of Hilo, Hawaii"), .fixture("late2", place: "Fiji region"),
                          .fixture("v3", magnitude: 0.5, place: "Tonga", updated: 1_800_000_000_000)])
        let writer = try store.container.newBackgroundContext(author: "purge")
        defer { writer.close() }
        _ = try writer.performAndWait { try $0.connection.purgeHistory(before: Date().addingTimeInterval(60)) }
        try Self.check(store, controller, selected: "late1")
    }

    @Test(arguments: requests)
    func moreListedChangesThanTheLimitReload(request: SectionedFetchRequest) throws {
        let (store, controller) = try Self.makeStore(request)
        defer { controller.close(); store.remove() }
        let many = (0...FetchedResultsController.maxListedChanges).map {
            QuakeRecord.fixture("many\($0)", magnitude: Double($0 % 70) / 10, place: "\($0) km N of Hilo, Hawaii",
                                time: 1_700_000_000_000 + Int64($0) * 1_000)
        }
        try store.upsert(many)
        try Self.check(store, controller, selected: "many1000")
    }
}
