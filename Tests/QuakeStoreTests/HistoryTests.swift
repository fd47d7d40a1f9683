import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

@Suite struct HistoryTests {
    @Test func everyCommitGetsAnIncreasingTokenWithItsChanges() throws {
        let store = try TestStore()
        defer { store.remove() }
        #expect(try store.read { try $0.currentHistoryToken() } == .zero)
        try store.upsert([.fixture("a"), .fixture("b")], author: "import")
        try store.upsert([.fixture("a", magnitude: 7, updated: 1_800_000_000_000), .fixture("c")], author: "refresh")
        let fetch = try store.read { try $0.history(after: .zero) }
        guard case .transactions(let txs, let latest) = fetch else { Issue.record("expected transactions"); return }
        #expect(txs.map(\.author) == ["import", "refresh"])
        #expect(txs[0].token < txs[1].token)
        #expect(latest == txs[1].token)
        #expect(Set(txs[0].changes) == [HistoryChange(code: "a", kind: .insert), HistoryChange(code: "b", kind: .insert)])
        let oldA = RowKeys(id: 1, time: 1_700_000_000_000, magnitude: 4.2, regionKey: "chile",
                           placeKey: "10 km n of somewhere, chile", depth: 10)
        #expect(Set(txs[1].changes) == [HistoryChange(code: "a", kind: .update, old: oldA), HistoryChange(code: "c", kind: .insert)])
        #expect(txs.allSatisfy { $0.origin == StoreOrigin.current && !$0.isBulk })
        // After the latest token there is nothing.
        #expect(try store.read { try $0.history(after: latest) } == .transactions([], latest: latest))
    }

    @Test func aListingLimitLeavesLargeEntriesUnlistedButCounted() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a"), .fixture("b")], author: "import")
        try store.upsert([.fixture("c")], author: "refresh")
        // Within the limit (3 changes in all): listed exactly as without one.
        let within = try store.read { try $0.history(after: .zero, listingAtMost: 3) }
        #expect(within == (try store.read { try $0.history(after: .zero) }))
        guard case .transactions(let listed, _) = within else { Issue.record("expected transactions"); return }
        #expect(listed.allSatisfy(\.isListed) && listed.map(\.changes.count) == [2, 1])
        // Past it: every entry comes back, unlisted, so a reader knows to reload without decoding rows.
        guard case .transactions(let unlisted, let latest) = try store.read({ try $0.history(after: .zero, listingAtMost: 2) }) else {
            Issue.record("expected transactions"); return
        }
        #expect(unlisted.map(\.author) == ["import", "refresh"])
        #expect(unlisted.allSatisfy { !$0.isListed && $0.changes.isEmpty && !$0.isBulk })
        #expect(latest == listed[1].token)
        // The limit counts only what comes after the token.
        guard case .transactions(let tail, _) = try store.read({ try $0.history(after: listed[0].token, listingAtMost: 2) }) else {
            Issue.record("expected transactions"); return
        }
        #expect(tail.count == 1 && tail[0].isListed && tail[0].changes == [HistoryChange(code: "c", kind: .insert)])
    }

    @Test func readersCanSkipTheirOwnProcessOrAuthors() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a")], author: "import")
        try store.upsert([.fixture("b")], author: "notes")
        let byAuthor = try store.read { try $0.history(after: .zero, excludingAuthors: ["notes"]) }
        guard case .transactions(let txs, _) = byAuthor else { Issue.record("expected transactions"); return }
        #expect(txs.map(\.author) == ["import"])
        let own = try store.read { try $0.history(after: .zero, excludingOrigin: StoreOrigin.current) }
        guard case .transactions(let none, _) = own else { Issue.record("expected transactions"); return }
        #expect(none.isEmpty)
    }

    /// The listing limit counts only what a reader would list: another origin's big commit,
    /// skipped, does not leave the reader's own small one unlisted (arrivals skip the process
    /// that replaced the bundled sample, whose `fetch` can bring thousands).
    @Test func theListingLimitLeavesOutTheSkippedOrigin() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a1"), .fixture("a2"), .fixture("a3")])
        let writer = try store.container.newBackgroundContext(author: "test")
        defer { writer.close() }
        try writer.performAndWait { try $0.connection.execute("UPDATE history SET origin = 'other'") }
        try store.upsert([.fixture("b")])
        func listed(excluding origin: String?) throws -> [[String]] {
            guard case .transactions(let txs, _) = try store.read({ try $0.history(after: .zero, excludingOrigin: origin, listingAtMost: 2) })
            else { Issue.record("expected transactions"); return [] }
            return txs.map { $0.isListed ? $0.changes.map(\.code) : ["unlisted"] }
        }
        #expect(try listed(excluding: "other") == [["b"]])
        #expect(try listed(excluding: nil) == [["unlisted"], ["unlisted"]], "four changes in all, past the limit of 2")
    }

    @Test func aReaderWhoseHistoryWasPurgedIsToldToRefetch() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a")])
        let readerToken = try store.read { try $0.currentHistoryToken() }
        try store.upsert([.fixture("b")])
        try store.upsert([.fixture("c")])
        let writer = try store.container.newBackgroundContext(author: "purge")
        defer { writer.close() }
        let purged = try writer.performAndWait { try $0.connection.purgeHistory(before: Date().addingTimeInterval(60)) }
        #expect(purged == 3)
        let fetch = try store.read { try $0.history(after: readerToken) }
        #expect(fetch == .expired(latest: try store.read { try $0.currentHistoryToken() }))
        // A reader that was up to date is not expired, and tokens never go backwards.
        let latest = try store.read { try $0.currentHistoryToken() }
        #expect(try store.read { try $0.history(after: latest) } == .transactions([], latest: latest))
        try store.upsert([.fixture("d")])
        guard case .transactions(let txs, _) = try store.read({ try $0.history(after: latest) }) else {
            Issue.record("expected transactions"); return
        }
        #expect(txs.count == 1 && txs[0].token > latest)
    }

    @Test func notesEditsAreRecordedUnderTheirAuthor() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a")])
        let token = try store.read { try $0.currentHistoryToken() }
        let notes = try store.container.newBackgroundContext(author: "notes")
        defer { notes.close() }
        _ = try notes.performAndWait { try $0.setNotes("hello", forCode: "a") }
        guard case .transactions(let txs, _) = try store.read({ try $0.history(after: token) }) else {
            Issue.record("expected transactions"); return
        }
        #expect(txs.map(\.author) == ["notes"])
        #expect(txs[0].changes.map(\.code) == ["a"])
        #expect(txs[0].changes.first?.kind == .update)
        #expect(txs[0].changes.first?.old?.id == 1)
    }
}
