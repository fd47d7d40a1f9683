import Foundation
import Testing
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// Every real USGS file in ../shared/data/usgs, compared with an independent parse.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs beside the checkout"))
struct RealFeedTests {
    static let completeFiles = SharedData.feedFiles().filter { !$0.lastPathComponent.contains("_TRUNCATED") }

    @Test(arguments: completeFiles)
    func readerMatchesIndependentParse(_ url: URL) throws {
        let expected = try IndependentParse.expected(for: url)
        let reader = try FeedReader(path: url.path)
        let records = try reader.readAll()
        #expect(!expected.isEmpty)
        #expect(records.count == expected.count, "\(url.lastPathComponent): \(reader.skipped)")
        #expect(reader.skippedCount == 0, "\(reader.skipped)")
        #expect(records.map(\.code) == expected.map(\.code))
        var mismatches = 0
        for (record, want) in zip(records, expected) where !CoreFields(record).matches(want) {
            mismatches += 1
            if mismatches <= 3 { Issue.record("\(url.lastPathComponent): got \(CoreFields(record)), want \(want)") }
        }
        #expect(mismatches == 0)
        #expect(reader.bytesRead == reader.totalBytes)
    }

    @Test func formatIsSniffedFromTheBytes() throws {
        #expect(try FeedReader(path: SharedData.url("all_day-2016-11-04.geojsonp").path).format == .geoJSONP)
        #expect(try FeedReader(path: SharedData.url("all_month-2015-08-18.csv").path).format == .csv)
        #expect(try FeedReader(path: SharedData.url("all_hour-2017-12-03.geojson").path).format == .geoJSON)
    }

