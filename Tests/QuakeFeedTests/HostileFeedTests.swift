import Foundation
import QuakeFeed
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
