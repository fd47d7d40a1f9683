import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `forEachArrival`: every quake inserted after a cursor, once, whether the history names the
/// codes (exact transactions) or not (bulk, purged); updates and deleted quakes are not arrivals.
@Suite struct ArrivalTests {
    func arrivals(_ store: TestStore, after cursor: ArrivalCursor) throws -> ([String], ArrivalCursor) {
        var codes: [String] = []
        let next = try store.read { db in try db.forEachArrival(after: cursor) { codes.append($0.record.code) } }
        return (codes, next)
    }

    @Test func exactTransactionsReportInsertsOnceAndNotUpdates() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a1"), .fixture("a2")])
        var cursor = try store.read { try $0.arrivalCursor() }
        var (codes, next) = try arrivals(store, after: cursor)
        #expect(codes.isEmpty, "nothing arrived since the cursor")
        #expect(next == cursor)

        try store.upsert([.fixture("a2", magnitude: 5.0, updated: 1_700_000_000_001), .fixture("b1")])
        try store.upsert([.fixture("b2"), .fixture("b3")])
        (codes, next) = try arrivals(store, after: cursor)
        #expect(codes == ["b1", "b2", "b3"], "updates are not arrivals; commits in order")
        cursor = next
        (codes, next) = try arrivals(store, after: cursor)
        #expect(codes.isEmpty, "each quake once")

