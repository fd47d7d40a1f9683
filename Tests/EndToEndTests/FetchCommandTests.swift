import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `quaketui fetch` against a local FDSN event service over a generated catalogue.
@Suite(.waitsOnProcesses) struct FetchCommandTests {
    /// The codes in the store, read directly from SQLite.
    static func storedCodes(_ dir: URL) throws -> Set<String> {
        let container = try PersistentContainer(directory: dir)
        defer { container.close() }
        return try container.viewContext.read { db in
            let statement = try db.prepare("SELECT code FROM quake WHERE coalesce(source, 'usgs') = 'usgs' AND code NOT LIKE 'sample%'")
            var codes = Set<String>()
            while try statement.step() { codes.insert(statement.text(at: 0)) }
            return codes
        }
    }

    /// The start of the next unfinished window stored by the interrupted fetch.
    static func storedCursor(_ dir: URL) throws -> Int64? {
        let container = try PersistentContainer(directory: dir)
        defer { container.close() }
        return try container.viewContext.read { db in
            let statement = try db.prepare("SELECT value FROM meta WHERE key LIKE 'fetch.%'")
            guard try statement.step() else { return nil }
            let object = try JSONSerialization.jsonObject(with: Data(statement.text(at: 0).utf8)) as? [String: Any]
            return (object?["cursor"] as? NSNumber)?.int64Value
        }
    }


    /// `quaketui fetch --json` of the whole `catalogue` from `server` (at most `limit` events a
    /// request) into `state`, with `flags` added.
    static func fetchAll(_ catalogue: GeneratedCatalogue, from server: LocalHTTPServer, limit: Int, into state: URL,
                         flags: [String] = []) throws -> QuaketuiBinary.Result {
        try QuaketuiBinary.run(
            ["fetch", "--start", IndependentParse.commandTime(milliseconds: catalogue.start), "--end", IndependentParse.commandTime(milliseconds: catalogue.end), "--json"] + flags,
            stateDirectory: state, environment: ["QUAKETUI_FDSN_BASE_URL": server.fdsnBaseURL, "QUAKETUI_FDSN_LIMIT": String(limit)])
    }

