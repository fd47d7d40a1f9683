import Foundation
import Testing
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// FDSN text, QuakeML, EMSC JSON, UTF-16 and seconds-times feeds, each against an independent parse.
@Suite struct CatalogueFormatTests {
    private func check(_ bytes: [UInt8], format: FeedReader.Format, count: Int, chunkSizes: [Int] = [7, 64, FeedReader.defaultChunkSize])
        throws -> [QuakeRecord] {
        let expected = try IndependentParse.expectedAnyFormat(Data(bytes))
        #expect(expected.count == count)
        var last: [QuakeRecord] = []
        for chunkSize in chunkSizes {
            let reader = try FeedReader(source: .bytes(bytes), name: "fixture", chunkSize: chunkSize)
            #expect(reader.format == format)
            let records = try reader.readAll()
            #expect(records.count == expected.count, "chunk \(chunkSize): \(reader.skipped)")
            for (record, want) in zip(records, expected) {
                #expect(CoreFields(record).matches(want), "chunk \(chunkSize): got \(CoreFields(record)), want \(want)")
            }
            last = records
        }
        return last
    }

    @Test func fdsnTextWith14ColumnsSpacesAndCRLF() throws {
        let records = try check(Array(CatalogueFixtures.fdsnText14.utf8), format: .fdsnText, count: 2)
        #expect(records.map(\.code) == ["emsc:20240101_0000123", "emsc:20240101_0000124"])
        #expect(records.allSatisfy { $0.source == "emsc" && $0.type == "earthquake" })
        #expect(records[0].place == "ROMANIA")
    }

    @Test func fdsnTextWith12ColumnsSkipsABadRowByLine() throws {
        let reader = try FeedReader(source: .bytes(Array(CatalogueFixtures.fdsnText12.utf8)), name: "ingv.txt")
        let records = try reader.readAll()
        #expect(records.map(\.code) == ["ingv:37893831"])
        #expect(records[0].time == 1_709_287_933_450 && records[0].magnitude == 2.1 && records[0].magType == "ML")
        #expect(reader.skipped.map(\.description) == [#"line 3: Latitude "not a number" is not a number"#])
        _ = try check(Array(CatalogueFixtures.fdsnText12.utf8), format: .fdsnText, count: 1)
    }

    /// A magnitude or depth that is there but no number the store takes skips its record with
    /// the reason, as GeoJSON's do (`1e400` was read as none, silently); an empty cell, or `NaN`
    /// (how some writers say "unknown"), is none.
    @Test func fdsnTextSkipsAMagnitudeOrDepthThatIsNoUsableNumber() throws {
        let header = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\n"
        func row(_ id: String, depth: String, magnitude: String) -> String {
            "\(id)|2024-01-01T00:00:00|35|140|\(depth)|EMSC|EMSC|EMSC|\(id)|ml|\(magnitude)|EMSC|JAPAN\n"
        }
        let text = header + row("a1", depth: "10", magnitude: "1e400") + row("a2", depth: "10", magnitude: "nan")
            + row("a3", depth: "NaN", magnitude: "4") + row("a4", depth: "10", magnitude: "big") + row("a5", depth: "", magnitude: "")
            + row("a6", depth: "12", magnitude: "4.5")
        let reader = try FeedReader(source: .bytes(Array(text.utf8)), name: "bad.txt")
        let records = try reader.readAll()
        #expect(records.map(\.code) == ["emsc:a2", "emsc:a3", "emsc:a5", "emsc:a6"])
        #expect(records[0].magnitude == nil && records[1].depth == nil && records[1].magnitude == 4)
        #expect(records[2].magnitude == nil && records[2].depth == nil)
        #expect(reader.skipped.map(\.description) == ["line 2: magnitude inf is not a finite number", #"line 5: Magnitude "big" is not a number"#])
    }

    @Test func fdsnTextWithoutHeaderUsesTheStandardOrder() throws {
        let text = "us6000m0yg|2024-01-01T09:45:26.217|37.8107|137.5664|10|us|us|us|us6000m0yg|mb|5.1|us|73 km WSW of Sado, Japan\n"
        let records = try FeedReader(source: .bytes(Array(text.utf8)), name: "t").readAll()
        #expect(records.map(\.code) == ["us6000m0yg"])
        #expect(records[0].magnitude == 5.1 && records[0].place == "73 km WSW of Sado, Japan")
    }

