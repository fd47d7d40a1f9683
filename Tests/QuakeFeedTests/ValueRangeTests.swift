import QuakeFeed
import QuakeTestSupport
import Testing

/// Magnitudes outside −5…10 and depths outside −10…800 km are refused at import with the
/// reason, as out-of-range coordinates are (issue 54): a feed's 1e308 never reaches the store,
/// the histogram or the depth rows. The edges themselves are real values and are kept.
@Suite struct ValueRangeTests {
    static func properties(mag: String) -> String {
        #""mag":\#(mag),"place":"10 km N of Somewhere","time":1700000000000,"updated":1700000100000"#
    }

    @Test func geoJSONRefusesMagnitudesAndDepthsOutOfRangeWithTheReason() throws {
        let features = [
            Feed.feature(id: #""edgeHigh""#, properties: Self.properties(mag: "10"), coordinates: "[1,2,800]"),
            Feed.feature(id: #""edgeLow""#, properties: Self.properties(mag: "-5"), coordinates: "[1,2,-10]"),
            Feed.feature(id: #""bigMag""#, properties: Self.properties(mag: "10.5")),
            Feed.feature(id: #""smallMag""#, properties: Self.properties(mag: "-5.5")),
            Feed.feature(id: #""hugeMag""#, properties: Self.properties(mag: "1e308")),
            Feed.feature(id: #""deep""#, coordinates: "[1,2,801]"),
            Feed.feature(id: #""high""#, coordinates: "[1,2,-10.5]"),
            Feed.feature(id: #""hugeDepth""#, coordinates: "[1,2,-1e308]"),
            Feed.feature(id: #""noMag""#, properties: Self.properties(mag: "null")),
        ]
        let reader = try FeedReader(source: .bytes(Array(Feed.collection(features).utf8)), name: "t.geojson")
        let records = try reader.readAll()
        #expect(records.map(\.code) == ["edgeHigh", "edgeLow", "noMag"])
        #expect(reader.skipped.map(\.reason) == [
            "magnitude 10.5 is outside -5…10", "magnitude -5.5 is outside -5…10", "magnitude 1e+308 is outside -5…10",
            "depth 801.0 km is outside -10…800 km", "depth -10.5 km is outside -10…800 km",
            "depth -1e+308 km is outside -10…800 km",
        ])
    }

    @Test func fdsnTextRefusesThemByLine() throws {
        let header = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\n"
        let rows = [
            "a1|2024-01-01T09:45:26.217|37.8|137.5|10|us|us|us|a1|mb|5.1|us|Japan",
            "a2|2024-01-01T09:45:26.217|37.8|137.5|900|us|us|us|a2|mb|5.1|us|Japan",
            "a3|2024-01-01T09:45:26.217|37.8|137.5|10|us|us|us|a3|mb|12|us|Japan",
        ]
        let reader = try FeedReader(source: .bytes(Array((header + rows.joined(separator: "\n") + "\n").utf8)), name: "t.txt")
        let records = try reader.readAll()
        #expect(records.count == 1)
        #expect(reader.skipped.map(\.reason) == ["depth 900.0 km is outside -10…800 km", "magnitude 12.0 is outside -5…10"])
    }
}