        // A quake inserted and deleted before anyone looked is not reported.
        try store.upsert([.fixture("c1"), .fixture("c2")])
        let context = try store.container.newBackgroundContext(author: "delete")
        defer { context.close() }
        _ = try context.performAndWait { try $0.deleteQuakes(codePrefix: "c1") }
        (codes, _) = try arrivals(store, after: cursor)
        #expect(codes == ["c2"])
    }

    /// What a scene's count of new quakes is kept true with (issue 52): whether anything was
    /// deleted after a token, which of its marked codes are gone, how many rows from its first new one.
    @Test func deletesAfterATokenAreSeenAndTheNewRowsCountedAgain() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a1"), .fixture("a2")])
        let cursor = try store.read { try $0.arrivalCursor() }
        try store.upsert([.fixture("b1"), .fixture("b2"), .fixture("b3")])
        try store.upsert([.fixture("b1", magnitude: 5.0, updated: 1_700_000_000_001)])
        #expect(try store.read { try $0.mayHaveDeletedRows(after: cursor.token) } == false, "inserts and updates delete nothing")
        let firstNew = try store.read { try $0.quake(code: "b1")?.id } ?? -1
        #expect(try store.read { try $0.rowCount(fromID: firstNew) } == 3)

        let context = try store.container.newBackgroundContext(author: "delete")
        defer { context.close() }
        _ = try context.performAndWait { try $0.deleteQuakes(codePrefix: "b2") }
        #expect(try store.read { try $0.mayHaveDeletedRows(after: cursor.token) })
        #expect(try store.read { try $0.codesNotStored(["b1", "b2", "b3", "zz"]) } == ["b2", "zz"])
        #expect(try store.read { try $0.rowCount(fromID: firstNew) } == 2)
        let after = try store.read { try $0.arrivalCursor() }
        #expect(try store.read { try $0.mayHaveDeletedRows(after: after.token) } == false)
    }

    /// Past `listingAtMost` changes after the cursor the codes are not listed in memory (a scene
    /// left before a long `fetch` would hold millions): the rows above the cursor's id are read
    /// instead, and they report the same quakes, each once, updates not.
    @Test func manyChangesAreReadAsRowsNotListed() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a0")])
        let cursor = try store.read { try $0.arrivalCursor() }
        for batch in 0..<3 { try store.upsert((0..<4).map { QuakeRecord.fixture("b\(batch)-\($0)") }) }
        try store.upsert([.fixture("a0", magnitude: 5.0, updated: 1_700_000_000_001)])
        let expected = (0..<3).flatMap { batch in (0..<4).map { "b\(batch)-\($0)" } }
        var listed: [String] = [], read: [String] = []
        let next = try store.read { db in try db.forEachArrival(after: cursor) { listed.append($0.record.code) } }
        let nextRead = try store.read { db in try db.forEachArrival(after: cursor, listingAtMost: 5) { read.append($0.record.code) } }
        #expect(listed == expected)
        #expect(read == expected)
        #expect(nextRead == next)
    }

    /// `byTime` (what `watch` prints): the quakes of one read oldest first, whatever the commit
    /// and file order, the bulk row scan and the listed codes merged into one order.
    @Test func byTimeReportsOneReadOldestQuakeFirst() throws {
        let store = try TestStore()
        defer { store.remove() }
        var cursor = try store.read { try $0.arrivalCursor() }
        func arrivals() throws -> [String] {
            var codes: [String] = []
            cursor = try store.read { db in try db.forEachArrival(after: cursor, byTime: true) { codes.append($0.record.code) } }
            return codes
        }
        try store.upsert([.fixture("t3", time: 3_000), .fixture("t1", time: 1_000)])
        try store.upsert([.fixture("t2", time: 2_000), .fixture("t0", time: 0)])
        #expect(try arrivals() == ["t0", "t1", "t2", "t3"])
        // A bulk transaction (row scan, sorted by SQL) between two exact ones.
        try store.upsert([.fixture("e5", time: 5_500)])
        let many = (0..<10_050).map { QuakeRecord.fixture("b\($0)", time: 20_000 - Int64($0)) }
        try store.upsert(many)
        try store.upsert([.fixture("e9", time: 9_999_999), .fixture("e4", time: 4_000)])
        let codes = try arrivals()
        #expect(codes.count == 10_053)
        #expect(Array(codes.prefix(2)) == ["e4", "e5"] && codes.last == "e9", "\(codes.prefix(3)) … \(codes.suffix(2))")
        #expect(codes.dropFirst(2).dropLast() == ArraySlice(many.reversed().map(\.code)))
        #expect(try arrivals().isEmpty)
    }

    @Test func bulkTransactionsFallBackToRowIDs() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<5).map { .fixture("old\($0)") })
        let cursor = try store.read { try $0.arrivalCursor() }
        // More changes than the history lists one by one: the transaction is marked bulk.
        let many = (0..<10_050).map { QuakeRecord.fixture("bulk\($0)", time: 1_700_000_000_000 + Int64($0)) }
        try store.upsert(many + [.fixture("old1", magnitude: 6, updated: 1_800_000_000_000)])
        try store.upsert([.fixture("after")])
        let (codes, next) = try arrivals(store, after: cursor)
        #expect(codes.count == 10_051)
        #expect(Set(codes) == Set(many.map(\.code) + ["after"]), "the updated old1 is not an arrival")
        #expect(Set(codes).count == codes.count, "each once")
        #expect(try arrivals(store, after: next).0.isEmpty)
    }

    /// The store emptied and filled again after a cursor (`delete --all`, then an import): the
    /// new rows take ids above every id given before, so the row scan finds them; a row of
    /// the largest id deleted in the same transaction as an insert does not lend its id either.
    @Test(arguments: [10, 10_050])
    func aStoreEmptiedAndFilledAgainHasItsNewQuakesAsArrivals(_ count: Int) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<20).map { .fixture("old\($0)") })
        let cursor = try store.read { try $0.arrivalCursor() }
        let context = try store.container.newBackgroundContext(author: "delete")
        defer { context.close() }
        _ = try context.performAndWait { try $0.deleteQuakes(codePrefix: "") }
        #expect(try store.read { try $0.arrivalCursor().maxID } == 0)
        let new = (0..<count).map { QuakeRecord.fixture("new\($0)", time: 1_700_000_000_000 + Int64($0)) }
        try store.upsert(new)
        let (codes, next) = try arrivals(store, after: cursor)
        #expect(Set(codes) == Set(new.map(\.code)) && codes.count == count)
        #expect(try store.read { try $0.quake(code: "new0")?.id } == cursor.maxID + 1)
        #expect(try arrivals(store, after: next).0.isEmpty)

        // The newest row deleted and another inserted in one transaction: past the deleted id.
        let last = try store.read { try $0.arrivalCursor() }
        _ = try context.performAndWait { tx in
            _ = try tx.deleteQuake(code: "new\(count - 1)")
            _ = try tx.upsert(.fixture("again"))
        }
        #expect(try store.read { try $0.quake(code: "again")?.id } == last.maxID + 1)
        #expect(try arrivals(store, after: last).0 == ["again"])
    }

    @Test func purgedHistoryFallsBackToRowIDs() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("x1")])
        let cursor = try store.read { try $0.arrivalCursor() }
        try store.upsert([.fixture("x2"), .fixture("x3")])
        let context = try store.container.newBackgroundContext(author: "purge")
        defer { context.close() }
        _ = try context.performAndWait { try $0.connection.purgeHistory(before: Date().addingTimeInterval(60)) }
        let (codes, _) = try arrivals(store, after: cursor)
        #expect(codes.sorted() == ["x2", "x3"])
    }
}

/// `forEachArrival(…, agencyChanges: true)` (what `watch` prints): also an event stored before
/// the cursor whose agencies changed since, with what it showed then. A joining report's own row
/// comes and goes in its import's transaction, so only the event row's history entry, with its
/// agency count before (`HistoryChange.oldAgencies`), says so.
@Suite struct AgencyChangeArrivalTests {
    /// The Noto earthquake as ComCat reports it, and EMSC's report 5 s later and 10 km north.
    static let usgs = QuakeRecord(code: "us7000m9g4", magnitude: 7.5, magType: "mww", place: "Noto Peninsula, Japan",
                                  time: 1_704_093_009_000, updated: 1_704_093_009_000, latitude: 37.488,
                                  longitude: 137.271, depth: 10, status: "automatic", net: "us", source: "usgs")
    static let emsc = QuakeRecord(code: "emsc:20240101_0000078", magnitude: 7.4, magType: "mw",
                                  place: "NEAR WEST COAST OF HONSHU, JAPAN", time: 1_704_093_014_000,
                                  updated: 1_704_093_014_000, latitude: 37.578, longitude: 137.271, depth: 12,
                                  status: "automatic", source: "emsc")

