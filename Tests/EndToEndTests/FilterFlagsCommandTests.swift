import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import QuakeTUI
import Testing

/// The browser's `:` filters as flags of `list`, `stats` and `watch` (issue 56.11): the rows the
/// command lists are the rows the browser's request lists with the same `:` line, on a real
/// store; the refusals are the `:` line's sentences, spelled as flags; `list` and `watch` print
/// one quake object.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct FilterFlagsCommandTests {
    /// Kīlauea, erupting in the week of the feed: quakes near enough to be felt.
    static let home = GeoPoint(latitude: 19.4, longitude: -155.3)

    /// A store of a real week (2018-06-07 to 14: earthquakes, explosions, quarry blasts, PAGER
    /// alerts, felt reports, many magnitude types), its days in UTC, home at Kīlauea.
    static func store() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        #expect(try QuaketuiBinary.run(["import", SharedData.url("all_week-2018-06-14.geojson").path], stateDirectory: dir.url).status == 0)
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: dir.url)
        try QuaketuiBinary.config("home", "\(home.latitude),\(home.longitude)", stateDirectory: dir.url)
        return dir
    }

    /// The codes the browser lists with the `:` line `line` run (newest first), read through
    /// the browser's own request (`AppState.request`) by the results controller.
    static func browserCodes(_ line: String?, in dir: TemporaryDirectory) throws -> [String] {
        var settings = AppSettings(timeZone: .utc)
        settings.home = home
        var state = AppState(sceneID: "t", settings: settings)
        if let line {
            guard case .success(.filter(_, let text, let filter)) = FilterCommand.parse(line, now: Int64(Date().timeIntervalSince1970 * 1000),
                                                                                       timeZone: TimeZone(identifier: "UTC")!, home: home)
            else { throw ChildProcess.ChildError("\(line) does not parse") }
            state.filters = [text]
            state.rowFilters = [filter]
        }
        let container = try PersistentContainer(readingFrom: dir.url)
        defer { container.close() }
        let controller = try FetchedResultsController(container: container, request: state.request)
        defer { controller.close() }
        return try controller.rows(in: 0..<controller.count).map(\.code)
    }

    /// Each flag, with texts that keep some quakes and others that keep none or all.
    static let filters: [(flag: String, value: String?, line: String)] = [
        ("depth", "0-10", "depth 0-10"), ("depth", "100+", "depth 100+"),
        ("mag", "4", "mag 4"), ("mag", "2-3", "mag 2-3"),
        ("since", "1000w", "since 1000w"), ("since", "1d", "since 1d"),
        ("time", "2018-06-11", "time 2018-06-11"), ("time", "2018-06-10..2018-06-12T06:30", "time 2018-06-10..2018-06-12T06:30"),
        ("type", "earthquake", "type earthquake"), ("type", "!earthquake", "type !earthquake"),
        ("alert", "green", "alert green"), ("felt", nil, "felt"),
        ("intensity", "4+", "intensity 4+"), ("mag-type", "md", "magtype md"),
    ]

    @Test func everyFilterFlagListsTheRowsTheBrowserLists() throws {
        let dir = try Self.store()
        defer { dir.remove() }
        let all = try Self.browserCodes(nil, in: dir)
        var kept: Set<Int> = []
        for (flag, value, line) in Self.filters {
            let listed = try QuaketuiBinary.run(["list", "--json", "--\(flag)"] + (value.map { [$0] } ?? []), stateDirectory: dir.url)
            #expect(listed.status == 0, "--\(flag): \(listed.stderr)")
            let browser = try Self.browserCodes(line, in: dir)
            #expect(try listed.listedCodes() == browser, "--\(flag) \(value ?? "")")
            #expect(try listed.json()["total"] as? Int == browser.count, "--\(flag) \(value ?? "")")
            // stats counts the same quakes.
            let stats = try QuaketuiBinary.run(["stats", "--json", "--\(flag)"] + (value.map { [$0] } ?? []), stateDirectory: dir.url)
            #expect(stats.status == 0, "stats --\(flag): \(stats.stderr)")
            #expect(try stats.json()["count"] as? Int == browser.count, "stats --\(flag) \(value ?? "")")
            kept.insert(browser.count)
        }
        // The texts are not all trivial: some keep none, some all, most a part.
        #expect(kept.contains(0) && kept.contains(all.count) && kept.filter { $0 > 0 && $0 < all.count }.count >= 8, "\(kept)")
    }

    @Test func flagsCombineWithTheSearchAsTheBrowserCombinesFilters() throws {
        let dir = try Self.store()
        defer { dir.remove() }
        let listed = try QuaketuiBinary.run(["list", "--json", "--search", "hawaii", "--depth", "0-5", "--mag", "2+",
                                             "--sort", "magnitude"], stateDirectory: dir.url)
        #expect(listed.status == 0, "\(listed.stderr)")
        var settings = AppSettings(timeZone: .utc)
        settings.home = Self.home
        var state = AppState(sceneID: "t", sort: QuakeSortDescriptor(.magnitude), searchText: "hawaii", settings: settings)
        state.filters = ["depth 0-5", "mag 2+"]
        state.rowFilters = FilterCommand.rowFilters(state.filters, now: 0)
        let container = try PersistentContainer(readingFrom: dir.url)
        defer { container.close() }
        let controller = try FetchedResultsController(container: container, request: state.request)
        defer { controller.close() }
        let browser = try controller.rows(in: 0..<controller.count).map(\.code)
        #expect(browser.count > 10)
        #expect(try listed.listedCodes() == browser)
    }

    /// Texts the `:` line refuses, as flags: the same sentence, its examples spelled `--depth`.
    static let refused: [(flag: String, value: String, line: String)] = [
        ("depth", "70-0", "depth 70-0"), ("depth", "deep", "depth deep"), ("mag", "6-5", "mag 6-5"), ("mag", "big", "mag big"),
        ("mag", "9999999999999999999", "mag 9999999999999999999"),
        ("since", "5y", "since 5y"), ("time", "2018-06-14..2018-06-10", "time 2018-06-14..2018-06-10"),
        ("time", "2018-06-10..2018-06-10", "time 2018-06-10..2018-06-10"), ("time", "yesterday", "time yesterday"),
        ("type", "!", "type !"), ("alert", "purple", "alert purple"), ("intensity", "11", "intensity 11"),
        ("mag-type", "m w", "magtype m w"),
    ]

    @Test func refusalsAreTheCommandLinesSentences() throws {
        let dir = try Self.store()
        defer { dir.remove() }
        for (flag, value, line) in Self.refused {
            guard case .failure(let error) = FilterCommand.parse(line, now: 0, home: Self.home) else {
                Issue.record("the : line accepts \(line)")
                continue
            }
            let command = line.prefix { $0 != " " }
            let expected = "Error: " + error.message.replacingOccurrences(of: ":\(command)", with: "--\(flag)")
            for tool in ["list", "stats", "watch"] {
                let result = try QuaketuiBinary.run([tool, "--\(flag)", value], stateDirectory: dir.url)
                #expect(result.status == 64, "\(tool) --\(flag) \(value)")
                #expect(result.errorLines.first == expected, "\(tool) --\(flag) \(value)")
            }
        }
        // A type or magnitude type no stored quake has: the : line's sentence, naming the store's
        // (a fact of the store: status 1).
        func stored(_ values: StoredValues) throws -> [String] {
            let container = try PersistentContainer(readingFrom: dir.url)
            defer { container.close() }
            return try container.viewContext.read { try $0.storedValues(values) }
        }
        #expect(try stored(.magnitudeTypes).contains("ml"))
        for (flag, value, values) in [("--type", "volcano", StoredValues.eventTypes), ("--mag-type", "foo", .magnitudeTypes)] {
            let unknown = try #require(FilterCommand.unknown(value, of: values, among: try stored(values)))
            for tool in ["list", "stats"] {
                let result = try QuaketuiBinary.run([tool, flag, value], stateDirectory: dir.url)
                #expect(result.status == 1)
                #expect(result.errorLines.first == "Error: " + unknown.message, "\(tool): \(result.stderr)")
            }
        }
        #expect(try QuaketuiBinary.run(["list", "--mag-type", "unknown"], stateDirectory: dir.url).status == 0)
    }

    @Test func listAndWatchPrintTheSameQuakeObject() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let watch = try QuaketuiBinary.startWatch(["--json"], stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        #expect(try QuaketuiBinary.run(["import", SharedData.url("all_hour-2017-12-03.geojson").path], stateDirectory: dir.url).status == 0)
        let listed = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url)
        let sections = try #require(try listed.json()["sections"] as? [[String: Any]])
        let quakes = sections.flatMap { $0["quakes"] as? [[String: Any]] ?? [] }
        #expect(!quakes.isEmpty)
        #expect(watch.waitForOutput(timeout: 30) { $0.split(separator: "\n").count >= quakes.count })
        let lines = watch.stdout.split(separator: "\n").map(String.init)
        let watched = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let keys = ["agencies", "alert", "code", "depth", "felt", "intensityAtHome", "latitude", "longitude", "magType", "magnitude",
                    "net", "place", "reports", "sArrivalSeconds", "sig", "source", "status", "time", "title", "tsunami", "type",
                    "updated", "url"]
        for quake in quakes { #expect(quake.keys.sorted() == keys, "\(quake)") }
        for quake in watched { #expect(quake.keys.sorted() == keys, "\(quake)") }
        // The same values too, quake by quake.
        let byCode = Dictionary(uniqueKeysWithValues: watched.map { ($0["code"] as! String, $0) })
        for quake in quakes {
            let other = try #require(byCode[quake["code"] as! String])
            #expect(NSDictionary(dictionary: quake).isEqual(to: other), "\(quake) \(other)")
        }
        #expect(quakes.contains { $0["magType"] is String && $0["status"] is String && $0["type"] is String })
    }

    @Test func watchPrintsTheArrivalsListListsWithTheSameFilters() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: dir.url)
        let filters = ["--search", "hawaii", "--depth", "0-3", "--type", "earthquake", "--mag", "2.5+", "--time", "2018-06-10..2018-06-13"]
        let watch = try QuaketuiBinary.startWatch(["--json"] + filters, stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        #expect(try QuaketuiBinary.run(["import", SharedData.url("all_week-2018-06-14.geojson").path], stateDirectory: dir.url).status == 0)
        let listed = try QuaketuiBinary.run(["list", "--json"] + filters, stateDirectory: dir.url).listedCodes()
        #expect(listed.count > 20)
        #expect(watch.waitForOutput(timeout: 30) { $0.split(separator: "\n").count >= listed.count })
        let watched = try watch.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["code"] as? String
        }
        // The same quakes (watch prints them in arrival order, oldest first, ties as they came).
        #expect(watched.count == listed.count && Set(watched.compactMap { $0 }) == Set(listed))
    }

    @Test func plainListRowsShowTheDepthAndTheMagnitudeType() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: dir.url)
        let feed = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"ut0001","properties":{"mag":4.1,"magType":"mww","place":"12 km SW of Suárez, Colombia","time":1700000000000,"updated":1700000000000,"type":"earthquake","status":"reviewed"},"geometry":{"type":"Point","coordinates":[-76.7,2.9,35.25]}},
            {"type":"Feature","id":"ut0002","properties":{"mag":null,"magType":null,"place":"","time":1699990000000,"updated":1699990000000},"geometry":{"type":"Point","coordinates":[-155.4,19.2,null]}}
            ]}
            """
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: feed).status == 0)
        let listed = try QuaketuiBinary.run(["list"], stateDirectory: dir.url)
        #expect(listed.lines == [
            "Tuesday, 14 November 2023 (2)",
            // 35.25 km rounds half up, as its band and `--depth` test it (printf's `%.1f` says 35.2).
            "  M  4.1 mww   2023-11-14 22:13:20    35.3 km  12 km SW of Suárez, Colombia  [ut0001]",
            "  M  ?   —     2023-11-14 19:26:40          —  (no place)  [ut0002]",
        ], "\(listed.stdout)")
    }

    /// Issue 53: a plain `list` row of an event two agencies reported says so (`2 ag`, as the
    /// browser's column does), with its preferred solution's type; one agency's row has no count.
    /// The Norcia earthquake of 30 October 2016 from ComCat and INGV (FDSN text, as the FDSN
    /// event service specification writes it): INGV's is preferred in Italy (`local-network`).
    @Test func plainListRowsCountTheAgenciesOfAnEvent() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: dir.url)
        let header = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"
        let usgs = header + """
            us1000731j|2016-10-30T06:40:18.000|42.8621|13.0961|10.0|us|us|us|us1000731j|mww|6.6|us|6 km N of Norcia, Italy|earthquake
            us1000731k|2016-10-30T07:13:05.000|42.8400|13.1100|9.0|us|us|us|us1000731k|mb_lg|4.2|us|5 km N of Norcia, Italy|earthquake

            """
        let ingv = header + """
            8863681|2016-10-30T06:40:17.360|42.8322|13.1107|9.2|SURVEY-INGV||||Mw|6.5|--|3 km N Norcia (PG)|earthquake

            """
        for text in [usgs, ingv] {
            let imported = try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: text)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let listed = try QuaketuiBinary.run(["list"], stateDirectory: dir.url)
        // A type longer than 4 cells is cut as the browser's column cuts it.
        #expect(listed.lines == [
            "Sunday, 30 October 2016 (2)",
            "  M  4.2 mb_…  2016-10-30 07:13:05     9.0 km  5 km N of Norcia, Italy  [us1000731k]",
            "  M  6.5 Mw    2016-10-30 06:40:17     9.2 km  3 km N Norcia (PG)  [ingv:8863681]  2 ag",
        ], "\(listed.stdout)")
    }
}
