import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 29, point 2: two writers (import, refresh, fetch, delete, config) run at once, in either order, and both succeed. A bulk import
/// changes the schema (it swaps triggers and drops and recreates indexes); a delete waiting for
/// the write lock meanwhile failed with "no such table: quake", every time.
///
/// Notes are saved only by the browser (no command line path): their transaction is covered by
/// `ConcurrentSchemaChangeTests` in the store's tests.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct ConcurrentWritersTests {
    enum Writer: String, CaseIterable, Sendable {
        case importFile, refresh, fetch, delete, config

        func arguments(importFile: URL) -> [String] {
            switch self {
            case .importFile: ["import", importFile.path]
            case .refresh: ["refresh", "all_week"]
            case .fetch: ["fetch", "--start", IndependentParse.commandTime(milliseconds: ConcurrentWritersTests.fetched.start),
                          "--end", IndependentParse.commandTime(milliseconds: ConcurrentWritersTests.fetched.end)]
            case .delete: ["delete", "--before", "2015-01-01"]
            case .config: ["config", "alertMagnitude", "6.5"]
            }
        }
    }

    static let seedQuakes = 409        // 4.5_month-2014-03-21: all before 2015, all deleted
    static let generatedQuakes = 5_000  // 2017: a bulk import (DDL) into the seeded store
    static let refreshedQuakes = 4_119  // all_week-2020-06-10
    /// Served by a local FDSN event service: 2023–2024, none before 2015.
    static let fetched = GeneratedCatalogue(count: 3_000, seed: 29)

    /// A GeoJSON feed of `count` quakes in 2017, written to `url`.
    static func writeFeed(count: Int, to url: URL) throws {
        var text = #"{"type":"FeatureCollection","features":["#
        for i in 0..<count {
            let time = 1_500_000_000_000 + Int64(i) * 60_000
            if i > 0 { text += "," }
            text += #"{"type":"Feature","id":"gen\#(i)","properties":{"mag":\#(1 + i % 7),"place":"\#(i % 50) km N of Town \#(i % 300), Alaska","time":\#(time),"updated":\#(time)},"geometry":{"type":"Point","coordinates":[\#(-150 + Double(i % 100) * 0.01),\#(60 + Double(i % 50) * 0.01),10]}}"#
        }
        text += "]}"
        try Data(text.utf8).write(to: url)
    }

    /// Whether some connection holds the store's write lock (a probe that cannot take it at once).
    static func writeLockIsHeld(_ store: URL) -> Bool {
        guard let probe = try? Connection(path: store.appendingPathComponent("quakes.sqlite").path, create: false) else { return false }
        defer { probe.close() }
        probe.setBusyTimeout(milliseconds: 0)
        do {
            try probe.execute("BEGIN IMMEDIATE")
            try probe.execute("ROLLBACK")
            return false
        } catch {
            return true
        }
    }

    static let pairs: [(Writer, Writer)] = Writer.allCases.flatMap { first in
        Writer.allCases.filter { $0 != first }.map { (first, $0) }
    }

    @Test(.timeLimit(.minutes(5)), arguments: pairs)
    func twoWritersStartedTogetherBothSucceed(first: Writer, second: Writer) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("state"), mirror = dir.appending("mirror"), feed = dir.appending("gen.geojson")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: SharedData.url("all_week-2020-06-10.geojson"), to: mirror.appendingPathComponent("all_week.geojson"))
        try Self.writeFeed(count: Self.generatedQuakes, to: feed)
        let catalogue = dir.appending("catalogue.txt")
        try Self.fetched.write(to: catalogue)
        let server = try LocalHTTPServer(fdsnCatalogue: catalogue, limit: 20_000, in: dir.url)
        defer { server.stop() }
        let seed = try QuaketuiBinary.run(["import", SharedData.url("4.5_month-2014-03-21.geojson").path], stateDirectory: state)
        #expect(seed.status == 0, "\(seed.stderr)")

        let environment = ["QUAKETUI_STATE_DIR": state.path, "QUAKETUI_FEED_BASE_URL": mirror.absoluteString,
                           "QUAKETUI_FDSN_BASE_URL": server.fdsnBaseURL]
        let one = try ChildProcess(QuaketuiBinary.url, first.arguments(importFile: feed), environment: environment)
        // The second starts while the first holds the write lock (or once it is done, for one
        // too quick to catch), so it waits for the first's commit.
        _ = eventually(timeout: 20) { Self.writeLockIsHeld(state) || !one.isRunning }
        let two = try ChildProcess(QuaketuiBinary.url, second.arguments(importFile: feed), environment: environment)
        let status = (one.wait(), two.wait())
        #expect(status.0 == 0, "\(first): \(one.stderr)")
        #expect(status.1 == 0, "\(second): \(two.stderr)")

        let writers = Set([first, second])
        var expected = Self.seedQuakes
        if writers.contains(.delete) { expected -= Self.seedQuakes }
        if writers.contains(.importFile) { expected += Self.generatedQuakes }
        if writers.contains(.refresh) { expected += Self.refreshedQuakes }
        if writers.contains(.fetch) { expected += Self.fetched.events.count }
        let container = try PersistentContainer(directory: state)
        defer { container.close() }
        #expect(try container.viewContext.read { try $0.quakeCount() } == expected)
        #expect(try container.viewContext.read { try $0.scalar("PRAGMA integrity_check").string } == "ok")
        if writers.contains(.config) {
            let config = try QuaketuiBinary.run(["config", "alertMagnitude"], stateDirectory: state)
            #expect(config.stdout == "M 6.5\n", "\(config.stdout)")
        }
    }
}