    @Test func truncatedMonthFeedFailsAtTheEndOfTheFile() throws {
        let url = SharedData.url("1.0_month_TRUNCATED-2019-02-16.geojson")
        let bytes = try Feed.bytes(of: url)
        let reader = try FeedReader(path: url.path)
        var count = 0
        let error = #expect(throws: FeedError.self) {
            while try reader.next() != nil { count += 1 }
        }
        let end = Feed.endPosition(of: bytes)
        #expect(error?.code == .unexpectedEnd)
        #expect(error?.line == end.line)
        #expect(error?.column == end.column)
        #expect(error?.offset == Int64(bytes.count))
        #expect(count > 4500)
        #expect(error?.description == "\(url.path):\(end.line):\(end.column): unexpected end of input inside a string; the file looks truncated — download it again.")
        // Later calls report the same error rather than pretending the input ended.
        #expect(throws: FeedError.self) { _ = try reader.next() }
    }

    /// A CSV download cut inside a row (as a stopped download leaves it) fails at its end, and
    /// every later call says so again; one whose last row lacks only its newline reads whole.
    @Test func aCSVCutInsideARowFailsAtTheEndOfTheFile() throws {
        let url = SharedData.url("all_month-2025-06-05.csv")
        let whole = try Data(contentsOf: url)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lines = whole.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // Cut at several places inside rows: in the first field, in `id`, in `place`, just after a comma.
        let tenthComma = lines[1_000].indices.filter { lines[1_000][$0] == UInt8(ascii: ",") }[9] - lines[1_000].startIndex
        for (row, keep) in [(152, 3), (152, 40), (400, 150), (1_000, tenthComma + 1)] {
            let bytes = Data(lines[0 ..< row].joined(separator: [UInt8(ascii: "\n")])) + Data([UInt8(ascii: "\n")]) + Data(lines[row].prefix(keep))
            let file = dir.appending("cut-\(row)-\(keep).csv")
            try bytes.write(to: file)
            let reader = try FeedReader(path: file.path)
            var count = 0
            let error = #expect(throws: FeedError.self) { while try reader.next() != nil { count += 1 } }
            #expect(error?.code == .unexpectedEnd, "\(String(describing: error))")
            #expect(error?.line == row + 1 && error?.offset == Int64(bytes.count), "\(String(describing: error))")
            #expect(error?.description.hasSuffix("the file looks truncated — download it again.") == true)
            #expect(count == row - 1, "the whole rows before the cut")
            #expect(throws: FeedError.self) { _ = try reader.next() }
        }
        // Whole rows without the final newline: read whole.
        let last = dir.appending("no-final-newline.csv")
        try Data(lines[0 ..< 200].joined(separator: [UInt8(ascii: "\n")])).write(to: last)
        #expect(try FeedReader(path: last.path).readAll().count == 199)
    }

    @Test func escapedPlacesDecodeToTheSameTextAsRawUTF8() throws {
        let records = try FeedReader(path: SharedData.url("all_week-2020-06-10.geojson").path).readAll()
        let nonASCII = records.filter { $0.place.unicodeScalars.contains { $0.value > 0x7F } }
        #expect(!nonASCII.isEmpty)
        // The raw-UTF-8 spelling of the same text, re-encoded, parses to the same place.
        let raw = Feed.collection([Feed.feature(properties: #""place":"\#(nonASCII[0].place)","time":1"#)])
        #expect(try Feed.read(raw).first?.place == nonASCII[0].place)
        let escaped = Feed.collection([Feed.feature(properties: #""place":"105 km WNW of H\u00f6fn, Iceland","time":1"#)])
        #expect(try Feed.read(escaped).first?.place == "105 km WNW of Höfn, Iceland")
    }

    @Test func nonASCIIPlacesSurvive() throws {
        let places = try FeedReader(path: SharedData.url("2.5_month-2025-10-29.geojson").path).readAll().map(\.place)
        #expect(places.contains { $0.contains("Sındırgı") })
        #expect(places.contains { $0.contains("Höfn") })
        #expect(places.contains { $0.contains("Severo-Kuril’sk") })
    }

    @Test func emptyCSVMagnitudeIsNil() throws {
        let records = try FeedReader(path: SharedData.url("all_month-2022-03-08.csv").path).readAll()
        let quake = try #require(records.first { $0.code == "pr71336423" })
        #expect(quake.magnitude == nil)
        #expect(quake.magType == nil)
        #expect(records.filter { $0.magnitude == nil }.count == 1)
    }

    @Test func nullPlaceBecomesEmpty() throws {
        let records = try FeedReader(path: SharedData.url("fdsn_query-shakemap-south_america-2011-2021.geojson").path).readAll()
        #expect(records.filter { $0.place.isEmpty }.count == 5)
        let csv = try FeedReader(path: SharedData.url("fdsn_query-shakemap-south_america-2011-2021.csv").path).readAll()
        #expect(csv.filter { $0.place.isEmpty }.count == 5)
    }

    @Test func legacyFeedKeepsWhatItCan() throws {
        let reader = try FeedReader(path: SharedData.url("legacy2012_geojsonp-2012-09-20.geojsonp").path)
        let records = try reader.readAll()
        #expect(records.count == 288)
        // `sig` is a string there, holding the number: read as the number.
        #expect(records.first?.sig == 449)
        #expect(records.allSatisfy { $0.sig != nil })
        #expect(records.first?.status == "REVIEWED")
        #expect(records.first?.felt == 2)
        // No `updated`: it equals `time`.
        #expect(records.allSatisfy { $0.updated == $0.time })
    }

    @Test func csvTwinMatchesGeoJSON() throws {
        let json = try FeedReader(path: SharedData.url("2.5_month-2019-07-19.geojson").path).readAll()
        let csv = try FeedReader(path: SharedData.url("2.5_month-2019-07-19.csv").path).readAll()
        #expect(json.count == csv.count)
        let byCode = Dictionary(uniqueKeysWithValues: json.map { ($0.code, $0) })
        for row in csv {
            let twin = try #require(byCode[row.code])
            #expect(row.time == twin.time && row.latitude == twin.latitude && row.longitude == twin.longitude)
            #expect(row.magnitude == twin.magnitude && row.place == twin.place && row.type == twin.type)
        }
    }

    @Test func optionalFieldsAreMapped() throws {
        let records = try FeedReader(path: SharedData.url("significant_month-2023-10-11.geojson").path).readAll()
        #expect(records.contains { $0.alert == "red" })
        let first = try #require(records.first)
        #expect(first.url?.hasPrefix("https://earthquake.usgs.gov/earthquakes/eventpage/") == true)
        #expect(first.title?.hasPrefix("M ") == true)
        #expect(first.net != nil && first.sig != nil && first.tsunami != nil && first.status != nil)
        #expect(first.type == "earthquake")
        #expect(first.magType != nil)
    }
}
