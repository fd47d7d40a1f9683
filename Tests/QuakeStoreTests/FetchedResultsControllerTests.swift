import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

@Suite struct FetchedResultsControllerTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let records = ExpectedResults.variedRecords(count: 600)

    static func contents(_ controller: FetchedResultsController) throws -> [ExpectedResults.Section] {
        try controller.sectionContents()
    }

    static let configurations: [(QuakeSortOrder, Bool, String, Double?)] = [
        (.time, false, "", nil), (.time, true, "", nil), (.magnitude, false, "", nil), (.magnitude, true, "", nil),
        (.region, true, "", nil), (.region, false, "", nil), (.time, false, "alaska", nil), (.region, true, "isl", 2.5),
        (.magnitude, false, "o", nil), (.time, true, "", 4.0), (.magnitude, true, "MEXICO", 1),
    ]

    @Test(arguments: configurations)
    func sectionsAreContiguousOrderedAndCounted(order: QuakeSortOrder, ascending: Bool, search: String, minimum: Double?) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records)
        let request = SectionedFetchRequest(predicate: QuakePredicate(searchText: search, minimumMagnitude: minimum),
                                            sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: Self.utc)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        let expected = ExpectedResults.sections(Self.records, search: search, minimumMagnitude: minimum,
                                                order: order, ascending: ascending, timeZone: Self.utc)
        #expect(try Self.contents(controller) == expected)
        #expect(Set(controller.sections.map(\.id)).count == controller.sections.count, "a section appears twice")
    }

    /// The window read around an anchor (walking the sort index from its keys both ways) and a
    /// window read from a section's end (reversed, with the smaller OFFSET) give the same rows as
    /// reading the whole list from the top; the anchor's window serves its section's rows unread.
    static func request(_ order: QuakeSortOrder, _ ascending: Bool, _ search: String, _ minimum: Double?) -> SectionedFetchRequest {
        SectionedFetchRequest(predicate: QuakePredicate(searchText: search, minimumMagnitude: minimum),
                              sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: utc)
    }

    @Test(arguments: configurations)
    func windowsReadAroundAnAnchorOrFromASectionsEndAreTheListsRows(order: QuakeSortOrder, ascending: Bool, search: String,
                                                                     minimum: Double?) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records)
        let request = Self.request(order, ascending, search, minimum)
        let whole = try FetchedResultsController(container: store.container, request: request)
        defer { whole.close() }
        let all = try whole.rows(in: 0..<whole.count)
        for code in stride(from: 0, to: all.count, by: max(1, all.count / 7)).map({ all[$0].code }) {
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            controller.windowMargin = 4
            let offset = try #require(try controller.anchor(code: code))
            #expect(all[offset].code == code)
            let (section, _) = controller.indexPath(forOffset: offset)
            let start = controller.offset(ofSection: section), end = start + controller.sections[section].count
            let read = controller.rowsMaterialized
            let near = max(start, offset - 4)..<min(end, offset + 8)
            #expect(try controller.rows(in: near) == Array(all[near]))
            #expect(controller.rowsMaterialized == read, "the anchor's window should serve its neighbours")
            let tail = max(start, end - 3)..<end
            #expect(try controller.rows(in: tail) == Array(all[tail]))
            let across = max(0, start - 2)..<min(all.count, start + 2)
            #expect(try controller.rows(in: across) == Array(all[across]))
        }
    }

    @Test func dynamicConfigurationChangesSortAndSectionsTogether() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records)
        let controller = try FetchedResultsController(
            container: store.container, request: SectionedFetchRequest(timeZone: Self.utc))
        defer { controller.close() }
        for (order, ascending, search, minimum) in Self.configurations {
            var request = controller.request
            request.sortDescriptor = QuakeSortDescriptor(order, ascending: ascending)
            request.predicate = QuakePredicate(searchText: search, minimumMagnitude: minimum)
            try controller.configure(request)
            #expect(try Self.contents(controller) == ExpectedResults.sections(
                Self.records, search: search, minimumMagnitude: minimum, order: order, ascending: ascending, timeZone: Self.utc))
        }
    }

    @Test func daySectionsFollowTheTimeZone() throws {
        let store = try TestStore()
        defer { store.remove() }
        // 2023-11-15 03:00 UTC is still the 14th in Los Angeles.
        try store.upsert([.fixture("a", time: 1_700_017_200_000)])
        let controller = try FetchedResultsController(container: store.container, request: SectionedFetchRequest(timeZone: Self.utc))
        defer { controller.close() }
        #expect(controller.sections.map(\.id) == ["2023-11-15"])
        #expect(controller.sections.first?.title == "Wednesday, 15 November 2023")
        var request = controller.request
        request.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        try controller.configure(request)
        #expect(controller.sections.map(\.id) == ["2023-11-14"])
    }

    @Test(arguments: ["\"", "'", "*", "%", "_", "\\", "AND", "NEAR(", "(", ")", "\"quoted\"", "100%", "a OR b",
                      "place:fiji", "^", "--", ";DROP TABLE quake;", "\u{0}", "\u{1b}[31m", "   ", "é", "sa", "SÃO", "mexico"])
    func hostileSearchTextIsLiteral(search: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records)
        let request = SectionedFetchRequest(predicate: QuakePredicate(searchText: search), timeZone: Self.utc)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        let expected = ExpectedResults.sections(Self.records, search: search, order: .time, ascending: false, timeZone: Self.utc)
        #expect(try Self.contents(controller) == expected)
        #expect(try store.read { try $0.quakeCount() } == Self.records.count)
    }

    @Test func searchIsCaseAndDiacriticInsensitive() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records)
        for (search, place) in [("mexico", "México"), ("SAO", "São"), ("hofn", "Höfn"), ("sindirgi", "Sındırgı")] {
            let controller = try FetchedResultsController(
                container: store.container, request: SectionedFetchRequest(predicate: QuakePredicate(searchText: search)))
            defer { controller.close() }
            let rows = try controller.rows(in: 0..<controller.count)
            #expect(!rows.isEmpty && rows.allSatisfy { $0.place.contains(place) }, "\(search) → \(rows.prefix(3).map(\.place))")
        }
    }

    @Test func offsetsAndIndexPathsAgree() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records)
        let controller = try FetchedResultsController(
            container: store.container, request: SectionedFetchRequest(sortDescriptor: .init(.region), timeZone: Self.utc))
        defer { controller.close() }
        let rows = try controller.rows(in: 0..<controller.count)
        for offset in stride(from: 0, to: rows.count, by: 37) {
            #expect(try controller.offset(ofCode: rows[offset].code) == offset)
            let path = controller.indexPath(forOffset: offset)
            #expect(controller.offset(ofSection: path.section) + path.row == offset)
        }
        #expect(try controller.offset(ofCode: "no-such-code") == nil)
    }

    @Test func aSelectionThatNoLongerMatchesAnchorsToItsNearestNeighbour() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<10).map { .fixture("q\($0)", magnitude: Double($0), time: 1_700_000_000_000 + Int64($0) * 1000) })
        let controller = try FetchedResultsController(container: store.container, request: SectionedFetchRequest(timeZone: Self.utc))
        defer { controller.close() }
        // Newest first: q9 … q0. Filter out q5 (magnitude 5) by searching for nothing it has… use a minimum instead.
        var request = controller.request
        request.predicate.minimumMagnitude = 6
        try controller.configure(request)  // q9 q8 q7 q6
        #expect(try controller.anchor(code: "q7") == 2)
        #expect(try controller.anchor(code: "q3") == 3)  // would sort after q6: clamped to the last row
        request.predicate.minimumMagnitude = nil
        try controller.configure(request)
        // Deleted: lands where it stood.
        let writer = try store.container.newBackgroundContext(author: "delete")
        defer { writer.close() }
        _ = try writer.performAndWait { try $0.deleteQuake(code: "q5") }
        let changes = try #require(try controller.merge())
        #expect(changes.deleted == [4])
        #expect(controller.count == 9)
        // q9 q8 q7 q6 q4 …: the vanished q5 hands selection to q4, now at offset 4.
        #expect(try controller.anchor(code: "q5") == 4)
    }
}