    @Test func fdsnTextHeaderWithoutTimeIsAnError() {
        let error = Feed.error("#EventID|Latitude|Longitude\nx|1|2\n", name: "bad.txt")
        #expect(error?.code == .missingColumns)
        #expect(error?.description.hasPrefix("bad.txt:1:1: the FDSN text header has no Time column") == true)
    }

    @Test func quakeMLHonoursPreferredIDsNamespacesAndTimesWithoutZ() throws {
        let reader = try FeedReader(source: .bytes(Array(CatalogueFixtures.quakeML.utf8)), name: "q.xml")
        let records = try reader.readAll()
        #expect(reader.format == .quakeML)
        let quake = try #require(records.first)
        #expect(records.count == 1)
        #expect(quake.code == "emsc:20240101_0000123")
        #expect(quake.source == "emsc")
        #expect(quake.magnitude == 3.1 && quake.magType == "ml")
        #expect(quake.latitude == 45.7 && quake.longitude == 26.6 && quake.depth == 130)
        #expect(quake.time == 1_704_067_831_500)
        #expect(quake.updated == 1_704_068_712_000)
        #expect(quake.place == "ROMANIA & BULGARIA")
        #expect(reader.skipped.map(\.reason) == ["the event has no origin"])
        _ = try check(Array(CatalogueFixtures.quakeML.utf8), format: .quakeML, count: 1)
    }

    @Test func truncatedQuakeMLFailsAtTheEnd() {
        let text = String(CatalogueFixtures.quakeML.prefix(700))
        let error = Feed.error(text, name: "cut.xml")
        #expect(error?.code == .unexpectedEnd)
        #expect(error?.description.contains("the file looks truncated") == true)
    }

