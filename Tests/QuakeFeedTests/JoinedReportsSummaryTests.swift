import Foundation
@testable import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// An import's summary counts quakes, not reports: a report that joins a quake another agency
/// reported is said apart (it read `imported 3 quakes (3 new, …)` while the store held one
/// more quake, and the browser said `1 new`).
@Suite struct JoinedReportsSummaryTests {
    /// FDSN text of `rows` (id, seconds after 2024-01-01 00:00 UTC, latitude, longitude) by `agency`.
    static func text(_ agency: String, _ rows: [(String, Int, Double, Double)]) -> String {
        let start = Date(timeIntervalSince1970: 1_704_067_200)
        let format = ISO8601DateFormatter()
        return "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\n"
            + rows.map { id, seconds, latitude, longitude in
                "\(id)|\(format.string(from: start.addingTimeInterval(Double(seconds))))|\(latitude)|\(longitude)|10|\(agency)|\(agency)|\(agency)|\(id)|ML|4.1|\(agency)|TEST REGION"
            }.joined(separator: "\n") + "\n"
    }

    static func importing(_ text: String, into store: TestStore) throws -> ImportSummary {
        try FeedImporter(container: store.container).run(try FeedReader(source: .bytes(Array(text.utf8)), name: "f.txt"))
    }

    @Test func reportsJoiningAnotherAgencysQuakesAreNotNewQuakes() throws {
        let store = try TestStore()
        defer { store.remove() }
        let usgs = try Self.importing(Self.text("us", [("us1", 0, 35, 140), ("us2", 3_600, 36, 141), ("us3", 7_200, 37, 142)]), into: store)
        #expect(usgs.inserted == 3 && usgs.joined == 0 && usgs.newQuakes == 3)
        #expect(try store.read { try $0.quakeCount() } == 3)

        // Two of EMSC's three are USGS's quakes (3 s and 5 s after, within a few km); one is new.
        let emsc = try Self.importing(Self.text("EMSC", [("e1", 3, 35.02, 140.01), ("e2", 3_605, 36.01, 141), ("e3", 18_000, -20, -70)]), into: store)
        #expect(try store.read { try $0.quakeCount() } == 4)
        #expect(emsc.inserted == 3 && emsc.joined == 2 && emsc.newQuakes == 1, "\(emsc)")
        #expect(emsc.sentence.hasPrefix("imported 3 quakes (1 new, 0 updated, 0 unchanged, 0 skipped; 2 joined quakes another agency reported)"),
                "\(emsc.sentence)")
        let json = String(decoding: try JSONEncoder().encode(emsc), as: UTF8.self)
        #expect(json.contains("\"inserted\":3") && json.contains("\"joined\":2"), "\(json)")

        // Both agencies' reports of one new quake in one transaction: one new quake, one joined.
        var usgs4 = QuakeRecord.fixture("us4", time: 1_704_067_200_000 + 36_000_000)
        usgs4.source = "us"
        var emsc4 = usgs4
        (emsc4.code, emsc4.source, emsc4.time) = ("emsc:e4", "emsc", usgs4.time + 2_000)
        let context = try store.container.newBackgroundContext(author: "test")
        defer { context.close() }
        var transaction: WriteTransaction?
        try context.performAndWait { tx in
            transaction = tx
            for record in [emsc4, usgs4] { try tx.upsert(record) }
        }
        #expect(try store.read { try $0.quakeCount() } == 5)
        #expect(transaction?.counts.inserted == 2 && transaction?.joinedCount == 1)

        // The same files again: nothing new, nothing joined.
        let again = try Self.importing(Self.text("EMSC", [("e1", 3, 35.02, 140.01), ("e2", 3_605, 36.01, 141), ("e3", 18_000, -20, -70)]), into: store)
        #expect(again.inserted == 0 && again.joined == 0 && again.unchanged == 3, "\(again)")
        #expect(!again.sentence.contains("joined"))
    }
}
