import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 17: records a reader must refuse, and inputs that must end quickly.
@Suite struct HostileFeedTests {
    /// Finding 1: extreme but valid times are skipped with a reason, in JSON and CSV.
    @Test func timesOutsideTheSupportedYearsAreSkippedWithAReason() throws {
        let features = ["-1000000000000000", "20000000000000000", "-9223372036854775808", "253402300800000",
                        "1700000000000"].enumerated().map { index, time in
            Feed.feature(id: "\"t\(index)\"", properties: #""mag":4.5,"place":"x","time":\#(time)"#)
        } + [Feed.feature(id: "\"u\"", properties: #""mag":1,"place":"x","time":1700000000000,"updated":-9223372036854775807"#)]
        let reader = try FeedReader(source: .bytes(Array(Feed.collection(features).utf8)), name: "t.geojson")
        let records = try reader.readAll()
        #expect(records.map(\.code) == ["t4"])
        #expect(reader.skippedCount == 5)
        #expect(reader.skipped.first?.reason == "\"time\" -1000000000000000 is outside the supported years 0001…9999")
        #expect(reader.skipped.last?.reason == "\"updated\" -9223372036854775807 is outside the supported years 0001…9999")

        let csv = "time,latitude,longitude,depth,mag,magType,id,updated,place\n"
            + "0000-12-31T23:59:59.999Z,1,2,3,4,mb,old,,x\n0001-01-01T00:00:00.000Z,1,2,3,4,mb,first,,x\n"
        let csvReader = try FeedReader(source: .bytes(Array(csv.utf8)), name: "t.csv")
        let csvRecords = try csvReader.readAll()
        #expect(csvRecords.map(\.code) == ["first"] || csvReader.skippedCount == 2)
        #expect(!csvRecords.contains { $0.code == "old" })
    }

    /// The same years in QuakeML and FDSN text, and in a GeoJSON feed whose times are seconds
    /// (checked once they are milliseconds); a QuakeML creation time outside them is left out,
    /// not the event.
    @Test func everyFormatSkipsTimesOutsideTheSupportedYears() throws {
        let text = """
            #EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType
            old|0000-06-01T00:00:00|1|2|3|||GFZ|old|M|4||x|earthquake
            late|9999-12-31T23:59:60.999-23:59|1|2|3|||GFZ|late|M|4||x|earthquake
            ok|2024-01-01T10:00:00|1|2|3|||GFZ|ok|M|4||x|earthquake

            """
        let textReader = try FeedReader(source: .bytes(Array(text.utf8)), name: "t.txt")
        #expect(try textReader.readAll().map(\.code) == ["geofon:ok"])
        #expect(textReader.skipped.map(\.reason).allSatisfy { $0.hasPrefix("\"Time\" ") && $0.hasSuffix("outside the supported years 0001…9999") },
                "\(textReader.skipped)")

        func event(_ id: String, _ time: String, creation: String = "2024-01-01T10:00:00Z") -> String {
            """
                <event publicID="smi:local/\(id)"><creationInfo><creationTime>\(creation)</creationTime></creationInfo>
                  <origin publicID="smi:local/\(id)/o"><time><value>\(time)</value></time><latitude><value>1</value></latitude>
                    <longitude><value>2</value></longitude><depth><value>3000</value></depth></origin>
                  <magnitude publicID="smi:local/\(id)/m"><mag><value>4</value></mag><type>M</type></magnitude></event>
            """
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2">
              <eventParameters publicID="smi:local/catalog">
            \(event("old", "0000-06-01T00:00:00Z"))
            \(event("ok", "2024-01-01T10:00:00Z", creation: "0000-01-01T00:00:00Z"))
              </eventParameters>
            </q:quakeml>

            """
        let xmlReader = try FeedReader(source: .bytes(Array(xml.utf8)), name: "t.xml")
        let records = try xmlReader.readAll()
        #expect(records.count == 1 && records.first?.updated == records.first?.time, "\(records)")
        #expect(xmlReader.skipped.count == 1)
        #expect(xmlReader.skipped.first?.reason.hasPrefix("\"origin time\" -6215") == true, "\(xmlReader.skipped)")

        // A feed in seconds (its first times say so), one time a date as milliseconds but past
        // the year 9999 once multiplied.
        let seconds = ["1700000000", "1700000100", "253402300799999"].enumerated().map { index, time in
            Feed.feature(id: "\"s\(index)\"", properties: #""mag":4.5,"place":"x","time":\#(time)"#)
        }
        let secondsReader = try FeedReader(source: .bytes(Array(Feed.collection(seconds).utf8)), name: "s.geojson")
        #expect(try secondsReader.readAll().map(\.code) == ["s0", "s1"])
        #expect(secondsReader.skipped.count == 1)
        #expect(secondsReader.skipped.first?.reason.hasPrefix("\"time\" 2534023007999990") == true, "\(secondsReader.skipped)")
        #expect(secondsReader.skipped.first?.reason.hasSuffix(" is outside the supported years 0001…9999") == true)
    }
}

/// Finding 9: a gzip bomb stops at a size bounded by its compressed size, quickly, with a clear error.
@Suite struct GzipBombTests {
    /// A GeoJSON header then `megabytes` MB of spaces (valid JSON whitespace), `gzip -9`ed (about 1000:1).
    static func bomb(megabytes: Int, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path + "/bomb.geojson.gz"
        let script = #"( printf '{"type":"FeatureCollection","features":['; head -c \#(megabytes)000000 /dev/zero | tr '\0' ' '; printf ']}' ) | gzip -9 > "$1""#
        let (status, _, err) = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", path])
        guard status == 0 else { throw ChildProcess.ChildError("making the bomb failed: \(err)") }
        return path
    }

    @Test func aBombIsStoppedEarlyWithAClearError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.bomb(megabytes: 200, in: dir)
        let compressed = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let reader = try FeedReader(path: path)
        let start = Date()
        #expect {
            _ = try reader.readAll()
        } throws: { error in
            guard let error = error as? FeedError else { return false }
            return error.code == .decompressedTooLarge && "\(error)".contains("decompression bomb")
                && "\(error)".contains("QUAKETUI_MAX_INFLATION_RATIO")
        }
        // It stopped near allowance + 100 × compressed, far below the 200 MB inside.
        let limit = FeedReader.inflationAllowance + FeedReader.maximumInflationRatio * Int64(compressed)
        #expect(limit < 150_000_000, "the test bomb is too weak: limit \(limit)")
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test func aRealFeedGzippedIsFine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let features = (0..<2000).map { Feed.feature(id: "\"q\($0)\"") }
        let gz = try Feed.gzip(Array(Feed.collection(features).utf8), in: dir, name: "real.geojson")
        #expect(try Feed.read(gz).count == 2000)
    }
}
