import Foundation
import QuakeTestSupport
import Testing

/// `quaketui watch` prints what other processes import, filtered like an independent haversine
/// filter; `quaketui config` reads, checks and writes app storage.
@Suite(.waitsOnProcesses) struct WatchAndConfigTests {
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * r / 2), 2) + cos(lat1 * r) * cos(lat2 * r) * pow(sin((lon2 - lon1) * r / 2), 2)
        return 2 * 6371.0088 * asin(min(1, sqrt(a)))
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func watchPrintsEachArrivalNearAPointAsNDJSON() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // Something stored before watch starts is not printed.
        #expect(try QuaketuiBinary.run(["import", SharedData.url("all_week-2018-06-14.geojson").path],
                                       stateDirectory: dir.url).status == 0)
        let (lat, lon, radius, minimum) = (19.4, -155.3, 150.0, 1.5)
        let watch = try QuaketuiBinary.startWatch(["--json", "--near", "\(lat),\(lon)", "--radius", "\(radius)",
                                                   "--min-magnitude", "\(minimum)"], stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        let feed = SharedData.url("all_month-2023-04-04.csv")
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url).status == 0)
        let expected = try IndependentParse.expected(for: feed).filter {
            // The magnitude as shown (1.45 shows 1.5) at the minimum or more.
            ExpectedResults.isShown($0.magnitude, atLeast: minimum) && Self.haversine(lat, lon, $0.latitude, $0.longitude) <= radius
        }
        #expect(expected.count > 50)
        #expect(watch.waitForOutput(timeout: 30) { $0.split(separator: "\n").count >= expected.count })
        let lines = watch.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count)
        var printed: [String: [String: Any]] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            printed[try #require(object["code"] as? String)] = object
        }
        #expect(Set(printed.keys) == Set(expected.map(\.code)))
        for quake in expected {
            let object = try #require(printed[quake.code])
            let distance = try #require(object["distanceKm"] as? Double)
            #expect(abs(distance - Self.haversine(lat, lon, quake.latitude, quake.longitude)) <= 0.051, "\(quake.code)")
            #expect(object["bearing"] is Double)
            #expect(object["magnitude"] as? Double == quake.magnitude)
        }
        // A re-import changes nothing and prints nothing; of three new quakes only the one near
        // the point (Pāhala, M 2.2) is printed, after everything before it.
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url).status == 0)
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: TerminalEnvironmentTests.feed).status == 0)
        #expect(watch.waitForOutput(timeout: 20) { $0.split(separator: "\n").count > expected.count })
        let after = watch.stdout.split(separator: "\n")
        #expect(after.count == expected.count + 1)
        let last = try JSONSerialization.jsonObject(with: Data((after.last ?? "").utf8)) as? [String: Any]
        #expect(last?["code"] as? String == "ut0002", "\(after.last ?? "")")
    }

    @Test func watchLinesAreTextWithoutJSON() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let watch = try QuaketuiBinary.startWatch(stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: TerminalEnvironmentTests.feed,
                                       environment: ["TZ": "UTC"]).status == 0)
        #expect(watch.waitForOutput(timeout: 20) { $0.split(separator: "\n").count == 3 })
        // `list`'s line (the time is in the machine's zone here): no type, one agency's, so no count.
        let last = watch.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("M  4.1 —     ") && last.hasSuffix("    10.0 km  12 km SW of Suárez, Colombia  [ut0001]"),
                "\(watch.stdout)")
    }

    /// The quakes of one import print oldest first, whatever the file's order (a USGS feed is
    /// newest first), so the stream reads as a log with the latest quake at the bottom.
    @Test func watchPrintsTheQuakesOfAnImportOldestFirst() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try QuaketuiBinary.run(["config", "timeZone", "utc"], stateDirectory: dir.url).status == 0)
        let watch = try QuaketuiBinary.startWatch(stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: TerminalEnvironmentTests.feed).status == 0)
        #expect(watch.waitForOutput(timeout: 20) { $0.split(separator: "\n").count == 3 })
        #expect(watch.stdout.split(separator: "\n").map(String.init) == [
            "M  3.0 —     2023-11-14 13:53:20     5.0 km  10 km N of Bend, Oregon  [ut0003]",
            "M  2.2 —     2023-11-14 16:40:00    30.0 km  6 km S of Pāhala, Hawaii  [ut0002]",
            "M  4.1 —     2023-11-14 19:26:40    10.0 km  12 km SW of Suárez, Colombia  [ut0001]",
        ], "\(watch.stdout)")
    }

    /// Issue 53: `watch` prints an arriving event as `list` lists it, through the same `QuakeTextLine`:
    /// its preferred solution's magnitude type, and `2 ag` after the code when two agencies
    /// reported it. The Norcia earthquake of 30 October 2016 from ComCat and INGV in one QuakeML
    /// 1.2 file (each event's agency is its `publicID`'s authority, so both arrive in one
    /// import): INGV's solution is preferred in Italy (`local-network`). `watch --json` gives the
    /// event the object `list --json` gives it, `agencies` and `reports` included.
    @Test func watchLinesNameTheMagnitudeTypeAndTheAgenciesAsListDoes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: dir.url)
        let watch = try QuaketuiBinary.startWatch(stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        let json = try QuaketuiBinary.startWatch(["--json"], stateDirectory: dir.url)
        defer { json.kill(); json.wait() }
        func event(_ publicID: String, _ origin: String, _ magnitude: String, place: String, time: String,
                   latitude: String, longitude: String, depthMetres: Int, mag: String, type: String) -> String {
            """
                <event publicID="\(publicID)">
                  <description><text>\(place)</text><type>region name</type></description>
                  <origin publicID="\(origin)">
                    <time><value>\(time)</value></time>
                    <latitude><value>\(latitude)</value></latitude>
                    <longitude><value>\(longitude)</value></longitude>
                    <depth><value>\(depthMetres)</value></depth>
                  </origin>
                  <magnitude publicID="\(magnitude)"><mag><value>\(mag)</value></mag><type>\(type)</type></magnitude>
                  <preferredOriginID>\(origin)</preferredOriginID>
                  <preferredMagnitudeID>\(magnitude)</preferredMagnitudeID>
                  <type>earthquake</type>
                </event>
            """
        }
        let ingv = "smi:webservices.ingv.it/fdsnws/event/1/query?"
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2">
              <eventParameters publicID="smi:local/norcia">
            \(event("quakeml:us.anss.org/event/us1000731j", "quakeml:us.anss.org/origin/us1000731j",
                    "quakeml:us.anss.org/magnitude/us1000731j/mww", place: "6 km N of Norcia, Italy",
                    time: "2016-10-30T06:40:18.000Z", latitude: "42.8621", longitude: "13.0961", depthMetres: 10000,
                    mag: "6.6", type: "mww"))
            \(event(ingv + "eventId=8863681", ingv + "originId=27695891", ingv + "magnitudeId=29790911",
                    place: "3 km N Norcia (PG)", time: "2016-10-30T06:40:17.360Z", latitude: "42.8322",
                    longitude: "13.1107", depthMetres: 9200, mag: "6.5", type: "Mw"))
              </eventParameters>
            </q:quakeml>

            """
        let imported = try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: feed)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(watch.waitForOutput(timeout: 20) { !$0.isEmpty && $0.hasSuffix("\n") })
        #expect(json.waitForOutput(timeout: 20) { !$0.isEmpty && $0.hasSuffix("\n") })
        #expect(watch.stdout.split(separator: "\n").map(String.init) == [
            "M  6.5 Mw    2016-10-30 06:40:17     9.2 km  3 km N Norcia (PG)  [ingv:8863681]  2 ag",
        ], "\(watch.stdout)")
        // The same line as list's, and the same object as list --json's.
        let listed = try QuaketuiBinary.run(["list"], stateDirectory: dir.url)
        let listedLines: [String] = listed.lines.dropFirst().map { String($0.dropFirst(2)) }
        let watchedLines: [String] = watch.stdout.split(separator: "\n").map(String.init)
        #expect(listedLines == watchedLines, "\(listed.stdout)")
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(json.stdout)")
        let arrived = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? NSDictionary)
        #expect(arrived["agencies"] as? Int == 2, "\(arrived)")
        let reports = try #require(arrived["reports"] as? [[String: Any]])
        #expect(reports.map { $0["code"] as? String } == ["ingv:8863681", "us1000731j"], "\(reports)")
        #expect(reports.map { $0["magType"] as? String } == ["Mw", "mww"], "\(reports)")
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url).json()
        let sections = try #require(list["sections"] as? [[String: Any]])
        let quakes = try #require(sections.first?["quakes"] as? [NSDictionary])
        #expect(quakes == [arrived], "\(list)")
    }

    /// One agency's quake: its magnitude type (cut to 4 cells as the browser's column cuts it)
    /// and no agency count, the depth in the setting `distanceUnit` and, with --near, the
    /// distance and direction before the code, in the same unit.
    @Test func watchLineOfOneAgencysQuakeHasItsTypeAndNoCount() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: dir.url)
        try QuaketuiBinary.config("distanceUnit", "mi", stateDirectory: dir.url)
        let watch = try QuaketuiBinary.startWatch(["--near", "42.79,13.09", "--radius", "50"], stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        let feed = """
            #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
            us1000731k|2016-10-30T07:13:05.000|42.8400|13.1100|9.0|us|us|us|us1000731k|mb_lg|4.2|us|5 km N of Norcia, Italy|earthquake

            """
        let imported = try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: feed)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(watch.waitForOutput(timeout: 20) { !$0.isEmpty && $0.hasSuffix("\n") })
        #expect(watch.stdout.split(separator: "\n").map(String.init) == [
            "M  4.2 mb_…  2016-10-30 07:13:05     5.6 mi  5 km N of Norcia, Italy  4 mi NNE  [us1000731k]",
        ], "\(watch.stdout)")
    }

    static let fdsnHeader = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"
    /// The Noto earthquake of 1 January 2024 as ComCat reports it (FDSN text, ComCat's ids bare).
    static let notoUSGS = fdsnHeader + """
        us7000m9g4|2024-01-01T07:10:09.000|37.4880|137.2710|10.0|us|us|us|us7000m9g4|mww|7.5|us|Noto Peninsula, Japan|earthquake

        """
    /// EMSC's report of it, 5 s later and 10 km north (0.09° of latitude): within the
    /// association window, ComCat's solution stays preferred (`agencyPreference`'s order).
    static let notoEMSC = fdsnHeader + """
        20240101_0000078|2024-01-01T07:10:14.000|37.5780|137.2710|12.0|EMSC|EMSC-RTS|EMSC|1596346|mw|7.4|EMSC|NEAR WEST COAST OF HONSHU, JAPAN|earthquake

        """

    /// A second agency's report joining an event already stored: `watch` prints the event's line
    /// again with `2 ag` and what it was (`(was 1 ag)`), and `watch --json` the object with
    /// `"was"`. An import that changes nothing the line shows (the same report again, EMSC's
    /// revised magnitude: not the preferred solution) prints nothing: the next line is the
    /// next quake's.
    @Test func aSecondAgencysReportPrintsItsEventAgainMarked() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: dir.url)
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: Self.notoUSGS).status == 0)
        let watch = try QuaketuiBinary.startWatch(stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        let json = try QuaketuiBinary.startWatch(["--json"], stateDirectory: dir.url)
        defer { json.kill(); json.wait() }
        let imported = try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: Self.notoEMSC)
        #expect(imported.status == 0, "\(imported.stderr)")
        let joined = "M  7.5 mww   2024-01-01 07:10:09    10.0 km  Noto Peninsula, Japan  [us7000m9g4]  2 ag  (was 1 ag)"
        #expect(watch.waitForOutput(timeout: 20) { $0.hasSuffix("\n") })
        #expect(watch.stdout.split(separator: "\n").map(String.init) == [joined], "\(watch.stdout)")
        // The line without its mark is list's.
        let listed = try QuaketuiBinary.run(["list"], stateDirectory: dir.url)
        #expect(listed.lines.dropFirst().map { "\($0.dropFirst(2))  (was 1 ag)" } == [joined], "\(listed.stdout)")
        #expect(json.waitForOutput(timeout: 20) { $0.hasSuffix("\n") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["code"] as? String == "us7000m9g4" && object["agencies"] as? Int == 2, "\(object)")
        #expect(object["was"] as? NSDictionary == ["code": "us7000m9g4", "agencies": 1], "\(object)")
        let reports = try #require(object["reports"] as? [[String: Any]])
        #expect(reports.map { $0["code"] as? String } == ["us7000m9g4", "emsc:20240101_0000078"], "\(reports)")

        // Nothing visible changes: nothing printed, in either form.
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: Self.notoEMSC).status == 0)
        let revised = Self.notoEMSC.replacingOccurrences(of: "|mw|7.4|", with: "|mw|7.3|")
        let again = try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: revised)
        #expect(again.status == 0 && again.stdout.contains("1 updated"), "\(again.stdout)")
        // Then a quake of its own (an aftershock an hour later, far outside the window).
        let aftershock = Self.fdsnHeader + """
            us7000m9h1|2024-01-01T08:10:09.000|37.2000|136.8000|10.0|us|us|us|us7000m9h1|mb|5.0|us|Noto Peninsula, Japan|earthquake

            """
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: aftershock).status == 0)
        #expect(watch.waitForOutput(timeout: 20) { $0.split(separator: "\n").count >= 2 })
        #expect(watch.stdout.split(separator: "\n").map(String.init) == [
            joined,
            "M  5.0 mb    2024-01-01 08:10:09    10.0 km  Noto Peninsula, Japan  [us7000m9h1]",
        ], "\(watch.stdout)")
        #expect(json.waitForOutput(timeout: 20) { $0.split(separator: "\n").count >= 2 })
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(json.stdout)")
        let last = try #require(try JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [String: Any])
        #expect(last["code"] as? String == "us7000m9h1" && last["was"] == nil, "\(last)")
    }

    /// A report that joins an event and becomes its preferred solution (INGV in Italy,
    /// `local-network`): the event's line under its new code says the code it had, and the count.
    @Test func aJoiningReportThatIsPreferredNamesTheCodeTheEventHad() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: dir.url)
        let usgs = Self.fdsnHeader + """
            us1000731j|2016-10-30T06:40:18.000|42.8621|13.0961|10.0|us|us|us|us1000731j|mww|6.6|us|6 km N of Norcia, Italy|earthquake

            """
        let ingv = Self.fdsnHeader + """
            8863681|2016-10-30T06:40:17.360|42.8322|13.1107|9.2|SURVEY-INGV||||Mw|6.5|--|3 km N Norcia (PG)|earthquake

            """
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: usgs).status == 0)
        let watch = try QuaketuiBinary.startWatch(stateDirectory: dir.url)
        defer { watch.kill(); watch.wait() }
        #expect(try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url, stdin: ingv).status == 0)
        #expect(watch.waitForOutput(timeout: 20) { $0.hasSuffix("\n") })
        #expect(watch.stdout.split(separator: "\n").map(String.init) == [
            "M  6.5 Mw    2016-10-30 06:40:17     9.2 km  3 km N Norcia (PG)  [ingv:8863681]  2 ag  (was [us1000731j], 1 ag)",
        ], "\(watch.stdout)")
    }

    @Test(arguments: [
        (["watch", "--near", "1,2"], "--near and --radius go together: --near LAT,LON --radius KM."),
        (["watch", "--near", "95,2", "--radius", "10"],
         "'95,2' is not a place: latitude 95 is out of range (-90…90); use LAT,LON in decimal degrees, such as 35.68,139.69."),
        (["watch", "--near", "1,2", "--radius", "-3"], "'-3' is not a radius; use a positive number of kilometres, at most 20038."),
        (["watch", "--min-magnitude", "big"], "'big' is not a magnitude; use a number such as 4.5."),
        (["config", "alertMagnitude", "x"], "'x' is not a valid alertMagnitude; use a magnitude such as 6."),
        (["config", "home", "91,0"], "'91,0' is not a valid home; use LAT,LON in decimal degrees, such as 35.68,139.69."),
        (["config", "homee"], "Unknown setting 'homee'. Did you mean 'home'?"),
        (["config", "timeZone", "mars"], "'mars' is not a valid timeZone; use utc or local."),
        (["config", "refreshFeed", "all_weak"], "'all_weak' is not a valid refreshFeed. Did you mean 'all_week'?"),
        (["config", "distanceUnit", "mil"], "'mil' is not a valid distanceUnit. Did you mean 'mi'?"),
        (["config", "--unset"], "--unset goes with one key and no value: config <key> --unset."),
        (["config", "timeZone", "--name", "x"], "--name goes with a new home: config home LAT,LON --name NAME."),
        (["config", "autoRefreshInterval", "5"], "'5' is not a valid autoRefreshInterval; use 0 or a number of seconds from 30 to 31622400."),
        // Past what a timer or a plist date holds: every later launch trapped on it.
        (["config", "autoRefreshInterval", "1e30"],
         "'1e30' is not a valid autoRefreshInterval; use 0 or a number of seconds from 30 to 31622400."),
        (["config", "nearRadius", "1e308"], "'1e308' is not a valid nearRadius; use a positive number of kilometres, at most 20038."),
        (["config", "alertRadius", "20039"], "'20039' is not a valid alertRadius; use a positive number of kilometres, at most 20038."),
    ])
    func badArgumentsAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url)
        #expect(result.status == 64, "\(arguments)")
        #expect(result.errorLines.first == "Error: " + message, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("defaults.plist").path), "nothing written")
    }

    @Test func configSetsReadsAndUnsetsAppStorage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // A threshold from home, set before any home: kept, and said to wait for one.
        let early = try QuaketuiBinary.config("alertRadius", "100", stateDirectory: dir.url)
        #expect(early.stdout == "100 km\n" && early.stderr == "Note: alertRadius alerts only once a home is set: quaketui config home LAT,LON --name NAME.\n",
                "\(early.stderr)")
        #expect(try QuaketuiBinary.config("home", "-33.92,18.42", "--name", "Cape Town", stateDirectory: dir.url).stdout == "-33.9200,18.4200 (Cape Town)\n")
        // A threshold between two tenths says which magnitude as shown it lets through first.
        #expect(try QuaketuiBinary.config("minimumMagnitude", "2.44", stateDirectory: dir.url).stdout == "2.44 (quakes shown 2.5 and up)\n")
        #expect(try QuaketuiBinary.config("minimumMagnitude", "2.5", stateDirectory: dir.url).stdout == "2.5\n")
        #expect(try QuaketuiBinary.config("minimumMagnitude", "--unset", stateDirectory: dir.url).stdout == "—\n")
        #expect(try QuaketuiBinary.config("alertMagnitude", "5.96", stateDirectory: dir.url).stdout == "M 5.96 (quakes shown M 6.0 and up)\n")
        #expect(try QuaketuiBinary.config("alertIntensity", "4.55", stateDirectory: dir.url).stdout == "4.55 (predicted 4.6 and up)\n")
        #expect(try QuaketuiBinary.config("alertIntensity", "4.5", stateDirectory: dir.url).stdout == "4.5\n")
        #expect(try QuaketuiBinary.config("alertMagnitude", "6", stateDirectory: dir.url).stdout == "M 6\n")
        #expect(try QuaketuiBinary.config("alertRadius", "250", stateDirectory: dir.url).stdout == "250 km\n")
        #expect(try QuaketuiBinary.config("alertCommand", "cat > /tmp/x", stateDirectory: dir.url).stdout == "cat > /tmp/x\n")
        #expect(try QuaketuiBinary.config("autoRefreshInterval", "0", stateDirectory: dir.url).stdout == "off\n")
        let plist = try propertyList(at: dir.appending("defaults.plist"))
        #expect(Set(plist.keys).isSuperset(of: ["home", "alertMagnitude", "alertRadius", "alertCommand", "autoRefreshInterval"]),
                "\(plist)")
        let saved = plist["home"] as? [String: Any]
        #expect(saved?["latitude"] != nil && saved?["name"] as? String == "Cape Town", "\(plist)")
        let json = try QuaketuiBinary.config("--json", stateDirectory: dir.url).json()
        let settings = try #require(json["settings"] as? [String: Any])
        let home = try #require(settings["home"] as? [String: Any])
        #expect(home["latitude"] as? Double == -33.92 && home["name"] as? String == "Cape Town")
        #expect(settings["alertMagnitude"] as? Double == 6)
        #expect(settings["minimumMagnitude"] is NSNull)
        #expect(settings["nearRadius"] as? Double == 300)
        #expect(try QuaketuiBinary.config("home", "--unset", stateDirectory: dir.url).stdout == "—\n")
        #expect(try QuaketuiBinary.config("home", "--json", stateDirectory: dir.url).json()["value"] is NSNull)
        let list = try QuaketuiBinary.config(stateDirectory: dir.url)
        // Every setting with its value and its default, as `config --help` says (issue 31), each
        // on a line of its own below the first.
        #expect(list.lines.dropFirst().filter { $0.hasPrefix("alertMagnitude ") } == ["alertMagnitude       M 6 (default: none)"], "\(list.stdout)")
        #expect(list.lines.dropFirst().filter { $0.hasPrefix("home ") } == ["home                 — (default: none)"], "\(list.stdout)")
        #expect(list.lines.dropFirst().filter { $0.hasPrefix("nearRadius ") } == ["nearRadius           300 km (default: 300 km)"], "\(list.stdout)")
        #expect(list.lines.dropFirst().filter { $0.hasPrefix("autoRefreshInterval ") } == ["autoRefreshInterval  off (default: 300 s)"],
                "\(list.stdout)")
        // The terminal's own notification for an alert (issue 55): off unless chosen.
        #expect(list.lines.dropFirst().filter { $0.hasPrefix("alertNotification ") } == ["alertNotification    off (default: off)"],
                "\(list.stdout)")
        #expect(try QuaketuiBinary.config("alertNotification", "osc777", stateDirectory: dir.url).stdout == "osc777\n")
        let wrong = try QuaketuiBinary.run(["config", "alertNotification", "osc99"], stateDirectory: dir.url)
        #expect(wrong.status == 64 && wrong.errorLines.first == "Error: 'osc99' is not a valid alertNotification. Did you mean 'osc9'?",
                "\(wrong.stderr)")
        #expect(list.lines.dropFirst().filter { $0.hasPrefix("agencyPreference ") }
                == ["agencyPreference     local-network,usgs,emsc,isc,geofon,ingv,geonet,iris (default: local-network,usgs,emsc,isc,geofon,ingv,geonet,iris)"],
                "\(list.stdout)")
        #expect(list.lines.count == 14 && list.lines.allSatisfy { $0.hasSuffix(")") && $0.components(separatedBy: " (default: ").count == 2 },
                "\(list.stdout)")
    }
}
