import Foundation
import QuakeTestSupport
@testable import QuakeModel
@testable import QuakeStore
import Testing

/// USGS writes some regions abbreviated ("10 km N of Foo, CA", "Mexicali, B.C., MX") and others in
/// full ("…, California"): one region is one section (issue 31), derived in one place
/// (`QuakeRecord.region`) and respelled in stores made before (schema migration 7).
@Suite struct RegionSpellingTests {
    @Test(arguments: [
        // Place strings as they are in /work/shared/data/usgs.
        ("6km NW of The Geysers, CA", "California"),
        ("10km NE of Mexicali, B.C., MX", "Mexico"),
        ("20km SW of Primm, NV", "Nevada"),
        ("38km S of Qualeys Camp, NV", "Nevada"),
        ("Off the coast of Oregon", "Oregon"),
        ("2 km SE of Pāhala, Hawaii", "Hawaii"),
        ("South Sandwich Islands region", "South Sandwich Islands"),
        // Only the abbreviation as USGS writes it: upper case, alone after the last comma.
        ("5 km N of X, Ca", "Ca"),
        ("CA", "California"),
        ("5 km N of X, CAN", "CAN"),
    ])
    func anAbbreviatedRegionIsSpelledOut(place: String, region: String) {
        #expect(QuakeRecord.region(ofPlace: place) == region)
    }

    /// A real day with both spellings of California: one region, counted once.
    @Test func aRealFeedsTwoSpellingsOfCaliforniaAreOneRegion() throws {
        let records = try IndependentParse.distinctRecords(SharedData.url("all_day-2016-11-03.geojson"))
        let abbreviated = records.filter { $0.place.hasSuffix(", CA") }.count
        let spelled = records.filter { $0.place.hasSuffix(", California") }.count
        try #require(abbreviated > 0 && spelled > 0)
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(records)
        let regions = try store.read { try Self.rows($0, "SELECT region, count(*) FROM quake GROUP BY regionKey ORDER BY regionKey") }
        #expect(regions.filter { $0.hasPrefix("California") } == ["California|\(abbreviated + spelled)"])
        #expect(!regions.contains { QuakeRecord.spelledOutRegions[String($0.prefix { $0 != "|" })] != nil }, "\(regions)")
        #expect(try store.read { try $0.scalar("SELECT count FROM quake_count WHERE kind = 2 AND bucket = 'california'").int64 }
                == Int64(abbreviated + spelled))
    }

    /// A store written before: its abbreviated regions are respelled when it opens, counts moved.
    @Test func migrationSevenRespellsTheStoredRegions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let older = try PersistentContainer(directory: directory.url, migrations: Array(Schema.migrations.prefix(6)))
        let writer = try older.newBackgroundContext(author: "test")
        try writer.performAndWait { tx in
            _ = try tx.upsert(.fixture("a", place: "6km NW of The Geysers, CA"))
            _ = try tx.upsert(.fixture("b", place: "10 km S of Ridgecrest, California"))
            _ = try tx.upsert(.fixture("c", place: "10km NE of Mexicali, B.C., MX"))
            _ = try tx.upsert(.fixture("d", place: "Fiji region"))
            // As the code before migration 7 stored them.
            try tx.connection.execute("UPDATE quake SET region = 'CA', regionKey = 'ca' WHERE code = 'a'")
            try tx.connection.execute("UPDATE quake SET region = 'MX', regionKey = 'mx' WHERE code = 'c'")
        }
        writer.close()
        older.close()

        let container = try PersistentContainer(directory: directory.url)
        defer { container.close() }
        let rows = try container.viewContext.read { try Self.rows($0, "SELECT code, region, regionKey FROM quake ORDER BY code") }
        // Migration 13 then puts "Fiji region" under Fiji (PlaceNamesTests).
        #expect(rows == ["a|California|california", "b|California|california", "c|Mexico|mexico", "d|Fiji|fiji"])
        let counts = try container.viewContext.read { try Self.rows($0, "SELECT bucket, count FROM quake_count WHERE kind = 2 ORDER BY bucket") }
        #expect(counts == ["california|2", "fiji|1", "mexico|1"])
    }

    /// Every row of `sql`, its columns joined by `|`.
    static func rows(_ db: Connection, _ sql: String) throws -> [String] {
        let statement = try db.prepare(sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.text(at: $0) }.joined(separator: "|"))
        }
        return rows
    }
}
