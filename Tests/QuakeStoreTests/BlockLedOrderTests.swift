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
                db, in: order == .depth ? .depth(10) : .magnitude(2), range: (range, []), predicate: ("1", []),
                orderBy: QueryPlan(request).orderBy, limit: 40, offset: 7, table: SortTable())
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

/// A read by keys from a row (the rows around the selection, a page read on from a held row,
/// a merge's walk of a section) seeks the row's keys on the sort index: of the section's range
/// only the far edge is given (`QueryPlan.inSection(_:from:onward:)`), since SQLite, given both,
/// sought the near edge and walked to the row (0.2–0.3 s through a depth band at 5,000,000 quakes).
@Suite struct KeyedReadPlanTests {
    @Test func aReadFromARowSeeksTheRowsKeys() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<50).map { QuakeRecord.fixture(String(format: "k%03d", $0), magnitude: 2.5, time: 1_700_000_000_000 + Int64($0) * 1_000) })
        let keys = RowKeys(id: 7, time: 1_700_000_007_000, magnitude: 2.5, regionKey: "chile", placeKey: "", depth: 12)
        let cases: [(QuakeSortOrder, SectionKey, String)] = [
            (.depth, .depth(10), "depth"), (.magnitude, .magnitude(2), "magnitude"),
            (.time, .day(start: 1_699_920_000_000, last: 1_700_006_399_999), "time"),
        ]
        for (order, section, column) in cases {
            for ascending in [true, false] {
                let plan = QueryPlan(SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(order, ascending: ascending)))
                for onward in [true, false] {
                    let (term, arguments) = plan.inSection(section, from: keys, onward: onward)
                    let lines = try store.read { db in
                        let query = try plan.strategy.keyedRowsQuery(db, where: (term, arguments),
                                                                     orderBy: onward ? plan.orderBy : plan.reversedOrderBy, limit: 5)
                        return try db.queryPlan(try #require(query).0).components(separatedBy: "\n")
                    }
                    let label = "\(order) ascending \(ascending) onward \(onward): \(lines)"
                    // Every block's arm seeks the row's keys (a row value), not the section's near
                    // edge. (The time index's row value over its rowid reads `time>?` in the plan
                    // like the edge: its day is short anyway.)
                    let seeks = lines.filter { $0.contains("SEARCH") }
                    #expect(!seeks.isEmpty, "\(label)")
                    if order != .time { #expect(seeks.allSatisfy { $0.contains("(\(column),") }, "\(label)") }
                    #expect(!lines.contains { $0.contains("TEMP B-TREE") }, "\(label)")
                    // And the rows are those of the whole range with the bound.
                    let whole = "\(section.rangeSQL.0) AND \((onward ? plan.atOrAfterInSection(keys) : plan.beforeInSection(keys)).0)"
                    let wholeArguments = section.rangeSQL.1 + (onward ? plan.atOrAfterInSection(keys) : plan.beforeInSection(keys)).1
                    let ids = { (condition: String, arguments: [SQLiteValue]) in
                        try store.read { db -> [Int64] in
                            let s = try db.prepare("SELECT id FROM quake WHERE \(condition) ORDER BY id")
                            try s.bind(arguments)
                            var ids: [Int64] = []
                            while try s.step() { ids.append(s.int64(at: 0)) }
                            return ids
                        }
                    }
                    #expect(try ids(term, arguments) == ids(whole, wholeArguments), "\(label)")
                }
            }
        }
    }
}
