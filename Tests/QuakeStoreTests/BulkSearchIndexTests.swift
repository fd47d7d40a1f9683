import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// A large import builds the search index once at the end; search must find exactly what it
/// would have found row by row, the triggers must be back afterwards, and a failed import must
/// leave index and triggers as they were.
@Suite struct BulkSearchIndexTests {
    static let count = WriteTransaction.secondaryIndexDeferralMinimum + 2_000

    static func records(_ count: Int, prefix: String = "bulk") -> [QuakeRecord] {
        (0..<count).map { i in
            QuakeRecord.fixture("\(prefix)\(i)", place: "\(i % 97) km N of Town \(i % 13), Région \(i % 7)",
                                time: 1_700_000_000_000 + Int64(i) * 1000)
        }
    }

    static func triggerCount(_ store: TestStore) throws -> Int {
        // Every trigger a store has after any import: the originals, none of the deferred ones.
        let names = try store.read { db in
            let statement = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0)) }
            return names
        }
        #expect(names == ["quake_count_delete", "quake_count_insert", "quake_count_update", "quake_digest_delete", "quake_digest_insert",
                          "quake_digest_update", "quake_fts_delete", "quake_fts_insert", "quake_fts_update", "quake_revision", "report_revision"])
        return names.filter { $0.hasPrefix("quake_fts_") }.count
    }

    static func ftsCount(_ store: TestStore, _ phrase: String) throws -> Int {
        try store.read { Int(try $0.scalar("SELECT count(*) FROM quake_fts WHERE quake_fts MATCH ?", [.text(phrase)]).int64 ?? 0) }
    }

    static func import_(_ store: TestStore, _ records: [QuakeRecord], failAt: Int? = nil) throws -> UpsertCounts {
        let context = try store.container.newBackgroundContext(author: "import")
        defer { context.close() }
        return try context.performAndWait(importing: true) { tx in
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
        #expect(try Self.indexNames(store) == ["quake_depth", "quake_location", "quake_magnitude", "quake_region", "quake_revised", "quake_time", "sqlite_autoindex_quake_1"])
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

    static func indexNames(_ store: TestStore) throws -> [String] {
        try store.read { db in
            let statement = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'quake' ORDER BY name")
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0)) }
            return names
        }
    }

    @Test func decisionsOnBothSidesOfTheirThresholds() {
        let minimum = WriteTransaction.searchIndexDeferralMinimum
        #expect(!WriteTransaction.shouldDeferRowIndexing(inserted: minimum - 1, rowsBefore: 0))
        #expect(WriteTransaction.shouldDeferRowIndexing(inserted: minimum, rowsBefore: 0))
        // Into a large store a row-by-row flush costs milliseconds: the switch comes at once.
        let large = WriteTransaction.searchIndexLargeStore
        #expect(!WriteTransaction.shouldDeferRowIndexing(inserted: 1, rowsBefore: large))
        #expect(WriteTransaction.shouldDeferRowIndexing(inserted: 2, rowsBefore: large))
        #expect(!WriteTransaction.shouldDeferRowIndexing(inserted: 2, rowsBefore: large - 1))
        // Append while the new rows are fewer than the indexed ones (a month into a big store),
        // rebuild once they outnumber them (into an empty or small store).
        #expect(WriteTransaction.catchUp(deferred: 12_569, indexedBefore: 1_000_000) == .append)
        #expect(WriteTransaction.catchUp(deferred: 1_000, indexedBefore: 1_000) == .append)
        #expect(WriteTransaction.catchUp(deferred: 1_001, indexedBefore: 1_000) == .rebuild)
        #expect(WriteTransaction.catchUp(deferred: 10, indexedBefore: 0) == .rebuild)
        let indexMinimum = WriteTransaction.secondaryIndexDeferralMinimum
        #expect(!WriteTransaction.shouldDeferSecondaryIndexes(inserted: indexMinimum - 1, rowsBefore: 0))
        #expect(WriteTransaction.shouldDeferSecondaryIndexes(inserted: indexMinimum, rowsBefore: 0))
        #expect(!WriteTransaction.shouldDeferSecondaryIndexes(inserted: 12_569, rowsBefore: 1_000_000))
        #expect(WriteTransaction.shouldDeferSecondaryIndexes(inserted: 1_000_000, rowsBefore: 1_000_000))
    }

    /// The codes the search index finds for each phrase, and what a plain scan finds.
    static func searchResults(_ store: TestStore, _ phrases: [String]) throws -> [String: [String]] {
        try store.read { db in
            var results: [String: [String]] = [:]
            for phrase in phrases {
                let statement = try db.prepare(
                    "SELECT code FROM quake WHERE id IN (SELECT rowid FROM quake_fts WHERE quake_fts MATCH ?) ORDER BY code")
                try statement.bind("\"\(phrase)\"", at: 1)
                var codes: [String] = []
                while try statement.step() { codes.append(statement.text(at: 0)) }
                let scan = try db.prepare("SELECT code FROM quake WHERE instr(placeKey, ?) > 0 ORDER BY code")
                try scan.bind(phrase, at: 1)
                var scanned: [String] = []
                while try scan.step() { scanned.append(scan.text(at: 0)) }
                #expect(codes == scanned, "index and scan differ for \(phrase)")
                results[phrase] = codes
            }
            return results
        }
    }

    /// FTS5's own check that the index matches the table (a write statement, so not in a reader).
    static func checkIntegrity(_ store: TestStore) throws {
        let context = try store.container.newBackgroundContext(author: "check")
        defer { context.close() }
        try context.performAndWait { tx in
            try tx.connection.execute("INSERT INTO quake_fts (quake_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    /// The same base and the same import, once row by row (small transactions that never defer)
    /// and once in one transaction: appended (the import is smaller than the store) and rebuilt
    /// (larger). The import inserts rows, changes places of rows stored before it, and repeats
    /// a code so that a row inserted after the switch is updated again. Search must find the
    /// same quakes every way.
    @Test(arguments: [300, 3_000])
    func appendRebuildAndRowByRowFindTheSame(importSize: Int) throws {
        let base = Self.records(1_000, prefix: "base")
        var batch = Self.records(importSize, prefix: "new")
        // Places of stored quakes change (newer `updated` wins), and a new quake twice.
        for i in stride(from: 0, to: 200, by: 7) {
            batch.append(QuakeRecord.fixture("base\(i)", place: "3 km S of Moved \(i), Zzyzx", time: 1_700_000_000_000 + Int64(i) * 1000,
                                             updated: 1_800_000_000_000))
        }
        batch.append(QuakeRecord.fixture("new\(importSize - 1)", place: "9 km E of Twice, Qqq",
                                         time: 1_700_000_000_000, updated: 1_900_000_000_000))
        let phrases = ["town 12", "region 3", "moved 14", "zzyzx", "twice", "qqq", "km n"]

        let rowByRow = try TestStore()
        defer { rowByRow.remove() }
        for chunk in stride(from: 0, to: base.count, by: 50) { try rowByRow.upsert(Array(base[chunk..<min(base.count, chunk + 50)])) }
        for chunk in stride(from: 0, to: batch.count, by: 50) { try rowByRow.upsert(Array(batch[chunk..<min(batch.count, chunk + 50)])) }

        let bulk = try TestStore()
        defer { bulk.remove() }
        for chunk in stride(from: 0, to: base.count, by: 50) { try bulk.upsert(Array(base[chunk..<min(base.count, chunk + 50)])) }
        let counts = try Self.import_(bulk, batch)
        #expect(counts.inserted == importSize)
        #expect(try Self.triggerCount(bulk) == 3)
        let expectedCatchUp: WriteTransaction.CatchUp = importSize > 1_000 ? .rebuild : .append
        #expect(WriteTransaction.catchUp(deferred: importSize - WriteTransaction.searchIndexDeferralMinimum,
                                                    indexedBefore: 1_000 + WriteTransaction.searchIndexDeferralMinimum) == expectedCatchUp)

        let expected = try Self.searchResults(rowByRow, phrases)
        #expect(expected["zzyzx"]?.count == 29)
        #expect(expected["twice"] == ["new\(importSize - 1)"])
        #expect(try Self.searchResults(bulk, phrases) == expected)
        try Self.checkIntegrity(rowByRow)
        try Self.checkIntegrity(bulk)
    }

    /// A `fetch` sets the indexes aside, deletes every stored row (it replaces the bundled
    /// sample) and then inserts: its rows take ids past the deleted ones (never theirs again,
    /// `WriteTransaction+RowIDs.swift`), and are found and counted.
    @Test func rowsInsertedAfterEveryRowIsDeletedAreIndexedAndCounted() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.import_(store, Self.records(300, prefix: "old"))
        let context = try store.container.newBackgroundContext(author: "fetch")
        defer { context.close() }
        try context.performAndWait(importing: true) { tx in
            try tx.deferIndexes()
            try tx.deleteQuakes()
            var iterator = Self.records(200, prefix: "new").makeIterator()
            _ = try tx.upsert(from: { iterator.next() })
            try tx.restoreDeferredIndexes()
        }
        #expect(try store.read { try $0.scalar("SELECT min(id), max(id) FROM quake").int64 } == 301)
        #expect(try store.read { try $0.scalar("SELECT max(id) FROM quake").int64 } == 500)
        let found = try Self.searchResults(store, ["town 12", "region 3"])
        #expect(found["town 12"]?.count == 15 && found["region 3"]?.count == 29)
        let (kept, recounted) = try SectionCountTests.keptAndRecounted(store)
        #expect(kept == recounted)
        try Self.checkIntegrity(store)
        #expect(try Self.triggerCount(store) == 3)
    }

    /// Imports keep statement journals in memory; every other transaction (a `DELETE` of every
    /// row would journal the whole store) keeps SQLite's default, files past 64 KiB.
    @Test func onlyImportsKeepStatementJournalsInMemory() throws {
        let store = try TestStore()
        defer { store.remove() }
        let context = try store.container.newBackgroundContext(author: "import")
        defer { context.close() }
        #expect(try context.performAndWait(importing: true) { try $0.connection.scalar("PRAGMA temp_store").int64 } == 2)
        #expect(try context.performAndWait { try $0.connection.scalar("PRAGMA temp_store").int64 } == 0)
        #expect(throws: StoreError.self) {
            try context.performAndWait(importing: true) { _ in throw StoreError(.cancelled, path: store.container.path) }
        }
        #expect(try context.performAndWait { try $0.connection.scalar("PRAGMA temp_store").int64 } == 0)
    }

    /// A transaction of as many changes as the longest listing a reader takes
    /// (`Connection.maxListedArrivals`) stays an exact history entry, updates with their old keys;
    /// one more change makes it bulk, its counts kept and every new row still reported to
    /// arrivals (by the ids above the cursor).
    @Test func changesUpToTheLongestListingStayExact() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.import_(store, Self.records(11_000, prefix: "old"))
        let limit = ChangeTracker.bulkThreshold
        #expect(limit == Connection.maxListedArrivals)
        let token = try store.read { try $0.currentHistoryToken() }
        let cursor = try store.read { try $0.arrivalCursor() }
        var batch = Self.records(limit - 100, prefix: "month")
        batch += (0..<100).map { QuakeRecord.fixture("old\($0)", place: "Updated \($0), Chile", updated: 1_800_000_000_000) }
        #expect(try Self.import_(store, batch) == .init(inserted: limit - 100, updated: 100))
        _ = try Self.import_(store, Self.records(limit + 1, prefix: "next"))
        guard case .transactions(let transactions, _) = try store.read({ try $0.history(after: token) }) else {
            Issue.record("history expired")
            return
        }
        #expect(transactions.map(\.isBulk) == [false, true])
        #expect(transactions.map(\.changes.count) == [limit, 0])
        let updates = transactions.first?.changes.filter { $0.kind == .update } ?? []
        #expect(updates.count == 100 && updates.allSatisfy { $0.old != nil })
        let counts = try store.read { try $0.scalar("SELECT group_concat(inserted || '+' || updated, ' ') FROM history WHERE token > ?", [.integer(token.rawValue)]).string }
        #expect(counts == "\(limit - 100)+100 \(limit + 1)+0")
        var arrived = 0
        _ = try store.read { try $0.forEachArrival(after: cursor) { _ in arrived += 1 } }
        #expect(arrived == 2 * limit + 1 - 100)
    }
}
