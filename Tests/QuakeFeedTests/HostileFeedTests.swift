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
