import Foundation
import QuakeTestSupport
import Testing

/// Issue 53, point 6, through the binary: SeisComP's SC3ML and GeoNet's GeoJSON import, one
/// service's events read from two of its formats stay one quake each, and a feed whose
/// `metadata.generated` is in milliseconds while its times are seconds is stored at its times
/// and says so. (Fixtures written from the formats' specifications; the reader's rules are held
/// in detail by `QuakeFeedTests.ObservatoryFormatTests`.)
@Suite(.waitsOnProcesses) struct ObservatoryImportTests {
    static let sc3ml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <seiscomp xmlns="http://geofon.gfz-potsdam.de/ns/seiscomp3-schema/0.13" version="0.13">
          <EventParameters>
            <origin publicID="Origin/20240101074305.123456.7">
              <time><value>2024-01-01T07:42:09.812Z</value></time>
              <latitude><value>37.2861</value></latitude><longitude><value>136.7719</value></longitude>
              <depth><value>10</value></depth>
              <creationInfo><agencyID>GFZ</agencyID></creationInfo>
              <magnitude publicID="Origin/20240101074305.123456.7/netMag/M"><magnitude><value>7.49</value></magnitude><type>M</type></magnitude>
            </origin>
            <event publicID="gfz2024abcd">
              <preferredOriginID>Origin/20240101074305.123456.7</preferredOriginID>
              <preferredMagnitudeID>Origin/20240101074305.123456.7/netMag/M</preferredMagnitudeID>
              <description><text>Near West Coast of Honshu, Japan</text><type>region name</type></description>
              <creationInfo><agencyID>GFZ</agencyID></creationInfo>
            </event>
          </EventParameters>
        </seiscomp>

        """

    static let geofonText = """
        #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
        gfz2024abcd|2024-01-01T07:42:09.812|37.2861|136.7719|10.0|GFZ||GFZ|gfz2024abcd|M|7.49|GFZ|Near West Coast of Honshu, Japan|earthquake

        """

    static let geoNetGeoJSON = """
        {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[173.0197,-42.6925]},
         "properties":{"publicID":"2016p858000","time":"2016-11-13T11:02:56.346Z","depth":15.11,"magnitude":7.82,"mmi":8,
                       "locality":"20 km south-east of Hanmer Springs","quality":"best"}}]}

        """

    static let geoNetText = """
        #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
        2016p858000|2016-11-13T11:02:56.346|-42.6925|173.0197|15.11|WEL(GNS_Primary)|GeoNet||2016p858000|Mw|7.82|WEL(GNS_Primary)|20 km south-east of Hanmer Springs|earthquake

        """

    /// Every quake `list --json` prints.
    static func listed(_ dir: TemporaryDirectory) throws -> [[String: Any]] {
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url)
        return (try list.json()["sections"] as? [[String: Any]] ?? []).flatMap { $0["quakes"] as? [[String: Any]] ?? [] }
    }

    @Test func oneServicesTwoFormatsImportAsOneQuakeEach() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (name, text) in [("geofon.xml", Self.sc3ml), ("geofon.txt", Self.geofonText),
                             ("geonet.json", Self.geoNetGeoJSON), ("geonet.txt", Self.geoNetText)] {
            let file = dir.appending(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: dir.url)
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
        let quakes = try Self.listed(dir)
        #expect(Set(quakes.compactMap { $0["code"] as? String }) == ["geofon:gfz2024abcd", "geonet:2016p858000"], "\(quakes)")
        let geonet = try #require(quakes.first { $0["code"] as? String == "geonet:2016p858000" })
        #expect(geonet["depth"] as? Double == 15.11 && geonet["source"] as? String == "geonet")
    }

    @Test func importingSC3MLSaysWhatItRead() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.appending("geofon.xml")
        try Self.sc3ml.write(to: file, atomically: true, encoding: .utf8)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.notes == ["SeisComP SC3ML 0.13: depths in kilometres, magnitudes read from their origins"], "\(result.stdout)")
        let quake = try #require(try Self.listed(dir).first)
        #expect(quake["depth"] as? Double == 10 && quake["magnitude"] as? Double == 7.49, "\(quake)")
    }

    /// `generated` in milliseconds, times in seconds: stored in 2024, not January 1970, with a note.
    @Test func millisecondsGeneratedWithTimesInSecondsIsStoredAtItsTimes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.appending("seconds.geojson")
        try """
            {"type":"FeatureCollection","metadata":{"generated":1704110000000},"features":[{"type":"Feature",
             "properties":{"mag":4.2,"place":"Somewhere","time":1704100000,"updated":1704100000},
             "geometry":{"type":"Point","coordinates":[10,20,5]},"id":"us1"}]}
            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.notes == ["metadata.generated 1704110000000 reads as milliseconds (2024-01-01), "
                                 + "decades away from the features' times read that way: the times decided",
                                 "times are in seconds (decided from its 1 features); converted to milliseconds"], "\(result.stdout)")
        let quake = try #require(try Self.listed(dir).first)
        #expect((quake["time"] as? String)?.hasPrefix("2024-01-01T09:06:40") == true, "\(quake)")
    }
}