    struct Printed: Equatable, CustomStringConvertible {
        var code: String
        var agencies: Int
        var was: EarlierEvent?
        var description: String { "\(code) \(agencies) ag" + (was.map { " (was \($0.code), \($0.agencies) ag)" } ?? "") }
    }

    /// Reads from `cursor` on as `watch` does, and moves it.
    static func read(_ store: TestStore, _ cursor: inout ArrivalCursor, agencyChanges: Bool = true) throws -> [Printed] {
        var printed: [Printed] = []
        cursor = try store.read { db in
            try db.forEachArrival(after: cursor, byTime: true, agencyChanges: agencyChanges) { quake, was in
                printed.append(Printed(code: quake.record.code, agencies: try db.agencies(ofEvent: quake.record.code), was: was))
            }
        }
        return printed
    }

    @Test func aJoiningReportPrintsItsEventAgainWithItsCountBefore() throws {
        let store = try TestStore([Self.usgs])
        defer { store.remove() }
        var cursor = try store.read { try $0.arrivalCursor() }
        var plain = cursor
        try store.upsert([Self.emsc])
        #expect(try Self.read(store, &cursor) == [
            Printed(code: "us7000m9g4", agencies: 2, was: EarlierEvent(code: "us7000m9g4", agencies: 1)),
        ])
        // Nothing arrived: without agencyChanges (the browser's new quakes) nothing is reported.
        #expect(try Self.read(store, &plain, agencyChanges: false) == [])
        #expect(plain == cursor)

        // Changes nobody sees in the line: the same report again, a revision of the report that
        // is not preferred, notes. Nothing.
        try store.upsert([Self.emsc])
        var revised = Self.emsc
        revised.magnitude = 7.3
        revised.updated += 60_000
        try store.upsert([revised])
        try store.setNotes("felt in Wajima", code: "us7000m9g4")
        #expect(try Self.read(store, &cursor) == [])

        // EMSC's reviewed solution becomes the preferred one: the event shows its code now.
        revised.status = "reviewed"
        revised.updated += 60_000
        try store.upsert([revised])
        #expect(try Self.read(store, &cursor) == [
            Printed(code: "emsc:20240101_0000078", agencies: 2, was: EarlierEvent(code: "us7000m9g4", agencies: 2)),
        ])

        // Deleted, the preferred report leaves: ComCat's alone, under its code again.
        try store.delete(code: "emsc:20240101_0000078")
        #expect(try Self.read(store, &cursor) == [
            Printed(code: "us7000m9g4", agencies: 1, was: EarlierEvent(code: "emsc:20240101_0000078", agencies: 2)),
        ])
    }

    /// What is new since the cursor is an arrival, printed once, however association rewrote it.
    @Test func eventsNewSinceTheCursorAreArrivalsOnce() throws {
        let store = try TestStore()
        defer { store.remove() }
        var cursor = try store.read { try $0.arrivalCursor() }
        // Both reports in one import: one new event.
        try store.upsert([Self.usgs, Self.emsc])
        #expect(try Self.read(store, &cursor) == [Printed(code: "us7000m9g4", agencies: 2, was: nil)])
        // A day later: EMSC's report alone, then ComCat's joins it (preferred) in another commit,
        // both before the reader looks. One new event under ComCat's code (EMSC's code is a
        // report of it now, not a second quake).
        var (usgs, emsc) = (Self.usgs, Self.emsc)
        (usgs.code, emsc.code) = ("us7000m9zz", "emsc:20240102_0000001")
        usgs.time += 86_400_000
        emsc.time += 86_400_000
        try store.upsert([emsc])
        try store.upsert([usgs])
        #expect(try Self.read(store, &cursor) == [Printed(code: "us7000m9zz", agencies: 2, was: nil)])
        // EMSC revises its report a minute later: it leaves the event, which ComCat alone reports
        // now, and is an event of its own, new in the list.
        emsc.time += 60_000
        emsc.updated += 120_000
        try store.upsert([emsc])
        #expect(try Self.read(store, &cursor) == [
            Printed(code: "us7000m9zz", agencies: 1, was: EarlierEvent(code: "us7000m9zz", agencies: 2)),
            Printed(code: "emsc:20240102_0000001", agencies: 1, was: nil),
        ])
        #expect(try Self.read(store, &cursor) == [])
    }
}