/// The background count (`ResultsEngine`'s `LatestReader`) stops a configure that a newer request replaced through
/// a check SQLite asks every 1,000 steps: an `sqlite3_interrupt` made between two statements is
/// forgotten when the next starts, so the old count would run to its end before the new one.
@Suite struct ConfigureCancellationTests {
    @Test func aCancelledConfigureStopsAndKeepsThePreviousRequest() throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = FetchedResultsControllerTests.records
        try store.upsert(records)
        let utc = FetchedResultsControllerTests.utc
        let controller = try FetchedResultsController(container: store.container, request: SectionedFetchRequest(timeZone: utc))
        defer { controller.close() }
        let before = try FetchedResultsControllerTests.contents(controller)
        // A filter the digest does not hold: the match set is filled by SQL (the digest's pass over
        // this small store runs too few SQLite steps to be asked).
        let search = SectionedFetchRequest(predicate: QuakePredicate(searchText: "o", rowFilters: [.eventType("quarry blast", excluded: true)]),
                                           sortDescriptor: QuakeSortDescriptor(.magnitude), timeZone: utc)
        var asked = 0
        #expect {
            _ = try controller.configure(search, anchoring: nil, withinNanoseconds: nil, isCancelled: { asked += 1; return true })
        } throws: { ($0 as? SQLiteError)?.isInterrupted == true }
        #expect(asked > 0)
        #expect(controller.request == SectionedFetchRequest(timeZone: utc).normalized)
        #expect(try FetchedResultsControllerTests.contents(controller) == before)
        // Not cancelled: the same request is applied whole, as without the check.
        _ = try controller.configure(search, anchoring: nil, withinNanoseconds: nil, isCancelled: { false })
        #expect(try FetchedResultsControllerTests.contents(controller)
                == ExpectedResults.sections(records, search: "o", minimumMagnitude: nil, order: .magnitude, ascending: false, timeZone: utc))
    }
}
