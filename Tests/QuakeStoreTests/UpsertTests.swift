import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

@Suite struct UpsertTests {
    @Test func newRecordIsInserted() throws {
        let store = try TestStore()
        defer { store.remove() }
        let counts = try store.upsert([.fixture("a"), .fixture("b")])
        #expect(counts == UpsertCounts(inserted: 2))
        #expect(try store.read { try $0.quakeCount() } == 2)
        let stored = try #require(try store.read { try $0.quake(code: "a") })
        #expect(stored.record == .fixture("a"))
    }

    @Test func newerUpdateReplacesEveryFeedField() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a", magnitude: 4.0, place: "Old place, Chile", updated: 1000)])
        var newer = QuakeRecord.fixture("a", magnitude: nil, place: "New place, Peru", updated: 2000)
        newer.depth = nil
        newer.alert = "green"
        #expect(try store.upsert([newer]) == UpsertCounts(updated: 1))
        let stored = try #require(try store.read { try $0.quake(code: "a") })
        #expect(stored.record == newer)
    }

    @Test func equalUpdatedAndSameContentIsUnchanged() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a"), .fixture("b")])
        #expect(try store.upsert([.fixture("a"), .fixture("b")]) == UpsertCounts(unchanged: 2))
    }

    @Test func equalUpdatedWithDifferentContentIsUpdated() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a", magnitude: 4.0, updated: 1000)])
        #expect(try store.upsert([.fixture("a", magnitude: 4.1, updated: 1000)]) == UpsertCounts(updated: 1))
        #expect(try store.read { try $0.quake(code: "a") }?.record.magnitude == 4.1)
    }

    @Test func importNeverRegressesNewerUpdate() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a", magnitude: 5.0, place: "Newer, Chile", updated: 2000)])
        let token = try store.read { try $0.currentHistoryToken() }
        #expect(try store.upsert([.fixture("a", magnitude: 3.0, place: "Older, Chile", updated: 1000)]) == UpsertCounts(unchanged: 1))
        let stored = try #require(try store.read { try $0.quake(code: "a") })
        #expect(stored.record.magnitude == 5.0)
        #expect(stored.record.place == "Newer, Chile")
        // Nothing changed, so nothing was recorded.
        #expect(try store.read { try $0.currentHistoryToken() } == token)
    }

    @Test func notesSurviveImports() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a", updated: 1000)])
        let notes = try store.container.newBackgroundContext(author: "notes")
        defer { notes.close() }
        #expect(try notes.performAndWait { try $0.setNotes("felt it in the kitchen", forCode: "a") })
        #expect(try !notes.performAndWait { try $0.setNotes("x", forCode: "missing") })
        try store.upsert([.fixture("a", magnitude: 6.0, updated: 2000)])  // newer: replaces feed fields
        try store.upsert([.fixture("a", magnitude: 6.0, updated: 2000)])  // same: unchanged
        try store.upsert([.fixture("a", magnitude: 1.0, updated: 500)])   // older: ignored
        let stored = try #require(try store.read { try $0.quake(code: "a") })
        #expect(stored.notes == "felt it in the kitchen")
        #expect(stored.record.magnitude == 6.0)
    }

    @Test func upsertKeepsTheRowID() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a", updated: 1000)])
        let before = try #require(try store.read { try $0.quake(code: "a") }).id
        try store.upsert([.fixture("a", updated: 2000)])
        #expect(try store.read { try $0.quake(code: "a") }?.id == before)
    }

    @Test func regionAndFoldedKeysAreStored() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a", place: "105 km WNW of Höfn, Ísland")])
        let row = try store.read { db in
            let s = try db.prepare("SELECT region, regionKey, placeKey FROM quake")
            try s.step()
            return [s.text(at: 0), s.text(at: 1), s.text(at: 2)]
        }
        #expect(row == ["Ísland", "island", "105 km wnw of hofn, island"])
    }

    @Test func failingBatchRollsBackEverything() throws {
        struct Broken: Error {}
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("keep")])
        let context = try store.container.newBackgroundContext(author: "import")
        defer { context.close() }
        var produced = 0
        #expect(throws: Broken.self) {
            try context.performAndWait { tx in
                _ = try tx.upsert(from: {
                    produced += 1
                    if produced > 500 { throw Broken() }
                    return .fixture("new-\(produced)")
                })
            }
        }
        #expect(try store.read { try $0.quakeCount() } == 1)
        #expect(try store.read { try $0.scalar("PRAGMA integrity_check").string } == "ok")
    }

    @Test func batchUpsertReportsProgressAndCounts() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("r-0", updated: 5)])
        let context = try store.container.newBackgroundContext(author: "import")
        defer { context.close() }
        var reports: [UpsertCounts] = []
        var i = 0
        let counts = try context.performAndWait { tx in
            try tx.upsert(from: {
                defer { i += 1 }
                return i < 10 ? .fixture("r-\(i)", updated: 6) : nil
            }, progressInterval: 4, progress: { reports.append($0) })
        }
        #expect(counts == UpsertCounts(inserted: 9, updated: 1))
        #expect(reports.count == 2)
    }
}
