import Foundation
import Testing
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// How features map to records: which are skipped (with index and reason), which fields become nil.
@Suite struct MappingTests {
    static let defaults = Feed.defaultProperties

    @Test func unusableFeaturesAreSkippedWithIndexAndReason() throws {
        let features = [
            Feed.feature(id: "\"ok1\""),                                                  // 0
            Feed.feature(id: "null"),                                                     // 1
            Feed.feature(id: "42"),                                                       // 2
            Feed.feature(id: "\"c1\"", coordinates: "\"-120.5,35.2\""),                   // 3
            Feed.feature(id: "\"t1\"", properties: #""mag":1.0,"place":"x""#),            // 4
            Feed.feature(id: "\"t2\"", properties: #""time":"2019-07-19","place":"x""#),  // 5
            Feed.feature(id: "\"lat\"", coordinates: "[10,95.5,1]"),                      // 6
            Feed.feature(id: "\"lon\"", coordinates: "[-200,45,1]"),                      // 7
            Feed.feature(id: "\"huge\"", properties: #""mag":1e400,"time":1"#),           // 8
            #"{"type":"Feature","properties":{"time":1},"geometry":null,"id":"nogeo"}"#,  // 9
            "42",                                                                         // 10
            Feed.feature(id: "\"short\"", coordinates: "[1]"),                            // 11
            Feed.feature(id: "\"\""),                                                     // 12
            Feed.feature(id: "\"ok2\""),                                                  // 13
        ]
        let reader = try FeedReader(source: .bytes(Array(Feed.collection(features).utf8)), name: "t.geojson")
        let records = try reader.readAll()
        #expect(records.map(\.code) == ["ok1", "ok2"])
        #expect(reader.skippedCount == 12)
        #expect(reader.skipped.count == FeedReader.skippedListLimit)
        let expected: [(Int, String)] = [
            (1, "\"id\" is null"), (2, "\"id\" is not a string"), (3, "\"coordinates\" is not an array"),
            (4, "no \"time\""), (5, "\"time\" \"2019-07-19\" is not an ISO-8601 date"), (6, "latitude 95.5 is outside -90…90"),
            (7, "longitude -200.0 is outside -180…180"), (8, "magnitude inf is not a finite number"),
            (9, "no coordinates"), (10, "the feature is not a JSON object"),
        ]
        #expect(reader.skipped.map(\.index) == expected.map(\.0))
        #expect(reader.skipped.map(\.reason) == expected.map(\.1))
        #expect(reader.skipped.allSatisfy { $0.line == 1 })
    }

    /// A number written as a string is that number (the legacy feed's `"sig":"449"`); any other
    /// wrong type, or text that is not one whole number, is nil.
    @Test func optionalFieldsOfTheWrongTypeBecomeNil() throws {
        let properties = #""mag":"4.5","place":null,"time":1700000000000,"sig":"449","felt":2.0,"#
            + #""tsunami":0.5,"alert":7,"status":["reviewed"],"net":"us","url":{"a":1},"title":"M 4.5","#
            + #""magType":"mww","type":"earthquake""#
        let record = try #require(try Feed.read(Feed.collection([Feed.feature(properties: properties,
                                                                              coordinates: "[1,2]")])).first)
        #expect(record.magnitude == 4.5)
        #expect(record.place == "")
        #expect(record.sig == 449)
        for (text, magnitude) in [(#""strong""#, nil), (#""4.5 ml""#, nil), (#""""#, nil), (#"" -1.25 ""#, -1.25), (#""1e400""#, nil),
                                  (#"true"#, nil), (#"[4.5]"#, nil)] as [(String, Double?)] {
            let odd = try Feed.read(Feed.collection([Feed.feature(properties: #""mag":\#(text),"time":1700000000000"#,
                                                                  coordinates: "[1,2]")]))
            #expect(odd.count == (text == #""1e400""# ? 0 : 1), "\(text)")  // 1e400 as a number is out of range: skipped
            #expect(odd.first?.magnitude == magnitude, "\(text)")
        }
        #expect(record.felt == 2)
        #expect(record.tsunami == nil)
        #expect(record.alert == nil && record.status == nil && record.url == nil)
        #expect(record.net == "us" && record.title == "M 4.5" && record.magType == "mww" && record.type == "earthquake")
        // No `updated`: it equals `time`. No depth: nil.
        #expect(record.updated == record.time)
        #expect(record.depth == nil)
    }

    @Test func everyFieldIsMapped() throws {
        let properties = #""mag":6.3,"place":"40 km NNW of Herāt, Afghanistan","time":1696742710000,"#
            + #""updated":1697053294041,"tz":null,"url":"https://earthquake.usgs.gov/earthquakes/eventpage/us6000lf6j","#
            + #""felt":3,"cdi":7.1,"mmi":8.2,"alert":"red","status":"reviewed","tsunami":0,"sig":2010,"net":"us","#
            + #""code":"6000lf6j","ids":",us6000lf6j,","types":",dyfi,losspager,","nst":null,"dmin":1.2,"rms":0.9,"#
            + #""gap":25,"magType":"mww","type":"earthquake","title":"M 6.3 - 40 km NNW of Herāt, Afghanistan""#
        let text = Feed.collection([Feed.feature(id: "\"us6000lf6j\"", properties: properties,
                                                 coordinates: "[61.9, 34.6, 14, 99]")])
        let record = try #require(try Feed.read(text).first)
        #expect(record == QuakeRecord(
            code: "us6000lf6j", magnitude: 6.3, magType: "mww", place: "40 km NNW of Herāt, Afghanistan",
            time: 1_696_742_710_000, updated: 1_697_053_294_041, latitude: 34.6, longitude: 61.9, depth: 14,
            status: "reviewed", type: "earthquake", tsunami: 0, felt: 3, alert: "red", sig: 2010, net: "us",
            url: "https://earthquake.usgs.gov/earthquakes/eventpage/us6000lf6j",
            title: "M 6.3 - 40 km NNW of Herāt, Afghanistan", source: "usgs"))
    }

    @Test func membersMayComeInAnyOrderAndUnknownValuesAreSkipped() throws {
        let text = #"""
        {"features":[{"id":"a1","geometry":{"coordinates":[1.5,2.5,3.5],"type":"Point","extra":[[{"}":"]"}]]},
          "extra":{"nested":[1,2,{"x":[true,false,null,"\"]}"]}]},
          "properties":{"weird":{"time":5},"time":1700000000000,"place":"P","mag":null}}],
         "metadata":{"features":"not these","count":1},"type":"FeatureCollection","bbox":[1,2,3]}
        """#
        let records = try Feed.read(text)
        #expect(records.count == 1)
        #expect(records.first?.time == 1_700_000_000_000)
        #expect(records.first?.depth == 3.5)
        #expect(records.first?.magnitude == nil)
    }

    @Test func duplicateCodesAreAllYielded() throws {
        let text = Feed.collection([Feed.feature(id: "\"dup\""), Feed.feature(id: "\"dup\"")])
        #expect(try Feed.read(text).map(\.code) == ["dup", "dup"])
    }

    @Test func controlAndEscapeSequencesInPlacesComeThroughAsData() throws {
        let json = Feed.collection([Feed.feature(properties:
            #""place":"\u001b[31mRed\u001b[0m \u001b]0;pwned\u0007 \u009b2J \u0000end","time":1"#)])
        let place = try #require(try Feed.read(json).first).place
        #expect(place == "\u{1B}[31mRed\u{1B}[0m \u{1B}]0;pwned\u{07} \u{9B}2J \u{0}end")
        // CSV has no escapes: raw control bytes inside a cell are data too.
        let csv = "time,latitude,longitude,id,place\n2019-07-19T02:52:13.590Z,1,2,x,\"\u{1B}[2J\u{1B}]8;;http://evil\u{07}, CA\"\n"
        let row = try #require(try Feed.read(csv, name: "t.csv").first)
        #expect(row.place == "\u{1B}[2J\u{1B}]8;;http://evil\u{07}, CA")
    }

    @Test func aHugeStringIsScannedNotStored() throws {
        let big = String(repeating: "x", count: 10 * 1024 * 1024)
        // In a member nobody reads: streamed past, the feature is fine.
        let skipped = Feed.collection([Feed.feature(properties: Self.defaults + ",\"junk\":\"\(big)\"")])
        #expect(try Feed.read(skipped, chunkSize: 64 * 1024).count == 1)
        // In `place`: longer than the limit, so the feature is skipped with a reason.
        let kept = Feed.collection([Feed.feature(properties: "\"place\":\"\(big)\",\"time\":1"), Feed.feature(id: "\"b\"")])
        let reader = try FeedReader(source: .bytes(Array(kept.utf8)), name: "big.geojson", chunkSize: 64 * 1024)
        #expect(try reader.readAll().map(\.code) == ["b"])
        #expect(reader.skipped.first?.reason == "\"place\" is longer than 65536 bytes")
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try Feed.read(bom + Array(Feed.collection([Feed.feature()]).utf8)).count == 1)
        let csv = "time,latitude,longitude,id\n2019-07-19T02:52:13.590Z,1,2,x\n"
        let reader = try FeedReader(source: .bytes(bom + Array(csv.utf8)), name: "t.csv")
        #expect(reader.format == .csv)
        #expect(try reader.readAll().first?.time == 1_563_504_733_590)
    }

    @Test func csvRowsAreSkippedByLineWithQuotedNewlinesCounted() throws {
        let csv = [
            "time,latitude,longitude,depth,mag,id,place,updated",                         // line 1
            #"2019-07-19T02:52:13.590Z,1,2,3,4.5,a,"two"#,                                 // line 2
            #"lines, ""quoted""",2019-07-19T03:00:00.000Z"#,                               // line 3
            "2019-07-19T02:52:13.590Z,north,2,3,4.5,b,p,",                                 // line 4
            "2019-07-19T02:52:13.590Z,1,2,,,c,,",                                          // line 5
            "",                                                                            // line 6
            "yesterday,1,2,3,4.5,d,p,",                                                    // line 7
            "2019-07-19T02:52:13.590Z,1,2,3,4.5,,p,",                                      // line 8
        ].joined(separator: "\n")
        let reader = try FeedReader(source: .bytes(Array(csv.utf8)), name: "t.csv")
        let records = try reader.readAll()
        #expect(records.map(\.code) == ["a", "c"])
        #expect(records[0].place == "two\nlines, \"quoted\"")
        #expect(records[0].updated == 1_563_505_200_000)
        #expect(records[1].magnitude == nil && records[1].depth == nil && records[1].place == "")
        #expect(records[1].updated == records[1].time)
        #expect(reader.skipped.map(\.index) == [4, 7, 8])
        #expect(reader.skipped.map(\.reason) == [
            "latitude \"north\" is not a number", "time \"yesterday\" is not an ISO-8601 date", "no \"id\"",
        ])
    }
}
