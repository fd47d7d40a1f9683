import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The row window against a real store: reads by offset (each section from its nearer end) and
/// around a row's keys give the list's rows, read only the window (the laziness counter), and a
/// held window answers without reading.
@Suite struct RowWindowTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// A store, the whole list as a fresh controller reads it, and the index and SQL of its request.
    static func fixture(_ order: QuakeSortOrder, ascending: Bool) throws -> (TestStore, [QuakeRow], SectionIndex, QueryPlan) {
        let store = try TestStore()
        try store.upsert(ExpectedResults.variedRecords(count: 400))
        let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: utc)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        let all = try controller.rows(in: 0..<controller.count)
        return (store, all, SectionIndex(controller.sections), QueryPlan(controller.request))
    }

    static let orders: [(QuakeSortOrder, Bool)] = [(.time, false), (.time, true), (.magnitude, false), (.region, true), (.region, false)]

    @Test(arguments: orders)
    func rowsByOffsetAreTheListsAndOnlyTheWindowIsRead(order: QuakeSortOrder, ascending: Bool) throws {
        let (store, all, index, sql) = try Self.fixture(order, ascending: ascending)
        defer { store.remove() }
        #expect(index.count == 400)
        try store.read { db in
            var window = RowWindow()
            window.margin = 8
            // The top, a range across section boundaries, the middle of sections, the end.
            for range in [0..<20, 37..<61, 150..<190, 215..<216, 380..<400] {
                let before = window.rowsMaterialized
                let rows = try window.read(db, range, index: index, plan: sql, table: SortTable())
                #expect(rows == Array(all[range]), "\(range)")
                let read = max(0, range.lowerBound - 8)..<min(400, range.upperBound + 8)
                #expect(window.rowsMaterialized - before == read.count, "\(range) read more than its window")
                #expect(window.cache?.start == read.lowerBound)
                // Inside the window: answered without reading.
                let inside = (range.lowerBound + 1)..<range.upperBound
                #expect(window.cached(inside) == Array(all[inside]))
                #expect(window.cached(read.lowerBound..<(read.upperBound + 1)) == nil)
            }
            window.invalidate()
            #expect(window.cache == nil)
            #expect(window.cached(0..<1) == nil)
        }
    }

    /// Paging far into a section (here: anywhere past its first row) reads on by keys from the
    /// held window's edge, down and back up, the same rows an `OFFSET` reads (the orders whose
    /// sections hold more than a page of the fixture's rows).
    @Test(arguments: [(QuakeSortOrder.magnitude, false), (.magnitude, true), (.region, true), (.region, false), (.depth, true), (.depth, false)])
    func pagingFarIntoASectionReadsOnByKeys(order: QuakeSortOrder, ascending: Bool) throws {
        let (store, all, index, sql) = try Self.fixture(order, ascending: ascending)
        defer { store.remove() }
        try store.read { db in
            var window = RowWindow()
            window.margin = 4
            window.offsetStepLimit = 0
            var pages = Array(stride(from: 0, to: 400, by: 23))
            pages += pages.reversed()
            for lower in pages {
                let range = lower..<min(400, lower + 23)
                let rows = try window.read(db, range, index: index, plan: sql, table: SortTable())
                #expect(rows == Array(all[range]), "\(range)")
            }
            #expect(window.partsReadOn > 0)
        }
    }

    @Test(arguments: orders)
    func rowsAroundAnAnchorAreItsNeighboursReadByKeys(order: QuakeSortOrder, ascending: Bool) throws {
        let (store, all, index, sql) = try Self.fixture(order, ascending: ascending)
        defer { store.remove() }
        let days = DayCalendar(timeZone: Self.utc)
        func sectionKey(_ keys: RowKeys) -> SectionKey {
            switch order {
            case .time: days.key(containing: keys.time)
            case .magnitude: .magnitude(SectionKey.bucket(of: keys.magnitude))
            default: .region(keys.regionKey)
            }
        }
        try store.read { db in
            for offset in [0, 1, 57, 133, 200, 301, 399] {
                let statement = try db.prepare("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
                try statement.bind(all[offset].code, at: 1)
                let found = try statement.step()
                #expect(found)
                let keys = RowKeys(statement)
                let key = sectionKey(keys)
                let section = try #require(index.range(of: key))
                var window = RowWindow()
                window.margin = 5
                try window.readAround(db, keys: keys, in: key, at: offset, index: index, plan: sql)
                // margin rows above and twice as many from the row down, within its section.
                let expected = max(section.lowerBound, offset - 5)..<min(section.upperBound, offset + 10)
                #expect(window.cache?.start == expected.lowerBound, "offset \(offset)")
                #expect(window.cache?.rows == Array(all[expected]), "offset \(offset)")
                #expect(window.rowsMaterialized == expected.count)
                // An offset outside the row's section (counts that disagree) keeps no window.
                var stray = RowWindow()
                try stray.readAround(db, keys: keys, in: key, at: section.upperBound, index: index, plan: sql)
                #expect(stray.cache == nil)
                #expect(stray.rowsMaterialized == 0)
            }
        }
    }
}
