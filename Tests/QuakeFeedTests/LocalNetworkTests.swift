import Foundation
import QuakeFeed
import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 53, point 2: the local network for its own region, where the report says so, before
/// the global catalogues (`agencyPreference`'s `local-network`, first by default).
@Suite struct LocalNetworkTests {
    static func report(_ code: String, agency: String, latitude: Double, longitude: Double, net: String? = nil,
                       status: String? = nil, magType: String = "ML") -> QuakeRecord {
        QuakeRecord(code: code, magnitude: 4.0, magType: magType, place: "", time: 1_700_000_000_000, updated: 0,
                    latitude: latitude, longitude: longitude, status: status, net: net, source: agency)
    }

    @Test(arguments: [
        ("ingv", 42.79, 13.15, nil as String?, true),     // Norcia: Italy
        ("ingv", -33.0, -71.6, nil, false),               // Valparaíso: INGV is not Chile's network
        ("geonet", -42.5, 173.2, nil, true),              // Kaikōura
        ("geonet", -29.9, -177.8, nil, true),             // Kermadec Islands, east of 180°
        ("geonet", 35.7, 139.7, nil, false),              // Tokyo
        ("usgs", 35.8, -117.6, "ci", true),               // ComCat's solution from the Southern California network
        ("usgs", 35.8, -117.6, "us", false),              // the NEIC's global solution
        ("usgs", 61.3, -150.1, "AK", true),               // ComCat's networks in either case
        ("emsc", 42.79, 13.15, nil, false),               // EMSC collects; it is nobody's local network
    ])
    func aReportIsLocalInItsAgencysOwnRegion(agency: String, latitude: Double, longitude: Double, net: String?, local: Bool) {
        let report = Self.report("\(agency):1", agency: agency, latitude: latitude, longitude: longitude, net: net)
        #expect(LocalNetwork.isLocal(report) == local)
    }

    @Test func theLocalNetworkIsPreferredInItsRegionOnly() {
        let p = AgencyPreference.standard
        #expect(p.agencies.first == LocalNetwork.word)
        let usgsItaly = Self.report("us1", agency: "usgs", latitude: 42.79, longitude: 13.15, net: "us", magType: "mww")
        let ingvItaly = Self.report("ingv:1", agency: "ingv", latitude: 42.80, longitude: 13.16)
        #expect(p.precedes(ingvItaly, usgsItaly))  // before ComCat, even before its moment magnitude
        let usgsChile = Self.report("us2", agency: "usgs", latitude: -33.0, longitude: -71.6, net: "us")
        let ingvChile = Self.report("ingv:2", agency: "ingv", latitude: -33.0, longitude: -71.6)
        #expect(p.precedes(usgsChile, ingvChile))  // abroad INGV keeps its own place, after usgs
        // Reviewed before automatic still comes first.
        var reviewed = usgsItaly
        reviewed.status = "reviewed"
        #expect(p.precedes(reviewed, ingvItaly))
        // Without the word, the rule is off: the agencies' order alone.
        let noLocal = AgencyPreference(parsing: "usgs,ingv")!
        #expect(noLocal.precedes(usgsItaly, ingvItaly))
        // The word after an agency ranks the local reports of agencies below it only.
        let late = AgencyPreference(parsing: "usgs,local-network,emsc")!
        #expect(late.rank(of: ingvItaly) == 1 && late.rank(of: usgsItaly) == 0 && late.rank(of: ingvChile) == 3)
        #expect(AgencyPreference(parsing: p.text) == p)
    }

    static let header = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"

    /// The Norcia earthquake of 30 October 2016 as ComCat and INGV list it (FDSN text).
    static let usgs = header + """
        us1000731j|2016-10-30T06:40:18.000|42.8621|13.0961|10.0|us|us|us|us1000731j|mww|6.6|us|6 km N of Norcia, Italy|earthquake

        """
    static let ingv = header + """
        8863681|2016-10-30T06:40:17.360|42.8322|13.1107|9.2|SURVEY-INGV||||Mw|6.5|--|3 km N Norcia (PG)|earthquake

        """

    @Test(arguments: [false, true])
    func aStoreShowsINGVsSolutionOfAnItalianEarthquake(ingvFirst: Bool) throws {
        let usgs = try FeedReader(source: .bytes(Array(Self.usgs.utf8)), name: "usgs.txt").readAll()
        let ingv = try FeedReader(source: .bytes(Array(Self.ingv.utf8)), name: "ingv.txt").readAll()
        #expect(ingv.map(\.source) == ["ingv"])
        let store = try TestStore()
        defer { store.remove() }
        for records in ingvFirst ? [ingv, usgs] : [usgs, ingv] { try store.upsert(records) }
        let event = try #require(try store.read { try $0.quake(code: "us1000731j") })
        #expect(event.record.code == "ingv:8863681" && event.record.magnitude == 6.5)
        #expect(try store.read { try $0.reports(ofEvent: "ingv:8863681").map(\.code) } == ["ingv:8863681", "us1000731j"])
        // The same store with the rule off shows ComCat's.
        store.container.agencyPreference = AgencyPreference(parsing: "usgs,emsc,isc,geofon,ingv")!
        try store.upsert([])
        #expect(try store.read { try $0.quake(code: "ingv:8863681")?.record.code } == "us1000731j")
    }

