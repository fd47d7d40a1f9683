import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The depth and magnitude indexes lead with the row's block of ids (schemas 11 and 12,
/// `IDBlocks`), so an import's new rows land at their end; their orders are read as a merge of
/// one run per block (`SortStrategy.orderedRowsQuery`), their ranges counted a block at a time.
@Suite struct BlockLedOrderTests {
    /// Rows spread over 93 blocks (negative ids, gaps of whole blocks) are counted, windowed at
    /// every offset, walked, read provisionally and ranked in a merge exactly as Swift orders
    /// them; every arm of the merge steps the index (no sort).
    @Test(arguments: [QuakeSortOrder.depth, .magnitude], [true, false])
    func rowsInManyBlocksAreReadAsOneOrder(order: QuakeSortOrder, ascending: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        var records = DepthSortTests.records(count: 300, seed: 33)
        try store.upsert(records)
        // Ids in insertion order, as the expected order breaks ties: blocks -16 to 76.
        let writer = try store.container.newBackgroundContext(author: "test")
        try writer.performAndWait { tx in
            for (index, record) in records.enumerated() {
                try tx.connection.execute("UPDATE quake SET id = ? WHERE code = ?",
                                          [.integer(Int64(index) * 20_011 - 1_000_000), .text(record.code)])
            }
        }
        writer.close()
        #expect(try store.read { try IDBlocks.range($0) } == -16...76)
        for minimum in [nil, 3.0] {
            let request = SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: minimum),
                                                sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: DepthSortTests.utc)
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            let expected = ExpectedResults.sections(records, minimumMagnitude: minimum, order: order, ascending: ascending, timeZone: DepthSortTests.utc)
            let codes = expected.flatMap(\.codes)
            #expect(controller.sections.map(\.id) == expected.map(\.id))
            #expect(controller.sections.map(\.count) == expected.map(\.codes.count))
            #expect(try controller.walkedSections() == controller.sections)
            // Windows at offsets from both ends of every section, and the whole list.
            var random = SeededGenerator(seed: 5)
            for _ in 0..<40 {
                let start = random.next(codes.count), end = min(codes.count, start + 1 + random.next(20))
                #expect(try controller.rows(in: start..<end).map(\.code) == Array(codes[start..<end]), "\(start)..<\(end)")
            }
            #expect(try controller.rows(in: 0..<controller.count).map(\.code) == codes)
            let window = try store.read { db in
                try ProvisionalWindow(db, request: request, days: DayCalendar(timeZone: DepthSortTests.utc), anchor: nil, above: 0, below: 400)
            }
            #expect(window.rows.map(\.code) == codes)
        }
        // A merge ranks changed rows among the runs without a reload.
        let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: DepthSortTests.utc)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        for index in [20, 21, 150, 299] {
            records[index].depth = (records[index].depth ?? 0) + 3.5
            records[index].magnitude = records[index].magnitude.map { $0 + 1.2 }
            records[index].updated += 1
        }
        try store.upsert([records[20], records[21], records[150], records[299]])
        let changes = try #require(try controller.merge())
        #expect(!changes.reloaded)
        let expected = ExpectedResults.sections(records, order: order, ascending: ascending, timeZone: DepthSortTests.utc)
        #expect(try controller.rows(in: 0..<controller.count).map(\.code) == expected.flatMap(\.codes))
        // Every arm steps its block's part of the index; only the window's rows are read by id.
        let plan = try store.read { db -> [String] in
            let range = order == .depth ? "depth >= 10 AND depth < 20" : "magnitude >= 2 AND magnitude < 3"
            let (sql, arguments) = try QueryPlan(request).strategy.windowQuery(
                db, range: (range, []), predicate: ("1", []), orderBy: QueryPlan(request).orderBy, limit: 40, offset: 7)
            let s = try db.prepare("EXPLAIN QUERY PLAN \(sql)")
            try s.bind(arguments)
            var lines: [String] = []
            while try s.step() { lines.append(s.text(at: 3)) }
            return lines
        }
        #expect(plan.filter { $0.contains("USING COVERING INDEX quake_\(order)") }.count == 93, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }


    /// A read of every row passing a minimum few pass (the statistics, a distance walk across the
    /// whole Earth) names every block, so that the magnitude index drives it; one most rows pass
    /// reads the table.
    @Test func aSelectiveMinimumMagnitudeIsReadThroughItsIndex() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(DepthSortTests.records(count: 200, seed: 9))
        let plan = QueryPlan(SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: 6.5), timeZone: DepthSortTests.utc))
        for (use, indexed) in [(QueryPlan.MagnitudeIndexUse.drive, true), (.never, false)] {
            let (condition, arguments) = plan.rowWhere(magnitude: use)
            let steps = try store.read { db -> [String] in
                let s = try db.prepare("EXPLAIN QUERY PLAN SELECT id FROM quake WHERE \(condition)")
                try s.bind(arguments)
                var lines: [String] = []
                while try s.step() { lines.append(s.text(at: 3)) }
                return lines
            }
            #expect(steps.contains { $0.hasPrefix("SEARCH") && $0.contains("INDEX quake_magnitude") } == indexed, "\(use): \(steps)")
            let count = try store.read { try $0.scalar("SELECT count(*) FROM quake WHERE \(condition)", arguments).int64 }
            #expect(count == Int64(DepthSortTests.records(count: 200, seed: 9).filter { ($0.magnitude ?? -1) >= 6.5 }.count))
        }
    }
}
