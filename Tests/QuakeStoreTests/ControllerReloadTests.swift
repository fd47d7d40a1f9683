import Foundation
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The merge's reload paths: a bulk commit, history purged past the controller's token, and
/// more listed changes than `maxListedChanges`. Each reports `reloaded`, ends equal to a fresh
/// fetch, and still anchors a kept selection on its row (and its window on its neighbours).
@Suite struct ControllerReloadTests {
    static let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.region), timeZone: TimeZone(identifier: "UTC")!)

    static func check(_ store: TestStore, _ controller: FetchedResultsController, selected: String) throws {
        let changes = try #require(try controller.merge())
        #expect(changes.reloaded)
        let fresh = try FetchedResultsController(container: store.container, request: Self.request)
        defer { fresh.close() }
        let all = try fresh.rows(in: 0..<fresh.count)
        #expect(controller.sections == fresh.sections)
        #expect(try controller.rows(in: 0..<controller.count) == all)
        let offset = try #require(try controller.anchor(code: selected))
        #expect(all[offset].code == selected)
    }

    static func makeStore() throws -> (TestStore, FetchedResultsController) {
        let store = try TestStore()
        try store.upsert(ExpectedResults.variedRecords(count: 300))
        return (store, try FetchedResultsController(container: store.container, request: request))
    }

    @Test func aBulkCommitReloads() throws {
        let (store, controller) = try Self.makeStore()
        defer { controller.close(); store.remove() }
        let writer = try store.container.newBackgroundContext(author: "bulk")
        defer { writer.close() }
        try writer.performAndWait { tx in
            for index in 0..<20 { _ = try tx.upsert(.fixture("bulk\(index)", place: "Near Nuku'alofa, Tonga")) }
            tx.markBulk()
        }
        let selected = try controller.rows(in: 150..<151)[0].code
        try Self.check(store, controller, selected: selected)
    }

    @Test func historyPurgedPastTheTokenReloads() throws {
        let (store, controller) = try Self.makeStore()
        defer { controller.close(); store.remove() }
        try store.upsert([.fixture("late1", place: "Off the coast of Chile"), .fixture("late2", place: "Fiji region")])
        let writer = try store.container.newBackgroundContext(author: "purge")
        defer { writer.close() }
        _ = try writer.performAndWait { try $0.connection.purgeHistory(before: Date().addingTimeInterval(60)) }
        try Self.check(store, controller, selected: "late1")
    }

    @Test func moreListedChangesThanTheLimitReload() throws {
        let (store, controller) = try Self.makeStore()
        defer { controller.close(); store.remove() }
        let many = (0...FetchedResultsController.maxListedChanges).map {
            QuakeRecord.fixture("many\($0)", place: "\($0) km N of Hilo, Hawaii", time: 1_700_000_000_000 + Int64($0) * 1_000)
        }
        try store.upsert(many)
        try Self.check(store, controller, selected: "many1000")
    }
}
