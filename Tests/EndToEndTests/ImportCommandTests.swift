import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `quaketui import` on real USGS snapshots and on broken input.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct ImportCommandTests {
    static func counts(_ result: QuaketuiBinary.Result) throws -> [String: Int] {
        try result.json().compactMapValues { $0 as? Int }
    }

    static func storeRows(_ dir: URL, columns: String = "code, magnitude, magType, place, time, updated, latitude, longitude, depth, status, type, net") throws -> [[SQLiteValue]] {
        let container = try PersistentContainer(directory: dir)
        defer { container.close() }
        return try container.viewContext.read { db in
            let statement = try db.prepare("SELECT \(columns) FROM quake ORDER BY code")
            var rows: [[SQLiteValue]] = []
            while try statement.step() { rows.append((0..<statement.columnCount).map { statement.value(at: $0) }) }
            return rows
        }
    }

    @Test func reimportingTheSameFeedChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = SharedData.url("all_week-2018-06-14.geojson").path
        let first = try QuaketuiBinary.run(["import", feed, "--json"], stateDirectory: dir.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Self.counts(first)["inserted"] == 4711)
        let again = try QuaketuiBinary.run(["import", feed, "--json"], stateDirectory: dir.url)
        #expect(try Self.counts(again) == ["inserted": 0, "updated": 0, "unchanged": 4711, "skipped": 0])
    }

    @Test func anOlderSnapshotNeverRegressesANewerOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let newer = try QuaketuiBinary.run(["import", SharedData.url("4.5_month-2014-04-01.geojson").path, "--json"], stateDirectory: dir.url)
        #expect(newer.status == 0, "\(newer.stderr)")
        let before = try Self.storeRows(dir.url)
        let older = try QuaketuiBinary.run(["import", SharedData.url("4.5_month-2014-03-21.geojson").path, "--json"], stateDirectory: dir.url)
        #expect(older.status == 0, "\(older.stderr)")
        #expect(try Self.counts(older)["updated"] == 0)
        // Every quake the newer snapshot had is exactly as it was; only quakes it lacked were added.
        let after = Dictionary(uniqueKeysWithValues: try Self.storeRows(dir.url).map { ($0[0], $0) })
        for row in before { #expect(after[row[0]] == row) }
        #expect(after.count == before.count + (try Self.counts(older)["inserted"] ?? -1))
    }

    @Test(arguments: [
        ("truncated.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"mag":1.2,"place":"5 km N of A"#,
         "1:103: unexpected end of input inside a string; the file looks truncated — download it again."),
        ("bad-token.geojson", "{\"type\":\"FeatureCollection\",\n\"features\":[ nope ]}", "2:14: invalid literal: expected 'null'."),
        ("unterminated.geojson", "{\"type\":\"FeatureCollection\",\"features\":[{\"id\":\"x",
         "1:49: unexpected end of input inside a string; the file looks truncated — download it again."),
        ("wrong-type.geojson", #"{"type":"FeatureCollection","features":"not an array"}"#, #"1:40: "features" is not an array (found '"')."#),
        ("empty.geojson", "",
         "1:1: the input is empty; expected an earthquake catalogue (GeoJSON, CSV, FDSN text or QuakeML) — download it again."),
        ("garbage.bin", "\u{7F}ELF\u{2}\u{1}\u{1}\u{0}\u{0}\u{0}\u{3}\u{0}>\u{0}",
         "1:1: the input starts with byte 0x7F, which is not how GeoJSON, CSV, FDSN text or QuakeML starts; expected a USGS GeoJSON "
            + "or GeoJSONP feed, a USGS CSV file, EMSC or GeoNet GeoJSON, FDSN text, QuakeML 1.2, SeisComP SC3ML, or one of those "
            + "gzip-compressed."),
    ])
    func brokenInputFailsWithAPositionAndLeavesTheStoreAlone(name: String, contents: String, said: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let good = try QuaketuiBinary.run(["import", SharedData.url("all_hour-2017-12-03.geojson").path], stateDirectory: dir.url)
        #expect(good.status == 0)
        let rowsBefore = try Self.storeRows(dir.url)
        let file = dir.appending(name)
        try Data(contents.utf8).write(to: file)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: dir.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: \(file.path):\(said)"], "\(result.stderr)")
        #expect(try Self.storeRows(dir.url) == rowsBefore)
        let container = try PersistentContainer(directory: dir.url)
        defer { container.close() }
        #expect(try container.viewContext.read { try $0.scalar("PRAGMA integrity_check").string } == "ok")
    }

    @Test func theTruncatedMonthFeedFailsAtItsEnd() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = SharedData.url("1.0_month_TRUNCATED-2019-02-16.geojson").path
        let result = try QuaketuiBinary.run(["import", feed], stateDirectory: dir.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: \(feed):4597:250: unexpected end of input inside a string; the file looks truncated — download it again."], "\(result.stderr)")
        #expect(try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()["quakes"] as? Int == 0)
    }

    @Test func aMissingFileIsNamed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(["import", "/no/such/feed.geojson"], stateDirectory: dir.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: /no/such/feed.geojson: cannot open the file: No such file or directory; check the path."],
                "\(result.stderr)")
        let usage = try QuaketuiBinary.run(["import"], stateDirectory: dir.url)
        #expect(usage.status == 64)
    }

    @Test func geoJSONGeoJSONPCSVAndGzipOfOneFeedGiveIdenticalStores() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let source = SharedData.url("2.5_month-2025-10-29.geojson")
        let data = try Data(contentsOf: source)
        let jsonp = dir.appending("feed.geojsonp")
        try (Data("eqfeed_callback(".utf8) + data + Data(");".utf8)).write(to: jsonp)
        let csv = dir.appending("feed.csv")
        try FeedConversion.csv(fromGeoJSON: data).write(to: csv, atomically: true, encoding: .utf8)
        let gz = dir.appending("feed.csv.gz")
        try FeedConversion.gzip(csv, to: gz)
        var stores: [[[SQLiteValue]]] = []
        for (index, file) in [source, jsonp, csv, gz].enumerated() {
            let state = dir.appending("state-\(index)")
            let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: state)
            #expect(result.status == 0, "\(file.lastPathComponent): \(result.stderr)")
            stores.append(try Self.storeRows(state))
        }
        #expect(stores[0].count == 1349)
        for (index, store) in stores.enumerated().dropFirst() { #expect(store == stores[0], "store \(index) differs") }
    }

    @Test func aKillDuringALargeImportLeavesTheStoreAsItWas() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let good = try QuaketuiBinary.run(["import", SharedData.url("all_hour-2017-12-03.geojson").path], stateDirectory: dir.url)
        #expect(good.status == 0)
        let before = try Self.storeRows(dir.url)
        let big = dir.appending("big.geojson")
        try FeedConversion.replicate(SharedData.url("all_week-2018-06-14.geojson"), count: 60_000, to: big)
        let child = try ChildProcess(QuaketuiBinary.url, ["import", big.path],
                                     environment: ["QUAKETUI_STATE_DIR": dir.path])
        // Wait until the import is writing (its WAL grows), then kill it mid-transaction.
        let wal = dir.appending("quakes.sqlite-wal").path
        _ = eventually(timeout: 60) {
            let size = ((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? NSNumber)?.intValue ?? 0
            return size > 2_000_000 || !child.isRunning
        }
        #expect(child.isRunning, "the import finished before it could be killed")
        child.kill(SIGKILL)
        child.wait()
        #expect(try Self.storeRows(dir.url) == before)
        let container = try PersistentContainer(directory: dir.url)
        defer { container.close() }
        #expect(try container.viewContext.read { try $0.scalar("PRAGMA integrity_check").string } == "ok")
    }
}
