import Foundation
import QuakeFeed
import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// A feed format with no place for a field says nothing about it: USGS CSV has no `felt`,
/// `alert`, `sig`, `tsunami`, `url` or `title`, so the CSV of a snapshot imported after its
/// GeoJSON keeps them (`FeedReader.absentFields`, `WriteTransaction.keptFields`). Fixtures are
/// written from the USGS GeoJSON and CSV feed formats
/// (https://earthquake.usgs.gov/earthquakes/feed/v1.0/geojson.php, …/csv.php).
@Suite struct AbsentFieldsTests {
    static func importing(_ text: String, name: String, into store: TestStore) throws -> ImportSummary {
        try FeedImporter(container: store.container).run(try FeedReader(source: .bytes(Array(text.utf8)), name: name))
    }

    static func importing(_ url: URL, into store: TestStore) throws -> ImportSummary {
        try FeedImporter(container: store.container).run(try FeedReader(path: url.path))
    }

    /// Every stored quake, every feed column, in code order.
    static func rows(_ store: TestStore) throws -> [[SQLiteValue]] {
        try store.read { db in
            let columns = "code, magnitude, magType, place, time, updated, latitude, longitude, depth, status, type, tsunami, felt, alert, sig, net, url, title, source"
            let statement = try db.prepare("SELECT \(columns) FROM quake ORDER BY code")
            var rows: [[SQLiteValue]] = []
            while try statement.step() { rows.append((0..<19).map { statement.value(at: $0) }) }
            return rows
        }
    }

    /// `us70001234`, M5.0, felt by 138, a green PAGER alert, a tsunami flag, its page and title.
    static let geoJSON = """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"mag":5.0,"place":"10 km N of Ridgecrest, CA",\
        "time":1562400000000,"updated":1562500000000,"url":"https://earthquake.usgs.gov/earthquakes/eventpage/us70001234",\
        "felt":138,"alert":"green","status":"automatic","tsunami":1,"sig":600,"net":"us","code":"70001234",\
        "magType":"mww","type":"earthquake","title":"M 5.0 - 10 km N of Ridgecrest, CA"},\
        "geometry":{"type":"Point","coordinates":[-117.6,35.7,8.0]},"id":"us70001234"}]}
        """

    static func csv(updated: String, magnitude: String, status: String, header: String = full) -> String {
        let row = header == legacy
            ? "2019-07-06T08:00:00.000Z,35.7,-117.6,8.0,\(magnitude),mww,,,,,us,us70001234,\(updated),\"10 km N of Ridgecrest, CA\",earthquake\n"
            : "2019-07-06T08:00:00.000Z,35.7,-117.6,8.0,\(magnitude),mww,,,,,us,us70001234,\(updated),\"10 km N of Ridgecrest, CA\",earthquake,,,,,\(status),us,us\n"
        return header + row
    }

    static let full = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource\n"
    /// The 15 columns of the older CSV feed: no `status`.
    static let legacy = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n"

    @Test func theCSVOfTheSameVersionChangesNothingAndIsCountedUnchanged() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(Self.geoJSON, name: "feed.geojson", into: store)
        let before = try Self.rows(store)
        let summary = try Self.importing(Self.csv(updated: "2019-07-07T11:46:40.000Z", magnitude: "5.0", status: "automatic"),
                                         name: "feed.csv", into: store)
        #expect(summary.unchanged == 1 && summary.updated == 0 && summary.inserted == 0)
        #expect(try Self.rows(store) == before)
    }

    @Test func aNewerCSVChangesWhatItCarriesAndKeepsTheRest() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(Self.geoJSON, name: "feed.geojson", into: store)
        let summary = try Self.importing(Self.csv(updated: "2019-07-08T00:00:00.000Z", magnitude: "5.2", status: "reviewed"),
                                         name: "feed.csv", into: store)
        #expect(summary.updated == 1)
        let quake = try #require(try store.read { try $0.quake(code: "us70001234") }).record
        #expect(quake.magnitude == 5.2 && quake.status == "reviewed" && quake.updated == 1_562_544_000_000)
        #expect(quake.felt == 138 && quake.alert == "green" && quake.sig == 600 && quake.tsunami == 1)
        #expect(quake.url == "https://earthquake.usgs.gov/earthquakes/eventpage/us70001234")
        #expect(quake.title == "M 5.0 - 10 km N of Ridgecrest, CA")
    }

    /// The legacy header has no `status` column: the stored status stays.
    @Test func aColumnTheHeaderLacksKeepsItsStoredValue() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(Self.geoJSON, name: "feed.geojson", into: store)
        let reader = try FeedReader(source: .bytes(Array(Self.csv(updated: "2019-07-08T00:00:00.000Z", magnitude: "5.2",
                                                                   status: "", header: Self.legacy).utf8)), name: "legacy.csv")
        #expect(reader.absentFields == QuakeRecord.Fields.summaryOnly.union(.status))
        _ = try FeedImporter(container: store.container).run(reader)
        let quake = try #require(try store.read { try $0.quake(code: "us70001234") }).record
        #expect(quake.magnitude == 5.2 && quake.status == "automatic" && quake.felt == 138)
    }

    /// A report of an event another agency's report is shown for lives in `report`: the CSV
    /// keeps its fields there too.
    @Test func aReportOfAnotherAgencysEventKeepsItsFields() throws {
        let store = try TestStore()
        defer { store.remove() }
        store.container.agencyPreference = AgencyPreference(["emsc", "usgs"])
        _ = try Self.importing(Self.geoJSON, name: "feed.geojson", into: store)
        let emsc = AssociationTests.header
            + "20190706_0000001|2019-07-06T08:00:01.00|35.71|-117.61|9.0|EMSC||||mw|5.1|EMSC|SOUTHERN CALIFORNIA|earthquake\n"
        _ = try Self.importing(emsc, name: "emsc.txt", into: store)
        #expect(try store.read { try $0.quake(code: "us70001234")?.record.code } == "emsc:20190706_0000001")
        _ = try Self.importing(Self.csv(updated: "2019-07-08T00:00:00.000Z", magnitude: "5.2", status: "reviewed"),
                               name: "feed.csv", into: store)
        let report = try #require(try store.read { try $0.reports(ofEvent: "emsc:20190706_0000001") }.first { $0.code == "us70001234" })
        #expect(report.magnitude == 5.2 && report.status == "reviewed")
        #expect(report.felt == 138 && report.alert == "green" && report.sig == 600 && report.tsunami == 1 && report.title != nil)
    }

    /// The real snapshot in both formats (`2.5_month-2019-07-19`), in either order, stores what
    /// its GeoJSON alone does; the CSV after it changes nothing.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func theRealSnapshotInBothFormatsStoresWhatItsGeoJSONDoes() throws {
        let geoJSON = SharedData.url("2.5_month-2019-07-19.geojson"), csv = SharedData.url("2.5_month-2019-07-19.csv")
        let alone = try TestStore()
        defer { alone.remove() }
        let quakes = try Self.importing(geoJSON, into: alone).inserted
        let expected = try Self.rows(alone)
        #expect(expected.contains { $0[12] != .null })  // some were felt
        for order in [[geoJSON, csv], [csv, geoJSON]] {
            let store = try TestStore()
            defer { store.remove() }
            let first = try Self.importing(order[0], into: store)
            let second = try Self.importing(order[1], into: store)
            #expect(first.inserted == quakes && second.inserted == 0)
            if order[1] == csv { #expect(second.unchanged == quakes && second.updated == 0) }
            #expect(try Self.rows(store) == expected, "\(order.map(\.lastPathComponent))")
        }
    }
}
