import Foundation
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// A large import builds the search index once at the end; search must find exactly what it
/// would have found row by row, the triggers must be back afterwards, and a failed import must
/// leave index and triggers as they were.
@Suite struct BulkSearchIndexTests {
    static let count = WriteTransaction.searchIndexDeferralMinimum + 2_000

    static func records(_ count: Int, prefix: String = "bulk") -> [QuakeRecord] {
        (0..<count).map { i in
            QuakeRecord.fixture("\(prefix)\(i)", place: "\(i % 97) km N of Town \(i % 13), Région \(i % 7)",
                                time: 1_700_000_000_000 + Int64(i) * 1000)
        }
    }

    static func triggerCount(_ store: TestStore) throws -> Int {
        try store.read { Int(try $0.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'quake_fts_%'").int64 ?? 0) }
    }

    static func ftsCount(_ store: TestStore, _ phrase: String) throws -> Int {
        try store.read { Int(try $0.scalar("SELECT count(*) FROM quake_fts WHERE quake_fts MATCH ?", [.text(phrase)]).int64 ?? 0) }
    }

    static func import_(_ store: TestStore, _ records: [QuakeRecord], failAt: Int? = nil) throws -> UpsertCounts {
        let context = try store.container.newBackgroundContext(author: "import")
        defer { context.close() }
        return try context.performAndWait { tx in
            var iterator = records.makeIterator()
            var index = 0
            return try tx.upsert(from: {
                if index == failAt { throw StoreError(.cancelled, path: store.container.path) }
                index += 1
                return iterator.next()
            })
        }
    }

    @Test func largeImportIndexesEveryRowForSearch() throws {
        let store = try TestStore()
        defer { store.remove() }
        #expect(try Self.import_(store, Self.records(Self.count)).inserted == Self.count)
        #expect(try Self.triggerCount(store) == 3)
        // "town 12" and "region 3" (folded) by the trigram index, against a plain count.
        for phrase in ["\"town 12\"", "\"region 3\""] {
            let plain = phrase.dropFirst().dropLast()
            let expected = try store.read {
                Int(try $0.scalar("SELECT count(*) FROM quake WHERE instr(placeKey, ?) > 0", [.text(String(plain))]).int64 ?? 0)
            }
            #expect(expected > 0)
            #expect(try Self.ftsCount(store, phrase) == expected)
        }
        // The restored triggers keep the index in sync for later, small writes.
        _ = try store.upsert([QuakeRecord.fixture("after", place: "5 km S of Zzyzx, California")])
        #expect(try Self.ftsCount(store, "zzyzx") == 1)
        let controller = try FetchedResultsController(
            container: store.container, request: SectionedFetchRequest(predicate: QuakePredicate(searchText: "Town 12,")))
        defer { controller.close() }
        #expect(controller.count == Self.count / 13 + (Self.count % 13 > 12 ? 1 : 0))
    }

    @Test func failedLargeImportLeavesIndexAndTriggers() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try store.upsert([QuakeRecord.fixture("kept", place: "1 km E of Keptville, Chile")])
        #expect(throws: StoreError.self) { try Self.import_(store, Self.records(Self.count), failAt: Self.count - 10) }
        #expect(try Self.triggerCount(store) == 3)
        #expect(try store.read { try $0.quakeCount() } == 1)
        #expect(try Self.ftsCount(store, "keptville") == 1)
        #expect(try Self.ftsCount(store, "town") == 0)
    }

    @Test func deferralWaitsForAQuarterOfTheTable() {
        let minimum = WriteTransaction.searchIndexDeferralMinimum
        #expect(!WriteTransaction.shouldDeferSearchIndex(seen: minimum - 1, rowsBefore: 0))
        #expect(WriteTransaction.shouldDeferSearchIndex(seen: minimum, rowsBefore: 0))
        #expect(!WriteTransaction.shouldDeferSearchIndex(seen: 10_000, rowsBefore: 1_000_000))
        #expect(WriteTransaction.shouldDeferSearchIndex(seen: 250_000, rowsBefore: 1_000_000))
    }
}
