import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `quaketui import` and `list --json` on real USGS files in ../shared/data/usgs, checked
/// against an independent parse (Foundation's JSONSerialization and a plain CSV splitter) and an
/// independent in-memory grouping (`ExpectedResults`). One file of each kind goes through the
/// binary here; `RealFeedStoreTests` imports and lists every file, and every sort and filter, in process.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct RealFeedImportTests {
    /// The distinct usable quakes of `url` (an id, a time and coordinates), a later `updated`
    /// winning as in the store, in file order.
    static func expectedRecords(_ url: URL) throws -> [QuakeRecord] { try IndependentParse.distinctRecords(url) }

    /// `list --json` as (section id, count field, codes) triples.
    static func listedSections(_ result: QuaketuiBinary.Result) throws -> [(id: String, count: Int, codes: [String])] {
        let sections = try #require(try result.json()["sections"] as? [[String: Any]])
        return try sections.map { section in
            let quakes = try #require(section["quakes"] as? [[String: Any]])
            return (try #require(section["id"] as? String), try #require(section["count"] as? Int),
                    quakes.compactMap { $0["code"] as? String })
        }
    }

    /// Checks that sections are contiguous (each id once, counts complete) and hold exactly the
    /// independently grouped codes, section by section in order.
    static func expectSections(_ listed: [(id: String, count: Int, codes: [String])],
                               match expected: [ExpectedResults.Section], _ label: String) {
        #expect(Set(listed.map(\.id)).count == listed.count, "\(label): a section id appears twice (not contiguous)")
        for section in listed where section.count != section.codes.count {
            Issue.record("\(label): section \(section.id) says \(section.count) but lists \(section.codes.count)")
        }
        #expect(listed.map(\.id) == expected.map(\.id), "\(label): section ids")
        for (got, want) in zip(listed, expected) where got.codes.sorted() != want.codes.sorted() {
            Issue.record("\(label): section \(got.id) has \(got.codes.count) quakes, expected \(want.codes.count)")
        }
    }

    /// One file of each kind: GeoJSON, pretty-printed GeoJSON, GeoJSONP (2016 and the 2012
    /// legacy feed), the USGS CSV feed, FDSN queries in CSV and GeoJSON, and a truncated file.
    static let oneOfEachKind = [
        "all_week-2020-06-10.geojson", "all_day_pretty-2019-11-21.geojson", "all_day-2016-11-04.geojsonp",
        "legacy2012_geojsonp-2012-09-20.geojsonp", "2.5_month-2019-07-19.csv", "fdsn_query-m4-south_america-1921-2021.csv",
        "fdsn_query-shakemap-south_america-2011-2021.geojson", "1.0_month_TRUNCATED-2019-02-16.geojson",
    ]

    @Test(arguments: oneOfEachKind)
    func importInsertsEveryDistinctUsableQuakeAndListGroupsThemByDay(_ name: String) throws {
        let url = SharedData.url(name)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(["import", url.path, "--json"], stateDirectory: dir.url)
        if name.contains("_TRUNCATED") {
            #expect(result.status == 1)
            let position = try #require(result.stderr.firstMatch(of: #/^Error: (.+):(\d+):(\d+): /#), "\(result.stderr)")
            #expect(String(position.1) == url.path)
            #expect(result.stdout.isEmpty)
            #expect(try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()["quakes"] as? Int == 0)
            return
        }
        #expect(result.status == 0, "\(name): \(result.stderr)")
        let records = try Self.expectedRecords(url)
        #expect(!records.isEmpty)
        let json = try result.json()
        #expect(json["inserted"] as? Int == records.count, "\(name)")
        #expect(json["skipped"] as? Int == 0, "\(name): \(json["skippedReasons"] ?? "")")
        // The import left the digest complete: searches and the statistics read it.
        #expect(try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()["digest"] as? String == "current", "\(name)")

        // Day sections in UTC, as the app setting timeZone says.
        try AppStorage(state: StateDirectory(path: dir.path)).set("utc", for: AppKeys.timeZone)
        let byDay = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url)
        #expect(byDay.status == 0, "\(byDay.stderr)")
        #expect(byDay.stderr.isEmpty, "real data: no sample note")
        #expect(try byDay.json()["total"] as? Int == records.count)
        Self.expectSections(try Self.listedSections(byDay),
                            match: ExpectedResults.sections(records, order: .time, ascending: false,
                                                            timeZone: TimeZone(identifier: "UTC")!), "\(name) by day")

        let byMagnitude = try QuaketuiBinary.run(["list", "--sort", "magnitude", "--json"], stateDirectory: dir.url)
        #expect(byMagnitude.status == 0, "\(byMagnitude.stderr)")
        Self.expectSections(try Self.listedSections(byMagnitude),
                            match: ExpectedResults.sections(records, order: .magnitude, ascending: false,
                                                            timeZone: TimeZone(identifier: "UTC")!), "\(name) by magnitude")
    }

    /// Every sort order both ways, and each search and minimum magnitude once, on a real feed:
    /// the flags reach the list (`list --json` sections against the independent grouping). Their
    /// every combination is listed in process (`RealFeedStoreTests`).
    @Test func listSectionsMatchForEverySortDirectionSearchAndMinimum() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let name = "2.5_month-2025-10-29.geojson"
        let url = SharedData.url(name)
        #expect(try QuaketuiBinary.run(["import", url.path], stateDirectory: dir.url).status == 0)
        try AppStorage(state: StateDirectory(path: dir.path)).set("utc", for: AppKeys.timeZone)
        let records = try Self.expectedRecords(url)
        let filters: [(search: String, minimum: Double?)] = [
            ("alaska", nil), ("MEXICO", nil), ("o", 2.5), ("", 4.5), ("%_*\"(", nil),
        ]
        // The orders that need a point (distance, intensity) have their own real-feed checks
        // (DistanceListTests, IntensityTests).
        let orders = QuakeSortOrder.allCases.filter { $0 != .distance && $0 != .intensity }
        let unfiltered = orders.flatMap { order in [true, false].map { (order, $0, (search: "", minimum: Double?.none)) } }
        let filtered = filters.enumerated().map { index, filter in (orders[index % orders.count], index % 2 == 0, filter) }
        for (order, ascending, filter) in unfiltered + filtered {
            var arguments = ["list", "--json", "--sort", order.rawValue, ascending ? "--ascending" : "--descending"]
            if !filter.search.isEmpty { arguments += ["--search", filter.search] }
            if let minimum = filter.minimum { arguments += ["--min-magnitude", String(minimum)] }
            let label = "\(name) \(arguments.dropFirst(2).joined(separator: " "))"
            let listed = try QuaketuiBinary.run(arguments, stateDirectory: dir.url)
            #expect(listed.status == 0, "\(label): \(listed.stderr)")
            Self.expectSections(try Self.listedSections(listed),
                                match: ExpectedResults.sections(records, search: filter.search, minimumMagnitude: filter.minimum,
                                                                order: order, ascending: ascending,
                                                                timeZone: TimeZone(identifier: "UTC")!), label)
        }
    }

    @Test func daySectionsFollowTheLocalTimeZoneByDefault() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let url = SharedData.url("all_week-2018-06-14.geojson")
        #expect(try QuaketuiBinary.run(["import", url.path], stateDirectory: dir.url).status == 0)
        let records = try Self.expectedRecords(url)
        for zone in ["Pacific/Auckland", "America/Los_Angeles"] {
            let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url, environment: ["TZ": zone])
            #expect(list.status == 0, "\(list.stderr)")
            let expected = ExpectedResults.sections(records, order: .time, ascending: false,
                                                    timeZone: TimeZone(identifier: zone)!)
            Self.expectSections(try Self.listedSections(list), match: expected, zone)
        }
        // The app setting utc wins over the process's zone.
        try AppStorage(state: StateDirectory(path: dir.path)).set("utc", for: AppKeys.timeZone)
        let utc = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url, environment: ["TZ": "Pacific/Auckland"])
        Self.expectSections(try Self.listedSections(utc),
                            match: ExpectedResults.sections(records, order: .time, ascending: false,
                                                            timeZone: TimeZone(identifier: "UTC")!), "utc setting")
    }
}