    @Test func htmlIsNotQuakeML() {
        let error = Feed.error("<!DOCTYPE html>\n<html><body>Service unavailable</body></html>", name: "page.xml")
        #expect(error?.code == .unknownFormat)
        // A captive portal's login page says what it is, and that the import changed nothing.
        #expect(error?.description.hasPrefix("page.xml:2:1: this is an HTML page (a Wi-Fi login page or a server's error page?), "
                                             + "not a catalogue; nothing was changed; expected a USGS GeoJSON") == true, "\(String(describing: error))")
        let other = Feed.error("<?xml version=\"1.0\"?>\n<rss><channel/></rss>", name: "feed.xml")
        #expect(other?.description.hasPrefix("feed.xml:2:1: the XML document's root element is neither <quakeml> nor SeisComP's "
                                             + "<seiscomp>, so it is not QuakeML or SC3ML; nothing was changed; expected") == true,
                "\(String(describing: other))")
    }

    @Test func mismatchedEndTagIsASyntaxError() {
        let error = Feed.error("<q:quakeml><eventParameters><event></origin></eventParameters></q:quakeml>", name: "x.xml")
        #expect(error?.code == .syntax)
    }

    @Test func emscJSONReadsISOTimesRegionsAndDepth() throws {
        let records = try check(Array(CatalogueFixtures.emscJSON.utf8), format: .geoJSON, count: 2)
        #expect(records.map(\.code) == ["emsc:20240101_0000123", "emsc:20240101_0000124"])
        #expect(records[0].place == "ROMANIA" && records[0].depth == 130 && records[0].magType == "ml")
        #expect(records[0].updated == 1_704_068_712_123)
        #expect(records.allSatisfy { $0.source == "emsc" })
    }

    @Test(arguments: [false, true])
    func utf16WithBOMAndCRLF(bigEndian: Bool) throws {
        for (text, format, count) in [(CatalogueFixtures.emscJSON, FeedReader.Format.geoJSON, 2),
                                      (CatalogueFixtures.fdsnText14, .fdsnText, 2),
                                      (CatalogueFixtures.quakeML, .quakeML, 1)] {
            let bytes = CatalogueFixtures.utf16(text, bigEndian: bigEndian)
            _ = try check(bytes, format: format, count: count)
            let reader = try FeedReader(source: .bytes(bytes), name: "u16")
            _ = try reader.readAll()
            #expect(reader.notes.first == "the file is UTF-16 text")
        }
    }

    @Test func utf16SyntaxErrorsKeepTheirLine() {
        let bytes = CatalogueFixtures.utf16("{\"type\":\"FeatureCollection\",\n\"features\":[\n{]}", bigEndian: false)
        let error = Feed.error(bytes, name: "u16.json")
        #expect(error?.line == 3)
    }

    @Test func secondsAreDecidedFromTheMetadata() throws {
        let reader = try FeedReader(source: .bytes(Array(CatalogueFixtures.secondsWithMetadata.utf8)), name: "s")
        let records = try reader.readAll()
        #expect(records.first?.time == 1_700_000_000_000)
        #expect(records.first?.updated == 1_700_000_100_500)
        #expect(reader.notes == ["times are in seconds (decided from metadata.generated); converted to milliseconds"])
        _ = try check(Array(CatalogueFixtures.secondsWithMetadata.utf8), format: .geoJSON, count: 1)
    }

    @Test func secondsAreDecidedFromTheFirstRecords() throws {
        let reader = try FeedReader(source: .bytes(Array(CatalogueFixtures.secondsWithoutMetadata.utf8)), name: "s")
        let records = try reader.readAll()
        #expect(records.map(\.time) == [1_348_176_066_000, 1_348_175_020_000])
        #expect(reader.notes == ["times are in seconds (decided from its 2 features); converted to milliseconds"])
        _ = try check(Array(CatalogueFixtures.secondsWithoutMetadata.utf8), format: .geoJSON, count: 2)
    }

    @Test func millisecondsStayMilliseconds() throws {
        let reader = try FeedReader(source: .bytes(Array(Feed.collection([Feed.feature()]).utf8)), name: "ms")
        #expect(try reader.readAll().first?.time == 1_700_000_000_000)
        #expect(reader.notes.isEmpty)
    }

    /// A seconds feed is decided once: a later record with a millisecond-sized time is not
    /// re-guessed (it is out of range as seconds and skipped, never silently mixed).
    @Test func theDecisionIsForTheWholeFeed() throws {
        var features = (0..<20).map { Feed.feature(id: "\"us\($0)\"", properties: #""time":\#(1_348_176_066 + $0)"#) }
        features.append(Feed.feature(id: "\"late\"", properties: #""time":1e20"#))
        let reader = try FeedReader(source: .bytes(Array(Feed.collection(features).utf8)), name: "s")
        let records = try reader.readAll()
        #expect(records.count == 20)
        #expect(records.allSatisfy { $0.time >= 1_348_176_066_000 })
        #expect(reader.skippedCount == 1)
    }
}

/// The real QuakeML and FDSN text samples in ../shared/data/other.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data beside the checkout"))
struct RealCatalogueTests {
    @Test(arguments: SharedData.otherFiles())
    func readerMatchesIndependentParse(_ url: URL) throws {
        let expected = try IndependentParse.expected(for: url)
        let reader = try FeedReader(path: url.path)
        let records = try reader.readAll()
        let counts = ["quakeml-usgs_product_origin-usc000nwtr-2014-03-30.xml": 1, "quakeml-iris_fdsn-2015-11-18.xml": 3,
                      "fdsn_text-usgs-honshu-2024-01-01.txt": 5]
        #expect(expected.count == counts[url.lastPathComponent])
        #expect(records.count == expected.count)
        #expect(reader.skippedCount == 0)
        for (record, want) in zip(records, expected) {
            #expect(CoreFields(record).matches(want), "got \(CoreFields(record)), want \(want)")
        }
        #expect(records.map(\.time).min() == expected.map(\.time).min())
        #expect(records.map(\.time).max() == expected.map(\.time).max())
    }

    @Test func usgsProductKeepsTheUSGSCode() throws {
        let url = SharedData.otherDirectory.appendingPathComponent("quakeml-usgs_product_origin-usc000nwtr-2014-03-30.xml")
        let quake = try #require(try FeedReader(path: url.path).readAll().first)
        #expect(quake.code == "usc000nwtr" && quake.source == "usgs")
        #expect(quake.magnitude == 4.8 && quake.magType == "mb" && quake.depth == 5)
    }

    @Test func irisEventsAreNamespaced() throws {
        let url = SharedData.otherDirectory.appendingPathComponent("quakeml-iris_fdsn-2015-11-18.xml")
        let records = try FeedReader(path: url.path).readAll()
        #expect(records.first?.code == "iris:958596")
        #expect(records.first?.place == "WESTERN HONSHU, JAPAN")
        #expect(records.first?.time == 978_829_471_500)
    }

    @Test func legacySecondsFeedIsRecognised() throws {
        let reader = try FeedReader(path: SharedData.url("legacy2012_geojsonp-2012-09-20.geojsonp").path)
        let records = try reader.readAll()
        #expect(records.first?.time == 1_348_176_066_000)
        #expect(reader.notes.first?.hasPrefix("times are in seconds") == true)
    }
}
