import Foundation
@testable import QuakeModel
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

/// Issue 29, point 2: a bulk import swaps triggers and indexes (DDL), which changes the schema
/// under another writer's connection; its next statement must see the new schema, not fail.
@Suite struct ConcurrentSchemaChangeTests {
    static func bulkImport(_ container: PersistentContainer, prefix: String, count: Int) throws {
        let importer = try container.newBackgroundContext(author: "import")
        defer { importer.close() }
        _ = try importer.performAndWait(importing: true) { tx in
            var i = 0
            return try tx.upsert(from: { () -> QuakeRecord? in
                defer { i += 1 }
                return i < count ? .fixture("\(prefix)\(i)", time: Int64(i) * 1000) : nil
            })
        }
    }

    @Test func aDeleteAfterABulkImportOnAnotherConnectionSucceeds() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<10).map { .fixture("q\($0)", time: Int64($0) * 1000) })
        let other = try PersistentContainer(directory: store.directory.url)
        defer { other.close() }
        let deleter = try store.container.newBackgroundContext(author: "delete")
        defer { deleter.close() }
        // The deleter's connection has read the schema; the import then changes it.
        #expect(try deleter.performAndWait { try $0.deleteQuakes(codePrefix: "none") } == 0)
        try Self.bulkImport(other, prefix: "b", count: 3_000)
        #expect(try deleter.performAndWait { try $0.deleteQuakes(before: Date(timeIntervalSince1970: 5)) } == 10)
        #expect(try store.read { try $0.quakeCount() } == 3_000)
        #expect(try store.read { try $0.scalar("PRAGMA integrity_check").string } == "ok")
    }

    @Test func notesAndUpsertsAfterABulkImportOnAnotherConnectionSucceed() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<10).map { .fixture("q\($0)", time: Int64($0) * 1000) })
        let other = try PersistentContainer(directory: store.directory.url)
        defer { other.close() }
        let writer = try store.container.newBackgroundContext(author: "notes")
        defer { writer.close() }
        #expect(try writer.performAndWait { try $0.setNotes("first", forCode: "q1") })
        try Self.bulkImport(other, prefix: "b", count: 3_000)
        #expect(try writer.performAndWait { try $0.setNotes("second", forCode: "q1") })
        try Self.bulkImport(other, prefix: "c", count: 5_000)
        #expect(try writer.performAndWait { try $0.upsert(.fixture("q2", time: 99_000)) } == .updated)
        #expect(try store.read { try $0.quakeCount() } == 8_010)
    }
}
