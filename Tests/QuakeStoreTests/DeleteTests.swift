import Foundation
@testable import QuakeStore
import QuakeTestSupport
import Testing

@Suite struct DeleteTests {
    @Test func deleteBeforeADateRemovesOnlyOlderQuakes() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<10).map { .fixture("q\($0)", time: Int64($0) * 1000) })
        let context = try store.container.newBackgroundContext(author: "delete")
        defer { context.close() }
        let deleted = try context.performAndWait { try $0.deleteQuakes(before: Date(timeIntervalSince1970: 4)) }
        #expect(deleted == 4)
        #expect(try store.read { try $0.quakeCount() } == 6)
        #expect(try store.read { try $0.quake(code: "q3") } == nil)
        #expect(try store.read { try $0.quake(code: "q4") } != nil)
    }

    @Test func deleteAllEmptiesTheStoreAndRecordsACompactHistory() throws {
        let store = try TestStore()
        defer { store.remove() }
        let n = ChangeTracker.bulkThreshold + 50
        let context = try store.container.newBackgroundContext(author: "delete")
        defer { context.close() }
        _ = try context.performAndWait { tx in
            var i = 0
            return try tx.upsert(from: { () -> QuakeRecord? in
                defer { i += 1 }
                return i < n ? .fixture("q\(i)", time: Int64(i)) : nil
            })
        }
        let token = try store.read { try $0.currentHistoryToken() }
        #expect(try context.performAndWait { try $0.deleteQuakes() } == n)
        #expect(try store.read { try $0.quakeCount() } == 0)
        let fetch = try store.read { try $0.history(after: token) }
        guard case .transactions(let transactions, _) = fetch else { Issue.record("expected transactions"); return }
        #expect(transactions.count == 1)
        #expect(transactions.first?.isBulk == true)
        #expect(transactions.first?.author == "delete")
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM history_change WHERE token = ?", [.integer(transactions[0].token.rawValue)]).int64 } == 0)
    }
}