    /// A store of schema 15 whose events chose their preferred report under the default before
    /// `local-network` (which wrote no preference in `meta`) shows the local network's after
    /// migration 16; one written under a setting of the user's keeps that setting's choice.
    @Test(arguments: [nil, "usgs,ingv"] as [String?])
    func aStoreWrittenUnderTheOldDefaultIsReassociatedByItsMigration(setting: String?) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.writeSchema15Store(in: dir.url, setting: setting)
        let store = try PersistentContainer(directory: dir.url)
        defer { store.close() }
        let (version, codes, reports, preference) = try Self.shown(store)
        #expect(version == Int64(Schema.version))   // migrated through 16, and on
        if setting == nil {
            #expect(codes == ["ingv:8863681"] && reports == ["ingv:8863681", "us1000731j"])
            #expect(preference == AgencyPreference.standard.text)
        } else {
            #expect(codes == ["us1000731j"] && reports == ["us1000731j", "ingv:8863681"])
            #expect(preference == setting)
        }
    }

    /// Migration 16 is one transaction with the upgrade: when its association fails (a trigger
    /// refuses the event row's rewrite), the store stays at schema 15 as it was, and the next open
    /// migrates it.
    @Test func aMigrationThatFailsLeavesTheStoreAsItWas() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.writeSchema15Store(in: dir.url, setting: nil)
        let path = dir.url.appendingPathComponent(PersistentContainer.fileName).path
        var db = try Connection(path: path)
        try db.execute("CREATE TRIGGER refuse BEFORE UPDATE ON quake BEGIN SELECT RAISE(ABORT, 'refused'); END")
        db.close()
        #expect(throws: (any Error).self) { _ = try PersistentContainer(directory: dir.url) }
        db = try Connection(path: path)
        #expect(try db.scalar("PRAGMA user_version").int64 == Int64(Schema.localNetworkDefault - 1))
        #expect(try db.scalar("SELECT code FROM quake").string == "us1000731j")
        #expect(try db.scalar("SELECT count(*) FROM meta WHERE key = 'agencyPreference'").int64 == 0)
        try db.execute("DROP TRIGGER refuse")
        db.close()
        let store = try PersistentContainer(directory: dir.url)
        defer { store.close() }
        #expect(try Self.shown(store).codes == ["ingv:8863681"])
    }

    /// A schema-15 store of the Norcia earthquake from ComCat and INGV, written under `setting`,
    /// or (nil) by the code of the default before `local-network`, which recorded no preference.
    static func writeSchema15Store(in dir: URL, setting: String?) throws {
        let records = try [Self.usgs, Self.ingv].flatMap { try FeedReader(source: .bytes(Array($0.utf8)), name: "x.txt").readAll() }
        let older = try PersistentContainer(directory: dir, migrations: Array(Schema.migrations.prefix(Schema.localNetworkDefault - 1)))
        older.agencyPreference = try #require(AgencyPreference(parsing: setting ?? Schema.defaultBeforeLocalNetwork))
        let context = try older.newBackgroundContext(author: "test")
        try context.performAndWait { tx in for record in records { try tx.upsert(record) } }
        context.close()
        older.close()
        // The code of the old default wrote no preference: the default was the stored one.
        let db = try Connection(path: dir.appendingPathComponent(PersistentContainer.fileName).path)
        if setting == nil { try db.execute("DELETE FROM meta WHERE key = 'agencyPreference'") }
        #expect(try db.scalar("SELECT code FROM quake").string == "us1000731j")
        db.close()
    }

    /// The schema version, the event rows' codes, the first event's reports and the recorded preference.
    static func shown(_ store: PersistentContainer) throws -> (version: Int64?, codes: [String], reports: [String], preference: String?) {
        try store.viewContext.read { db in
            let statement = try db.prepare("SELECT code FROM quake")
            var codes: [String] = []
            while try statement.step() { codes.append(statement.text(at: 0)) }
            return (try db.scalar("PRAGMA user_version").int64, codes, try db.reports(ofEvent: codes.first ?? "").map(\.code),
                    try db.scalar("SELECT value FROM meta WHERE key = 'agencyPreference'").string)
        }
    }
}
