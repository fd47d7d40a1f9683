import Foundation
import QuakeTestSupport
import Testing

/// Issue 53's acceptance: "`stats` counts events; the statistics say which magnitude types and
/// agencies the list mixes". A store holding two agencies' reports of the same earthquakes (EMSC
/// and GEOFON, FDSN text as the FDSN event service specification writes it), and earthquakes
/// only GEOFON reported: `stats` counts each earthquake once, and names the types and agencies
/// of the solutions the list shows (the preferred ones: EMSC's before GEOFON's by default).
@Suite(.waitsOnProcesses) struct StatsEventsCommandTests {
    static let header = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"

    /// Three earthquakes an hour apart, as EMSC reports them (mb).
    static let emsc = header + """
        20240101_0000101|2024-01-01T07:10:09.50|37.500|137.200|10.0|EMSC||||mb|5.1|EMSC|NEAR WEST COAST OF HONSHU, JAPAN|earthquake
        20240101_0000102|2024-01-01T08:10:09.50|37.300|137.000|12.0|EMSC||||mb|4.8|EMSC|NEAR WEST COAST OF HONSHU, JAPAN|earthquake
        20240101_0000103|2024-01-01T09:10:09.50|37.100|136.800|9.0|EMSC||||mb|4.6|EMSC|NEAR WEST COAST OF HONSHU, JAPAN|earthquake

        """

    /// GEOFON's reports of the same three (each a second and a few km off EMSC's), and of two
    /// earthquakes EMSC does not list (Mw).
    static let geofon = header + """
        gfz2024aaaa|2024-01-01T07:10:10.50|37.520|137.190|12.0|||GFZ|gfz2024aaaa|Mw|5.3||Near West Coast of Honshu, Japan|earthquake
        gfz2024aaab|2024-01-01T08:10:10.50|37.320|137.010|11.0|||GFZ|gfz2024aaab|Mw|4.9||Near West Coast of Honshu, Japan|earthquake
        gfz2024aaac|2024-01-01T09:10:08.50|37.090|136.810|10.0|||GFZ|gfz2024aaac|Mw|4.7||Near West Coast of Honshu, Japan|earthquake
        gfz2024aaad|2024-01-01T10:10:08.50|36.900|136.600|10.0|||GFZ|gfz2024aaad|Mw|4.5||Near West Coast of Honshu, Japan|earthquake
        gfz2024aaae|2024-01-01T11:10:08.50|36.700|136.400|10.0|||GFZ|gfz2024aaae|Mw|4.4||Near West Coast of Honshu, Japan|earthquake

        """

    @Test(arguments: [false, true])
    func statsCountsEventsAndNamesTheTypesAndAgenciesTheListMixes(geofonFirst: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let files = [("emsc.txt", Self.emsc), ("geofon.txt", Self.geofon)]
        for (name, text) in geofonFirst ? files.reversed() : files {
            let url = dir.url.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            let imported = try QuaketuiBinary.run(["import", url.path], stateDirectory: dir.url.appendingPathComponent("state"))
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let state = dir.url.appendingPathComponent("state")
        let json = try QuaketuiBinary.run(["stats", "--json"], stateDirectory: state).json()
        #expect(json["count"] as? Int == 5)
        let agencies = try #require(json["agencies"] as? [[String: Any]])
        #expect(agencies.map { $0["agency"] as? String } == ["emsc", "geofon"])
        #expect(agencies.map { $0["count"] as? Int } == [3, 2])
        let magnitude = try #require(json["magnitude"] as? [String: Any])
        let types = try #require(magnitude["types"] as? [[String: Any]])
        #expect(types.map { $0["type"] as? String } == ["mb", "mw"])
        #expect(types.map { $0["count"] as? Int } == [3, 2])
        let text = try QuaketuiBinary.run(["stats"], stateDirectory: state)
        #expect(text.lines.first == "5 quakes", "\(text.stdout)")
        #expect(text.lines.contains("Agencies: emsc 60 %, geofon 40 %"), "\(text.stdout)")
        // `list` agrees: five events, the first three with two agencies' reports each.
        let list = try QuaketuiBinary.run(["list", "--sort", "time", "--ascending", "--json"], stateDirectory: state).json()
        let quakes = try #require((list["sections"] as? [[String: Any]])?.flatMap { $0["quakes"] as? [[String: Any]] ?? [] })
        #expect(quakes.map { $0["agencies"] as? Int } == [2, 2, 2, 1, 1])
    }
}
