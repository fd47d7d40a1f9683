import Foundation
import QuakeTestSupport
import Testing

/// The automatic refresh (issue 13) with `watch --refresh` as the headless monitor: one process
/// polls for all, conditional requests, 304s that change nothing, failures that back off.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct AutoRefreshTests {
    static let interval = 2.0

    /// The statuses of the server's feed requests, in order.
    static func requests(_ log: URL) -> [String] { LocalHTTPServer.statuses(in: log) }

    static func copyFeed(_ feed: URL, at path: URL, modified: Date) throws {
        let data = try Data(contentsOf: feed)
        try data.write(to: path, options: .atomic)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path.path)
    }


    @Test func oneProcessPollsForAllAndA304ChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let mirror = dir.appending("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        let feed = mirror.appendingPathComponent("all_day.geojson")
        let week = SharedData.url("all_week-2018-06-14.geojson")
        try Self.copyFeed(week, at: feed, modified: Date(timeIntervalSinceNow: -3600))
        let log = dir.appending("server.log")
        let server = try LocalHTTPServer(serving: mirror, log: log.path)
        defer { server.stop() }
        let state = dir.appending("state")
        let environment = ["QUAKETUI_FEED_BASE_URL": server.baseURL, "QUAKETUI_AUTO_REFRESH_INTERVAL": String(Self.interval),
                           "QUAKETUI_STATE_DIR": state.path]
        // Three headless monitors on one store: only one of them may poll.
        var watchers: [ChildProcess] = []
        defer { for watcher in watchers { watcher.kill(); watcher.wait() } }
        for _ in 0..<3 {
            let watcher = try ChildProcess(QuaketuiBinary.url, ["watch", "--refresh", "--json"], environment: environment)
            watchers.append(watcher)
        }
        let expected = Set(try IndependentParse.expected(for: week).map(\.code)).count
        #expect(eventually(timeout: 30) { watchers.allSatisfy { $0.stdout.split(separator: "\n").count == expected } },
                "every watcher prints every quake of the first download once: \(watchers.map { $0.stdout.count })")
        // The import that printed them is recorded with its validator. (A try that failed before
        // it, say a read that timed out on a loaded machine, is retried with a plain GET: that
        // is right, so the 304s are asserted from the first success on, and a failure says why.)
        let statusFile = state.appendingPathComponent("refresh.plist")
        func recorded() -> [String: Any] { (try? propertyList(at: statusFile)) ?? [:] }
        #expect(eventually(timeout: 20) { recorded()["lastModified"] != nil }, "\(recorded())")
        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: state).json()
        let token = try #require(info["historyToken"] as? Int)
        // Later polls find the feed unchanged: 304s, no history written.
        let succeeded = Self.requests(log).count
        #expect(eventually(timeout: 20) { Self.requests(log).count >= succeeded + 2 })
        let statuses = Self.requests(log)
        #expect(statuses.first == "200" && statuses.dropFirst(succeeded).allSatisfy { $0 == "304" },
                "\(statuses), the first \(succeeded) before the success was recorded; refresh.plist: \(recorded())")
        let failures = watchers.map(\.stderr).joined().split(separator: "\n").filter { $0.hasPrefix("Refresh of all_day failed") }
        #expect(statuses.prefix(succeeded).filter { $0 == "200" }.count <= 1 + failures.count,
                "a download again before the first success, with no failure said: \(statuses)")
        // Kept in the test log, to tell a loaded machine from a bug if this ever fails again.
        if !failures.isEmpty { print("AutoRefreshTests: retried after \(failures)") }
        let after = try QuaketuiBinary.run(["info", "--json"], stateDirectory: state).json()
        #expect(after["historyToken"] as? Int == token, "a 304 writes no history")
        // One poll per interval from all three processes together, not three.
        let start = Self.requests(log).count
        let window = Date()
        #expect(eventually(timeout: 5 * Self.interval + 5) { Self.requests(log).count >= start + 3 })
        let polls = Self.requests(log).count - start
        let elapsed = Date().timeIntervalSince(window)
        #expect(Double(polls) <= elapsed / Self.interval + 1.5, "\(polls) polls in \(elapsed) s")
        // A new version reaches every watcher within the interval plus a second.
        // A small new version (a day of M4.5+ from 2017, none of them in the week): what is timed
        // is the poll and the fan-out, not printing a month through three pipes on a loaded machine.
        let next = SharedData.url("4.5_day-2017-11-29.geojson")
        try Self.copyFeed(next, at: feed, modified: Date())
        let published = Date()
        let more = Set(try IndependentParse.expected(for: next).map(\.code)).count
        #expect(eventually(timeout: Self.interval + 20) {
            watchers.allSatisfy { $0.stdout.split(separator: "\n").count == expected + more }
        })
        let delay = Date().timeIntervalSince(published)
        #expect(delay <= Self.interval + 1 + 10, "the new version arrived after \(delay) s (import time included)")
        let status = try propertyList(at: state.appendingPathComponent("refresh.plist"))
        #expect(Set(status.keys).isSuperset(of: ["lastSuccess", "nextDue", "lastModified"]), "\(status)")
    }

    @Test func serverFailuresBackOffAndLeaveTheStoreAlone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let mirror = dir.appending("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        let log = dir.appending("server.log")
        // No all_day.geojson at all: every poll is a 404.
        let server = try LocalHTTPServer(serving: mirror, log: log.path)
        defer { server.stop() }
        let state = dir.appending("state")
        let watcher = try ChildProcess(QuaketuiBinary.url, ["watch", "--refresh"], environment: [
            "QUAKETUI_FEED_BASE_URL": server.baseURL, "QUAKETUI_AUTO_REFRESH_INTERVAL": "1", "QUAKETUI_STATE_DIR": state.path])
        defer { watcher.kill(); watcher.wait() }
        let failure = { watcher.stderr.split(separator: "\n").first { $0.hasPrefix("Refresh of all_day failed") } }
        #expect(eventually(timeout: 20) { failure() != nil }, "\(watcher.stderr)")
        // Issue 56.16: the wait in the browser's words (`retry 4m`; here, at 1 s intervals, `<1m`).
        #expect(failure() == "Refresh of all_day failed: the server answered HTTP 404 (Not Found) for \(server.baseURL)/all_day.geojson; retry <1m",
                "\(watcher.stderr)")
        // Back-off: after the k-th failure in a row the next try waits 2^(k-1) intervals
        // (refresh.plist says when), and the server saw one request per try.
        let plist = state.appendingPathComponent("refresh.plist")
        func status() -> [String: Any] {
            (try? PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil)) as? [String: Any] ?? [:]
        }
        #expect(eventually(timeout: 20) { (status()["failures"] as? Int ?? 0) >= 3 })
        let current = status()
        let failures = try #require(current["failures"] as? Int)
        let wait = try #require(current["nextDue"] as? Date).timeIntervalSince(try #require(current["lastAttempt"] as? Date))
        #expect(abs(wait - pow(2, Double(failures - 1))) < 0.01, "\(failures) failures, next try after \(wait) s")
        #expect(Self.requests(log).count >= failures && Self.requests(log).allSatisfy { $0 == "404" }, "\(Self.requests(log))")
        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: state).json()
        #expect(info["quakes"] as? Int == 0 && info["historyToken"] as? Int == 0, "the store is untouched")
    }
}
