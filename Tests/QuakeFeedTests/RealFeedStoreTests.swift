import Foundation
import Testing
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// Every real USGS file in ../shared/data/usgs imported in process, by the importer that
/// `quaketui import` runs, and listed through the fetched-results controller that `list` reads:
/// checked against an independent parse and an independent grouping (`ExpectedResults`).
/// `RealFeedImportTests` takes one file of each kind through the binary's `import` and `list --json`.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs beside the checkout"))
struct RealFeedStoreTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func request(_ order: QuakeSortOrder, ascending: Bool, search: String = "",
                        minimum: Double? = nil) -> SectionedFetchRequest {
        SectionedFetchRequest(predicate: QuakePredicate(searchText: search, minimumMagnitude: minimum),
                              sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: utc)
    }

    static func listed(_ store: TestStore, _ request: SectionedFetchRequest) throws -> [ExpectedResults.Section] {
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        return try controller.sectionContents()
    }

    @Test(arguments: SharedData.feedFiles())
    func importStoresEveryDistinctUsableQuakeAndTheListGroupsThemByDayAndMagnitude(_ url: URL) throws {
        let store = try TestStore()
        defer { store.remove() }
        let name = url.lastPathComponent
        let importer = try FeedImporter(container: store.container)
        if name.contains("_TRUNCATED") {
            // Atomic: a file that ends inside a record imports nothing.
            #expect(throws: FeedError.self) { _ = try importer.run(try FeedReader(path: url.path)) }
            #expect(try store.read { try $0.statistics().quakeCount } == 0)
            return
        }
        let summary = try importer.run(try FeedReader(path: url.path))
        let records = try IndependentParse.distinctRecords(url)
        #expect(!records.isEmpty)
        #expect(summary.inserted == records.count, "\(name)")
        #expect(summary.skipped == 0, "\(name): \(summary.skippedReasons)")
        // The import left the digest complete: searches and the statistics read it.
        #expect(try store.read { try $0.digestState() } == .current, "\(name)")
        let byDay = ExpectedResults.sections(records, order: .time, ascending: false, timeZone: Self.utc)
        #expect(try Self.listed(store, Self.request(.time, ascending: false)) == byDay, "\(name) by day")
        // By magnitude, each section holds the expected quakes; their order inside it is not
        // compared: Foundation's JSONSerialization (the independent parse) reads a magnitude such
        // as 1.8900000000000001 as 1.89, so it cannot order ties to the last bit as the store does.
        // `FetchedResultsControllerTests` compares that order exactly on generated quakes.
        let byMagnitude = ExpectedResults.sections(records, order: .magnitude, ascending: false, timeZone: Self.utc)
        #expect(try Self.listed(store, Self.request(.magnitude, ascending: false)).map(Self.unordered)
                    == byMagnitude.map(Self.unordered), "\(name) by magnitude")
    }

    static func unordered(_ section: ExpectedResults.Section) -> ExpectedResults.Section {
        ExpectedResults.Section(id: section.id, codes: section.codes.sorted())
    }

    /// Every order that needs no point, both ways, with and without a search and a minimum
    /// magnitude. (Distance and intensity need a point: `DistanceFetchTests`, `IntensityTests`.)
    @Test(arguments: ["all_week-2018-06-14.geojson", "2.5_month-2025-10-29.geojson"])
    func everyOrderDirectionSearchAndMinimumListsTheIndependentSections(_ name: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        let url = SharedData.url(name)
        _ = try FeedImporter(container: store.container).run(try FeedReader(path: url.path))
        let records = try IndependentParse.distinctRecords(url)
        let filters: [(search: String, minimum: Double?)] = [
            ("", nil), ("alaska", nil), ("MEXICO", nil), ("o", 2.5), ("", 4.5), ("%_*\"(", nil),
        ]
        for order in QuakeSortOrder.allCases where order != .distance && order != .intensity {
            for ascending in [true, false] {
                for filter in filters {
                    let label = "\(name) \(order) \(ascending ? "ascending" : "descending") '\(filter.search)' \(filter.minimum ?? 0)"
                    #expect(try Self.listed(store, Self.request(order, ascending: ascending, search: filter.search,
                                                                minimum: filter.minimum))
                                == ExpectedResults.sections(records, search: filter.search, minimumMagnitude: filter.minimum,
                                                            order: order, ascending: ascending, timeZone: Self.utc),
                            "\(label)")
                }
            }
        }
    }
}