    /// 280,000 events (60,000 of them in a two-day burst), fetched from M3, a 20,000-event limit, and 429, 503,
    /// 413, a truncated body and 500 injected; killed with -9 part-way, then run again.
    @Test(.timeLimit(.minutes(5)))
    func fetchSurvivesFaultsAndKillNineWithoutLosingOrRefetchingAWindow() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalogue = GeneratedCatalogue(count: 280_000, burst: 60_000)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        let serverDir = dir.appending("server")
        try FileManager.default.createDirectory(at: serverDir, withIntermediateDirectories: true)
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 20_000, faults: [
            2: .status(429, retryAfter: 1, message: "Too many requests from your address; slow down."),
            4: .status(503, retryAfter: 1, message: "The service is busy."),
            5: .status(413, retryAfter: nil, message: "Too many events requested."),
            7: .truncated,
            9: .status(500, retryAfter: nil, message: "Internal error."),
        ], in: serverDir)
        defer { server.stop() }
        let state = dir.appending("state")
        let arguments = ["fetch", "--service", "usgs", "--start", IndependentParse.commandTime(milliseconds: catalogue.start), "--end", IndependentParse.commandTime(milliseconds: catalogue.end),
                         "--min-magnitude", "3", "--json"]
        print("fetch test: \(arguments.joined(separator: " "))")
        let environment = ["QUAKETUI_FDSN_BASE_URL": server.fdsnBaseURL, "QUAKETUI_STATE_DIR": state.path]

        // Run 1: kill -9 once a dozen requests were answered.
        let first = try ChildProcess(QuaketuiBinary.url, arguments, environment: environment)
        _ = eventually(timeout: 120) { server.requests.filter({ $0.status == 200 }).count >= 6 || !first.isRunning }
        if !first.isRunning {
            print("run 1 exit \(first.wait()) requests: \(server.requests.map { "\($0.number):\($0.status):\($0.count)" })\nrun 1 stderr: \(first.stderr) stdout: \(first.stdout)")
        }
        #expect(first.isRunning, "the fetch finished before it could be killed: \(first.stderr) \(server.requests)")
        first.kill(SIGKILL)
        _ = first.wait()
        let cursor = try #require(try Self.storedCursor(state))
        #expect(cursor > catalogue.start)
        let firstRun = server.requests

        // Run 2: the same command continues.
        let second = try QuaketuiBinary.run(arguments, stateDirectory: state, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let summary = try second.json()
        #expect(summary["resumed"] as? Bool == true)
        let secondRun = server.requests.dropFirst(firstRun.count)

        // Nothing lost: the store holds exactly the independently filtered catalogue.
        let expected = catalogue.filtered(.init(start: catalogue.start, end: catalogue.end, minMagnitude: 3))
        // (M3+ keeps the test's import small; the burst still fills windows past the limit.)
        #expect(expected.count > 100_000)
        let stored = try Self.storedCodes(state)
        #expect(stored.count == expected.count)
        #expect(stored == Set(expected.map(\.code)))

        // No finished window asked for again: run 2 starts at the stored cursor or later.
        let cursorText = IndependentParse.commandTime(milliseconds: cursor)
        #expect(secondRun.allSatisfy { $0.start >= cursorText }, "\(secondRun.map(\.start)) vs \(cursorText)")
        // (A window that reached the limit was refused by quaketui and halved: not a finished window.)
        let okStarts = secondRun.filter { ($0.status == 200 && $0.count < 20_000) || $0.status == 204 }.map(\.start)
        #expect(Set(okStarts).count == okStarts.count, "a window was downloaded twice in run 2")
        // Every fault was met and survived; the limit was reached.
        let all = Array(firstRun) + Array(secondRun)
        for status in [429, 503, 413, 500, -200] { #expect(all.contains { $0.status == status }, "no \(status)") }
        #expect(all.contains { $0.count == 20_000 }, "no window reached the limit")
        #expect(all.allSatisfy { $0.userAgent.hasPrefix("quaketui/") })
    }

    @Test func filtersAreSentAndAppliedLikeTheService() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalogue = GeneratedCatalogue(count: 20_000, days: 60, seed: 3)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 2_000, in: dir.url)
        defer { server.stop() }
        let cases: [([String], GeneratedCatalogue.Filter)] = [
            (["--bbox", "-80,-60,-30,10", "--max-depth", "300"],
             .init(start: catalogue.start, end: catalogue.end, maxDepth: 300, box: [-80, -60, -30, 10])),
            (["--near", "35.5,139.7", "--radius", "3000", "--min-magnitude", "3"],
             .init(start: catalogue.start, end: catalogue.end, minMagnitude: 3, circle: [35.5, 139.7, 3000])),
        ]
        for (index, (flags, filter)) in cases.enumerated() {
            let state = dir.appending("state-\(index)")
            let result = try Self.fetchAll(catalogue, from: server, limit: 2_000, into: state, flags: flags)
            #expect(result.status == 0, "\(result.stderr)")
            let expected = catalogue.filtered(filter)
            #expect(!expected.isEmpty)
            #expect(try Self.storedCodes(state) == Set(expected.map(\.code)), "\(flags)")
            // Windows are committed several at a time (a few thousand quakes into an empty store:
            // all at once unless that takes over 5 s), each commit an entry in the persistent
            // history, which running browsers merge live like any import's.
            let windows = try #require(try result.json()["windows"] as? Int)
            #expect(windows > 1)
            let container = try PersistentContainer(directory: state)
            defer { container.close() }
            let commits = try container.viewContext.read { try $0.scalar("SELECT count(*) FROM history WHERE author = 'fetch'").int64 }
            #expect((1..<Int64(windows)).contains(commits ?? 0), "\(windows) windows in \(commits ?? 0) commits")
        }
    }

    /// Windows that reach the limit keep what they stored (one transaction holds many windows)
    /// and are halved; their quakes, asked for again, are counted once: the summary says every
    /// quake is new, as an import of the same events would.
    @Test func windowsThatReachTheLimitCountTheirQuakesOnce() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalogue = GeneratedCatalogue(count: 12_000, burst: 6_000, days: 60, seed: 21)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 1_000, in: dir.url)
        defer { server.stop() }
        let result = try Self.fetchAll(catalogue, from: server, limit: 1_000, into: dir.appending("state"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.contains { $0.count == 1_000 }, "no window reached the limit")
        let summary = try result.json()
        let codes = try Self.storedCodes(dir.appending("state"))
        #expect(codes == Set(catalogue.events.map(\.code)))
        #expect(summary["inserted"] as? Int == codes.count)
        #expect(summary["updated"] as? Int == 0)
        #expect(summary["unchanged"] as? Int == summary["quakes"] as! Int - codes.count, "\(summary)")
    }

    @Test func aRefusedQueryIsOneClearSentenceAndKeepsFinishedWindows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalogue = GeneratedCatalogue(count: 2_000, days: 90, seed: 5)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 20_000, faults: [
            2: .status(400, retryAfter: nil, message: "Bad request: starttime must be before endtime."),
        ], in: dir.url)
        defer { server.stop() }
        let state = dir.appending("state")
        let result = try QuaketuiBinary.run(
            ["fetch", "--start", IndependentParse.commandTime(milliseconds: catalogue.start), "--end", IndependentParse.commandTime(milliseconds: catalogue.end)],
            stateDirectory: state, environment: ["QUAKETUI_FDSN_BASE_URL": server.fdsnBaseURL])
        #expect(result.status == 1)
        // One line, whole: only the window's query after `?` is left to the pattern.
        let sentence = try Regex("Error: The server answered HTTP 400 \\(Bad Request\\) for "
            + NSRegularExpression.escapedPattern(for: server.fdsnBaseURL + "?") + "[^ ]+: Bad request: starttime must be before "
            + "endtime; the windows fetched so far are kept — run the same command again to continue")
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        #expect(result.errorLines.first?.wholeMatch(of: sentence) != nil, "\(result.stderr)")
        #expect(try !Self.storedCodes(state).isEmpty)
    }

    @Test func aRangeWithoutEventsIs204AndASuccess() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalogue = GeneratedCatalogue(count: 100, days: 10, seed: 9)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 20_000, in: dir.url)
        defer { server.stop() }
        let result = try QuaketuiBinary.run(
            ["fetch", "--start", "2001-01-01", "--end", "2001-03-01", "--json"], stateDirectory: dir.appending("state"),
            environment: ["QUAKETUI_FDSN_BASE_URL": server.fdsnBaseURL])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["quakes"] as? Int == 0)
        #expect(server.requests.map(\.status) == [204, 204])
    }

    @Test(arguments: [
        (["--start", "yesterday"], "'yesterday' is not a date (2024-01-01, 2024-01-01T12:00:00Z) or a span before now (30d, 12h, 2w, 10y)."),
        (["--bbox", "1,2,3"], "--bbox wants 4 numbers separated by commas, not '1,2,3'."),
        (["--near", "1,2"], "--near and --radius go together."),
        (["--service", "ftp://x"], "'ftp://x' is not a service quaketui knows (usgs, emsc, iris, ingv, geofon) nor an http(s) URL."),
        (["--start", "2024-02-01", "--end", "2024-01-01"], "--start (2024-02-01) must be before --end (2024-01-01)."),
    ])
    func badArgumentsAreUsageErrors(_ arguments: [String], _ says: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(["fetch"] + arguments, stateDirectory: dir.url)
        #expect(result.status == 64)
        // The error's whole sentence, then the usage.
        #expect(result.errorLines.first == "Error: " + says, "\(result.stderr)")
        #expect(result.errorLines.dropFirst().first?.hasPrefix("Usage: quaketui fetch ") == true, "\(result.stderr)")
    }
}
