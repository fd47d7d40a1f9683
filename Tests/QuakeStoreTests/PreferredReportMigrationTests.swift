import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Migration 18 (issue 53): a store of schema 17 kept a copy of each shared event's preferred
/// report in `report`; it opens with the copies gone, the same events and reports for every
/// reader, and the preferred report's revisions kept as its row changes.
@Suite struct PreferredReportMigrationTests {
    static func record(_ code: String, source: String, status: String, magnitude: Double, seconds: Int64) -> QuakeRecord {
        var r = QuakeRecord.fixture(code, magnitude: magnitude, time: 1_704_133_320_000 + seconds * 1000)
        r.source = source
        r.status = status
        return r
    }

    @Test func aSchema17StoreLosesItsCopiesAndKeepsItsEvents() throws {
        let dir = try TemporaryDirectory(prefix: "quaketui-migration18")
        defer { dir.remove() }
        let usgs = Self.record("us6000m0xl", source: "usgs", status: "reviewed", magnitude: 5.4, seconds: 0)
        let emsc = Self.record("emsc:20240101_0000102", source: "emsc", status: "reviewed", magnitude: 5.3, seconds: 3)
        let lone = Self.record("emsc:20240101_0000200", source: "emsc", status: "reviewed", magnitude: 4.0, seconds: 3600)
        // A store of schema 17, written as schema 17 did: the preferred report copied into `report`,
        // and revisions kept for rows of one agency only.
        do {
            let old = try PersistentContainer(directory: dir.url, migrations: Array(Schema.migrations.prefix(17)))
            defer { old.close() }
            let context = try old.newBackgroundContext(author: "test")
            defer { context.close() }
            try context.performAndWait { tx in for r in [usgs, emsc, lone] { try tx.upsert(r) } }
            // (Association runs at the commit: the rows' agencies are known after it.)
            try context.performAndWait { tx in
                try tx.connection.execute("""
                    INSERT INTO report (\(WriteTransaction.reportColumns), agency)
                        SELECT code, magnitude, magType, place, time, updated, latitude, longitude, depth, status, type,
                               tsunami, felt, alert, sig, net, url, title, source, id, coalesce(source, 'usgs')
                        FROM quake WHERE agencies > 1
                    """)
            }
            #expect(try old.viewContext.read { try $0.scalar("SELECT count(*) FROM report").int64 } == 2)
        }
        let before = try PersistentContainer(directory: dir.url, migrations: Array(Schema.migrations.prefix(17)))
        let reportsBefore = try before.viewContext.read { try $0.reports(ofEvent: "emsc:20240101_0000102").map(\.code) }
        #expect(reportsBefore == ["us6000m0xl", "emsc:20240101_0000102"])
        before.close()

        let store = try PersistentContainer(directory: dir.url)
        defer { store.close() }
        #expect(try store.viewContext.read { try $0.scalar("PRAGMA user_version").int64 } == Int64(Schema.version))
        #expect(try store.viewContext.read { try $0.scalar("SELECT group_concat(code) FROM report").string } == "emsc:20240101_0000102")
        #expect(try store.viewContext.read { try $0.reports(ofEvent: "emsc:20240101_0000102").map(\.code) } == reportsBefore)
        #expect(try store.viewContext.read { try $0.agencies(ofEvent: "us6000m0xl") } == 2)
        #expect(try store.viewContext.read { try $0.quakeCount() } == 2)

        // A revision of the preferred report is an update of its row, and is kept.
        var revised = usgs
        revised.magnitude = 5.6
        revised.magType = "Mww"
        revised.updated += 60_000
        let context = try store.newBackgroundContext(author: "test")
        defer { context.close() }
        try context.performAndWait { tx in _ = try tx.upsert(revised) }
        #expect(try store.viewContext.read { try $0.revisions(ofReports: ["us6000m0xl"]) }.map(\.magnitude) == [5.4, 5.6])
        #expect(try store.viewContext.read { try $0.quake(code: "emsc:20240101_0000102") }?.record.magnitude == 5.6)
        #expect(try store.viewContext.read { try $0.scalar("SELECT count(*) FROM report").int64 } == 1)
    }
}
