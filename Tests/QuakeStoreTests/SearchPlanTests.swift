import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// A search's section seeks and counts walk the sort order's index and test the match set per
/// row, rather than re-reading every match once per section (a plan that was quadratic in practice).
@Suite struct SearchPlanTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// SQLite's query plan for `sql` (which may call the match set's functions), one step a line.
    static func plan(of sql: String, in store: TestStore) throws -> String {
        let context = try store.container.newViewContext(queryOnly: false)
        defer { context.close() }
        let matches = MatchSet()
        return try context.read { db in
            try matches.register(on: db)
            return try db.queryPlan(sql)
        }
    }

    @Test(arguments: [
        (QuakeSortOrder.time, "time >= 0 AND time < 86400000", "quake_time"),
        (.magnitude, "magnitude >= 2 AND magnitude < 3", "quake_magnitude"),
        (.region, "regionKey = 'alaska'", "quake_region"),
    ])
    func searchSectionCountsUseTheSortIndex(order: QuakeSortOrder, range: String, index: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.generate(count: 200)
        var request = SectionedFetchRequest(sortDescriptor: .init(order), timeZone: Self.utc)
        request.predicate.searchText = "town"
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        let (predicate, _) = QueryPlan(request).matchedWhere
        // An index led by the row's block (magnitude) is counted naming every block, as the controller counts.
        let blocks = QueryPlan(request).strategy.countingTerm.map { " AND \($0)" } ?? ""
        let plan = try Self.plan(of: "SELECT count(*) FROM quake WHERE \(range) AND \(predicate)\(blocks)", in: store)
        #expect(plan.contains(index), "plan:\n\(plan)")
        #expect(!plan.contains("INTEGER PRIMARY KEY (rowid=?)"), "plan:\n\(plan)")
        // And the results are still right.
        #expect(controller.count == (try controller.rows(in: 0..<controller.count)).filter { $0.place.lowercased().contains("town") }.count)
    }

    /// One or two characters are below the trigram index: where the digest cannot answer (another
    /// program's write not yet folded in), the scan that builds their match set and counts their
    /// sections reads the table once, in rowid order, without a temporary index.
    @Test(arguments: [QuakeSortOrder.time, .magnitude], [nil, 2.5])
    func aShortSearchScansTheTableOnce(order: QuakeSortOrder, minimumMagnitude: Double?) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.generate(count: 50)
        var request = SectionedFetchRequest(sortDescriptor: .init(order), timeZone: Self.utc)
        request.predicate = QuakePredicate(searchText: "a", minimumMagnitude: minimumMagnitude)
        let bucket = order == .time ? Schema.timeBucket("time") : Schema.magnitudeBucket("magnitude")
        let counting = minimumMagnitude.map { ("CASE WHEN magnitude >= ? THEN \(bucket) END", [SQLiteValue.real($0)]) }
            ?? (bucket, [])
        let (sql, _) = try #require(QueryPlan(request).matchSetScan(countingBy: counting))
        let plan = try Self.plan(of: sql, in: store)
        #expect(plan.trimmingCharacters(in: .whitespacesAndNewlines) == "SCAN quake", "plan:\n\(plan)")
    }

    /// Another agency's codes, as `list` prints them (`emsc:20240101_0000072`), are searched as
    /// codes too: they said `no place contains …` (`open` and `sequence` took them).
    @Test func anotherAgencysCodeIsSearchedAsACode() throws {
        let codes = ["emsc:20240101_0000072", "emsc:20240101_0000073", "emsc:20240102_0000001", "iris:958596",
                     "example.org:2016p858000", "us7000abcd"]
        let store = try TestStore(codes.enumerated().map { index, code in
            QuakeRecord.fixture(code, time: 1_704_067_200_000 + Int64(index) * 3_600_000)
        })
        defer { store.remove() }
        func found(_ search: String) throws -> [String] {
            var request = SectionedFetchRequest(sortDescriptor: .init(.time), timeZone: Self.utc)
            request.predicate.searchText = search
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            return try controller.rows(in: 0..<controller.count).map(\.code).sorted()
        }
        #expect(try found("emsc:20240101_000007") == ["emsc:20240101_0000072", "emsc:20240101_0000073"])
        #expect(try found("EMSC:20240101_0000072") == ["emsc:20240101_0000072"])
        #expect(try found("iris:958596") == ["iris:958596"])
        #expect(try found("example.org:2016p") == ["example.org:2016p858000"])
        #expect(try found("us7000") == ["us7000abcd"])
        // Punctuation alone, or without a digit, is no code: places only (none holds it).
        #expect(try found("emsc:") == [])
        #expect(QueryPlan.codePrefix(of: "emsc:") == nil && QueryPlan.codePrefix(of: "::1") == nil)
        #expect(QueryPlan.codePrefix(of: "santa cruz 2") == nil)
    }

    /// A search that looks like a code (letters and digits, no spaces) also finds the quakes whose
    /// code starts with it, through the code's unique index and the trigram index, never a scan of
    /// the table; a search that does not look like one stays on the places.
    @Test func aCodeLikeSearchFindsQuakesByCodeThroughTheCodeIndex() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.generate(count: 2_000)
        var request = SectionedFetchRequest(sortDescriptor: .init(.time), timeZone: Self.utc)
        request.predicate.searchText = " G123 "
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        #expect(try controller.rows(in: 0..<controller.count).map(\.code).sorted() == ["g123"] + (0...9).map { "g123\($0)" })
        // With and without a filter (which joins each candidate to its row, as a place search does).
        for filters in [[], [RowFilter.felt]] {
            request.predicate.rowFilters = filters
            let fill = try #require(QueryPlan(request).matchSetFill(countingBy: nil))
            let plan = try Self.plan(of: fill.sql, in: store)
            #expect(plan.contains("SEARCH quake USING COVERING INDEX sqlite_autoindex_quake_1 (code>? AND code<?)"), "plan:\n\(plan)")
            #expect(plan.contains("VIRTUAL TABLE INDEX"), "plan:\n\(plan)")
            #expect(!plan.split(separator: "\n").contains { $0 == "SCAN quake" || $0.hasPrefix("SCAN quake ") || $0.contains("TEMP B-TREE") },
                    "plan:\n\(plan)")
        }
        request.predicate.rowFilters = []
        // Two words (issue 53): places holding both, in any order; no code matches a search with a space.
        request.predicate.searchText = "g 123"
        try controller.configure(request)
        let rows = try controller.rows(in: 0..<controller.count)
        #expect(rows.allSatisfy { $0.place.lowercased().contains("g") && $0.place.contains("123") }, "\(rows.map(\.place))")
        let all = try store.read { db in try db.scalar("SELECT count(*) FROM quake WHERE instr(placeKey, 'g') > 0 AND instr(placeKey, '123') > 0").int64 }
        #expect(controller.count == Int(all ?? -1))
    }
}
