import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The match set as the home of row filters: a depth range (a column history does not keep)
/// filters a fetch exactly, alone and with search text, and stays exact through merges that
/// move rows into and out of the range, because membership before a change is read from the set.
@Suite struct RowFilterTests {
    static let range = 5.0...20.0

    static func record(_ code: String, depth: Double?, place: String, time: Int64, magnitude: Double?, updated: Int64) -> QuakeRecord {
        QuakeRecord(code: code, magnitude: magnitude, place: place, time: time, updated: updated,
                    latitude: 1, longitude: 2, depth: depth)
    }

    /// Every row of `controller`, and what an unfiltered fetch says the filtered rows must be.
    static func check(_ store: TestStore, _ controller: FetchedResultsController, _ request: SectionedFetchRequest,
                      _ note: String) throws {
        var unfilteredRequest = request
        unfilteredRequest.predicate.rowFilters = []
        let unfiltered = try FetchedResultsController(container: store.container, request: unfilteredRequest)
        defer { unfiltered.close() }
        // The depths shown within the range (20.01 km shows `20.0 km`), worked out apart.
        let shownRange = Int(range.lowerBound * 10)...Int(range.upperBound * 10)
        let expected = try unfiltered.rows(in: 0..<unfiltered.count).filter { row in
            row.depth.map { shownRange.contains(ExpectedResults.shownTenths($0)) } ?? false
        }
        #expect(try controller.rows(in: 0..<controller.count) == expected, "\(note)")
        let fresh = try FetchedResultsController(container: store.container, request: request)
        defer { fresh.close() }
        #expect(fresh.sections == controller.sections, "\(note): sections differ from a fresh fetch")
        for row in expected.prefix(20) { #expect(try controller.offset(ofCode: row.code) != nil, "\(note): \(row.code)") }
    }

    @Test(arguments: ["", "iceland", "al"])
    func depthRangeStaysExactThroughMerges(search: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: 11)
        let places = ["Höfn, Iceland", "Anchorage, Alaska", "Fiji region", "near Lima, Peru"]
        let depths: [Double?] = [nil, 0, 4.949, 4.95, 4.99, 5, 12, 20, 20.01, 20.05, 300]
        var version: Int64 = 0
        func anyRecord(_ code: String) -> QuakeRecord {
            version += 1  // newer every time, so each upsert replaces the row
            return Self.record(code, depth: depths[random.next(depths.count)], place: places[random.next(places.count)],
                        time: 1_700_000_000_000 + Int64(random.next(3 * 86_400)) * 1000,
                        magnitude: random.next(6) == 0 ? nil : Double(random.next(70)) / 10, updated: version)
        }
        try store.upsert((0..<200).map { anyRecord("r\($0)") })
        let request = SectionedFetchRequest(predicate: QuakePredicate(searchText: search, rowFilters: [.depth(Self.range)]),
                                            sortDescriptor: .init(.magnitude), timeZone: TimeZone(identifier: "UTC")!)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        try Self.check(store, controller, request, "initial")
        for round in 0..<15 {
            // Depth changes in place (same id, same keys): only the match set knows where the row was.
            let records = (0..<(1 + random.next(8))).map { _ in anyRecord("r\(random.next(230))") }
            try store.upsert(records)
            if round % 4 == 3 {
                let context = try store.container.newBackgroundContext(author: "delete")
                _ = try context.performAndWait { tx in try tx.deleteQuake(code: "r\(random.next(200))") }
                context.close()
            }
            _ = try controller.merge()
            try Self.check(store, controller, request, "search '\(search)', round \(round)")
        }
    }
}