/// Issue 53, point 5, in the browser: `/` finds what `list --search` finds (one QueryPlan), for
/// several words in any order and for another name of a place, and the region sort shows a
/// Flinn–Engdahl name under its country, title-cased.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct PlaceSearchEndToEndTests {
    static let text = """
        #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName
        1|2024-01-01T01:00:00|37.5|137.3|10|ISC|ISC|ISC|1|mb|5.1|ISC|NEAR WEST COAST OF HONSHU, JAPAN
        2|2024-01-01T02:00:00|-4.4|101.4|35|ISC|ISC|ISC|2|mb|5.2|ISC|SOUTHERN SUMATERA, INDONESIA
        3|2024-01-01T03:00:00|3.4|95.9|30|ISC|ISC|ISC|3|mb|5.3|ISC|OFF W COAST OF NORTHERN SUMATRA
        4|2024-01-01T04:00:00|39.1|27.9|10|ISC|ISC|ISC|4|mb|4.9|ISC|WESTERN TURKEY
        5|2024-01-01T05:00:00|38.6|44.1|10|ISC|ISC|ISC|5|mb|4.8|ISC|TURKEY-IRAN BORDER REGION
        6|2024-01-01T06:00:00|36.0|139.0|50|ISC|ISC|ISC|6|mb|4.7|ISC|EASTERN HONSHU, JAPAN

        """

    @Test(arguments: [("japan honshu", "2 quakes"), ("sumatra", "2 quakes"), ("west honshu", "1 quake")])
    func theBrowsersSearchFindsWhatListFinds(search: String, count: String) throws {
        let fixture = try BrowserTests.Fixture(columns: 110, rows: 24, importing: nil)
        defer { fixture.close() }
        let file = fixture.dir.appending("isc.txt")
        try Self.text.write(to: file, atomically: true, encoding: .utf8)
        #expect(try QuaketuiBinary.run(["import", file.path], stateDirectory: fixture.dir.url).status == 0)
        let listed = try QuaketuiBinary.run(["list", "--search", search, "--json"], stateDirectory: fixture.dir.url)
        #expect(try listed.json()["total"] as? Int == Int(count.prefix { $0 != " " }), "\(listed.stdout)")
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "/")
        try fixture.tmux.send(pane, search, literal: true)
        let screen = try fixture.tmux.waitForScreen(pane, "the search's count") { $0.header.count == count }
        #expect(screen.header.count == count, "\(screen)")
    }

    @Test func theRegionSortGroupsFlinnEngdahlNamesUnderTheirCountry() throws {
        let fixture = try BrowserTests.Fixture(columns: 110, rows: 24, importing: nil)
        defer { fixture.close() }
        let file = fixture.dir.appending("isc.txt")
        try Self.text.write(to: file, atomically: true, encoding: .utf8)
        #expect(try QuaketuiBinary.run(["import", file.path], stateDirectory: fixture.dir.url).status == 0)
        let list = try QuaketuiBinary.run(["list", "--sort", "region", "--json"], stateDirectory: fixture.dir.url)
        let sections = try list.json()["sections"] as? [[String: Any]] ?? []
        #expect(sections.compactMap { $0["title"] as? String } == ["Indonesia", "Japan", "Turkey"], "\(list.stdout)")
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "s", "s")
        let screen = try fixture.tmux.waitForScreen(pane, "the region sort") { $0.sections.count == 3 }
        #expect(screen.sections.map(\.title) == ["Indonesia", "Japan", "Turkey"], "\(screen)")
        // Newest first in each region, the capitals title-cased.
        #expect(screen.quakeRows.map(\.place) == ["Off W Coast of Northern Sumatra", "Southern Sumatera, Indonesia",
                                                   "Eastern Honshu, Japan", "Near West Coast of Honshu, Japan",
                                                   "Turkey-Iran Border Region", "Western Turkey"], "\(screen)")
    }
}
