import Foundation
import QuakeTestSupport
import Testing

/// Issue 53, point 6, through the binary: SeisComP's SC3ML and GeoNet's GeoJSON import, one
/// service's events read from two of its formats stay one quake each, and a feed whose
/// `metadata.generated` is in milliseconds while its times are seconds is stored at its times
/// and says so. (Fixtures written from the formats' specifications; the reader's rules are held
/// in detail by `QuakeFeedTests.ObservatoryFormatTests`.)
@Suite struct ObservatoryImportTests {
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
        #expect(result.lines.contains("  note: SeisComP SC3ML 0.13: depths in kilometres, magnitudes read from their origins"), "\(result.stdout)")
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
        #expect(result.lines.contains("  note: metadata.generated 1704110000000 reads as milliseconds (2024-01-01), "
                                      + "decades away from the features' times read that way: the times decided"), "\(result.stdout)")
        let quake = try #require(try Self.listed(dir).first)
        #expect((quake["time"] as? String)?.hasPrefix("2024-01-01T09:06:40") == true, "\(quake)")
    }
}
