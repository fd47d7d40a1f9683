import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Several loads in one transaction (a `fetch` commits many windows at once): the indexes set
/// aside once for all of them and rebuilt before the commit, and a load that fails part-way
/// leaving what it stored indexed, for a caller that commits it.
@Suite struct GroupedLoadTests {
    struct Refused: Error {}

    static func records(_ range: Range<Int>, prefix: String) -> [QuakeRecord] {
        range.map { i in
            QuakeRecord.fixture("\(prefix)\(i)", place: "\(i % 97) km N of Town \(i % 13), Région \(i % 7)",
                                time: 1_700_000_000_000 + Int64(i) * 1000)
        }
    }

    static func load(_ tx: WriteTransaction, _ records: [QuakeRecord], failAfter: Int? = nil) throws -> UpsertCounts {
        var index = 0
        return try tx.upsert(from: {
            if index == failAfter { throw Refused() }
            defer { index += 1 }
            return index < records.count ? records[index] : nil
        }, keepingPartialInput: true)
    }

    static func townTwelve(_ store: TestStore) throws -> (stored: Int, found: Int) {
        let stored = try store.read {
            Int(try $0.scalar("SELECT count(*) FROM quake WHERE instr(placeKey, 'town 12') > 0").int64 ?? 0)
        }
        return (stored, try BulkSearchIndexTests.ftsCount(store, "\"town 12\""))
    }

    /// A load that set the indexes aside by itself (it outnumbered the store) and then failed puts
    /// them back before it throws: the transaction can commit what it stored.
    @Test func aLoadThatFailsPartWayLeavesItsRowsIndexed() throws {
        let store = try TestStore()
        defer { store.remove() }
        let indexesBefore = try BulkSearchIndexTests.indexNames(store)
        let context = try store.container.newBackgroundContext(author: "fetch")
        defer { context.close() }
        try context.performAndWait(importing: true) { tx in
            #expect(throws: Refused.self) { _ = try Self.load(tx, Self.records(0..<3_000, prefix: "a"), failAfter: 2_500) }
            #expect(tx.counts.inserted == 2_500)
            _ = try Self.load(tx, Self.records(2_500..<2_600, prefix: "a"))
        }
        #expect(try BulkSearchIndexTests.indexNames(store) == indexesBefore)
        #expect(try BulkSearchIndexTests.triggerCount(store) == 3)
        #expect(try store.read { try $0.quakeCount() } == 2_600)
        let (stored, found) = try Self.townTwelve(store)
        #expect(stored == (0..<2_600).filter { $0 % 13 == 12 }.count)
        #expect(found == stored)
        #expect(try store.read { try $0.scalar("PRAGMA integrity_check").string } == "ok")
    }

    @Test func deferredIndexesAreRebuiltOnceAndSearchFindsEveryRow() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try store.upsert(Self.records(0..<50, prefix: "old"))
        let indexesBefore = try BulkSearchIndexTests.indexNames(store)
        let context = try store.container.newBackgroundContext(author: "fetch")
        defer { context.close() }
        try context.performAndWait(importing: true) { tx in
            try tx.deferIndexes()
            #expect(tx.areIndexesDeferred)
            for window in 0..<4 {
                _ = try Self.load(tx, Self.records(window * 500..<(window + 1) * 500, prefix: "w"))
            }
            #expect(throws: Refused.self) { _ = try Self.load(tx, Self.records(0..<500, prefix: "x"), failAfter: 300) }
            try tx.restoreDeferredIndexes()
            #expect(!tx.areIndexesDeferred)
        }
        #expect(try BulkSearchIndexTests.indexNames(store) == indexesBefore)
        #expect(try BulkSearchIndexTests.triggerCount(store) == 3)
        #expect(try store.read { try $0.quakeCount() } == 2_350)
        let (stored, found) = try Self.townTwelve(store)
        #expect(stored == (0..<2_000).filter { $0 % 13 == 12 }.count + (0..<50).filter { $0 % 13 == 12 }.count
                    + (0..<300).filter { $0 % 13 == 12 }.count)
        #expect(found == stored)
        #expect(try store.read { try $0.scalar("PRAGMA integrity_check").string } == "ok")
        // The entry is a bulk one: readers reload.
        #expect(try store.read { try $0.scalar("SELECT isBulk FROM history ORDER BY token DESC LIMIT 1").int64 } == 1)
    }
}
