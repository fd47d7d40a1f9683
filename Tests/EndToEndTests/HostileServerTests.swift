import Foundation
import QuakeTestSupport
import Testing

/// Issue 29, findings 6 and 7: what a server can make a download cost, against a hostile server
/// on 127.0.0.1 (`LocalHTTPServer(hostileIn:)`; never the network).
@Suite(.waitsOnProcesses) struct HostileServerTests {
    /// Runs `quaketui ARGUMENTS` and waits at most `timeout` for it (then kills it): without the
    /// limits, these commands hung for up to 30 minutes.
    static func run(_ arguments: [String], state: URL, environment: [String: String] = [:],
                    timeout: TimeInterval) throws -> (status: Int32?, stderr: String, errorLines: [String], seconds: TimeInterval) {
        var env = environment
        env["QUAKETUI_STATE_DIR"] = state.path
        let start = Date()
        let child = try ChildProcess(QuaketuiBinary.url, arguments, environment: env)
        child.closeInput()
        let ended = eventually(timeout: timeout) { !child.isRunning }
        let seconds = Date().timeIntervalSince(start)
        if !ended { child.kill() }
        let status = child.wait()
        let output = QuaketuiBinary.Result(status: status, stdout: child.stdout, stderr: child.stderr)
        return (ended ? status : nil, output.stderr, output.errorLines, seconds)
    }

    /// Finding 6: a 10 GiB gzip bomb sent as `Content-Encoding: gzip` (10 MB on the wire) stops
    /// at the inflation limit in about as long as the same bomb in a gzip file, exit 1.
    @Test func aContentEncodingBombStopsAtTheInflationLimit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let result = try Self.run(["import", "\(server.baseURL)/gzip-bomb/all_day.geojson"], state: dir.appending("state"),
                                  timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        // The one sentence, whole: only the sizes reached when it stopped vary.
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        #expect(try result.errorLines.first?.wholeMatch(of: Regex("Error: " + NSRegularExpression.escapedPattern(for: server.baseURL)
            + #"/gzip-bomb/all_day\.geojson:\d+:\d+: read failed: the answer from 127\.0\.0\.1 \(Content-Encoding: gzip\) inflates "#
            + #"to more than 100× its size plus 64 MiB \(\d+ MiB from \d+ KiB so far\): a decompression bomb, not a feed; "#
            + #"QUAKETUI_MAX_INFLATION_RATIO=N raises the ratio\."#)) != nil, "\(result.stderr)")
        #expect(result.seconds < 30, "took \(result.seconds) s")
    }

    /// A server that sends valid features forever, as fast as they are taken, stops at the size
    /// limit (here 4 MiB, by `QUAKETUI_MAX_DOWNLOAD_MIB`; 1 GiB by default) instead of filling the
    /// disk: exit 1, the one sentence, and nothing imported (the import is one transaction).
    @Test func anEndlessBodyStopsAtTheSizeLimit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let state = dir.appending("state")
        let result = try Self.run(["import", "\(server.baseURL)/endless/all_day.geojson"], state: state,
                                  environment: ["QUAKETUI_MAX_DOWNLOAD_MIB": "4"], timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        #expect(try result.errorLines.first?.wholeMatch(of: Regex("Error: " + NSRegularExpression.escapedPattern(for: server.baseURL)
            + #"/endless/all_day\.geojson:\d+:\d+: read failed: the answer from 127\.0\.0\.1 is larger than 4 MiB, the most a "#
            + #"download may bring \(stopped after 4 MiB\): QUAKETUI_MAX_DOWNLOAD_MIB=N raises it, or download the file and "#
            + #"import it from disk\."#)) != nil, "\(result.stderr)")
        #expect(result.seconds < 30, "took \(result.seconds) s")
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: state)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try list.json()["total"] as? Int == 0, "\(list.stdout.prefix(300))")
    }

    /// A gzip file sent with `Content-Encoding: gzip` would pass two limits one after the other
    /// (100 × 100): it is refused; one layer of encoding is read as before.
    @Test func aFeedEncodedOnceImportsAndEncodedTwiceIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let quakes = (0..<50).map { RecentFeed.Quake("ak\($0)", magnitude: 2.5, latitude: 61, longitude: -150, place: "Alaska") }
        try Data(RecentFeed.geoJSON(quakes).utf8).write(to: dir.appending("all_day.geojson"))
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let once = try QuaketuiBinary.run(["import", "\(server.baseURL)/gzip/all_day.geojson", "--json"],
                                          stateDirectory: dir.appending("state"))
        #expect(once.status == 0, "\(once.stderr)")
        #expect(try once.json()["inserted"] as? Int == 50)
        let twice = try QuaketuiBinary.run(["import", "\(server.baseURL)/gzip-twice/all_day.geojson"],
                                           stateDirectory: dir.appending("state"))
        #expect(twice.status == 1)
        #expect(twice.errorLines == ["Error: \(server.baseURL)/gzip-twice/all_day.geojson:1:1: read failed: the answer from 127.0.0.1 "
                                     + "is compressed twice (gzip data sent with Content-Encoding: gzip); quaketui reads one layer of compression."],
                "\(twice.stderr)")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var command: String
        var mode: String
        /// The error's line, whole (`wholeMatch`), after `Error: ` and the URL up to the mode: only
        /// the position, the sizes and the times are patterns.
        var says: String
        var testDescription: String { "\(command) from /\(mode)" }
    }

    /// The too-slow error, as a pattern: how much came in how long varies.
    static let tooSlow = #"cannot download: 127\.0\.0\.1 is too slow: [0-9.,]+ (bytes|KiB|MiB) in [0-9.]+ s, under the 4 KiB/s "#
        + #"a download must average after its first 2 s \(timed out\)"#

    /// The window `fetch --start 2024-01-01 --end 2024-01-02` asks for, as a pattern.
    static let fetchQuery = NSRegularExpression.escapedPattern(for: "/fdsnws/event/1/query?starttime=2024-01-01T00:00:00.000"
        + "&endtime=2024-01-02T00:00:00.000&orderby=time-asc&limit=20000&format=text&nodata=204")

    /// Finding 7: silence, a trickle of a byte every 0.1 s in the body or in the head: each fails
    /// with `timed out` in a few stall limits (1 s here), for `import`, `refresh` and `fetch`
    /// (which asks for a timed-out window once more).
    @Test(arguments: [
        Case(command: "import", mode: "stall",
             says: #"/all_day\.geojson:\d+:\d+: read failed: cannot download: 127\.0\.0\.1 sent nothing for 1 s \(timed out\)\."#),
        Case(command: "import", mode: "trickle", says: #"/all_day\.geojson:\d+:\d+: read failed: "# + Self.tooSlow + #"\."#),
        Case(command: "import", mode: "trickle-head", says: #"/all_day\.geojson: "# + Self.tooSlow + "; nothing was changed\\."),
        Case(command: "refresh", mode: "trickle", says: #"/all_day\.geojson:\d+:\d+: read failed: "# + Self.tooSlow + #"\."#),
        Case(command: "fetch", mode: "trickle-head", says: Self.fetchQuery + ": " + Self.tooSlow + "; nothing was changed\\."),
        Case(command: "fetch", mode: "trickle", says: Self.fetchQuery + #":\d+:\d+: read failed: "# + Self.tooSlow + #"\."#),
    ])
    func aStalledOrTricklingServerTimesOut(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let base = "\(server.baseURL)/\(c.mode)"
        var environment = ["QUAKETUI_HTTP_STALL_TIMEOUT": "1"]
        let arguments: [String]
        switch c.command {
        case "import": arguments = ["import", "\(base)/all_day.geojson"]
        case "refresh":
            arguments = ["refresh", "all_day"]
            environment["QUAKETUI_FEED_BASE_URL"] = base
        default:
            arguments = ["fetch", "--start", "2024-01-01", "--end", "2024-01-02"]
            environment["QUAKETUI_FDSN_BASE_URL"] = "\(base)/fdsnws/event/1/query"
        }
        let result = try Self.run(arguments, state: dir.appending("state"), environment: environment, timeout: 90)
        #expect(result.status == 1, "\(c): \(result.stderr)")
        // One line, the error (fetch says first that it asks again).
        #expect(result.errorLines.count == (c.command == "fetch" ? 2 : 1), "\(c): \(result.stderr)")
        let line = try Regex("Error: " + NSRegularExpression.escapedPattern(for: base) + c.says)
        #expect(result.errorLines.last?.wholeMatch(of: line) != nil, "\(c): \(result.stderr)")
        if c.command == "fetch" {
            // A timed-out window is asked for once more, not up to eight times with back-off.
            let retries = result.stderr.components(separatedBy: "asking for the window again").count - 1
            #expect(retries == 1, "\(c): \(result.stderr)")
        }
    }

    /// Issue 57.5: a connection reset in the middle of a body is said as a reset by the server,
    /// not as "no network connection (offline?)".
    @Test func aConnectionResetMidBodyIsSaidAsAReset() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let quakes = (0..<2_000).map { RecentFeed.Quake("ak\($0)", magnitude: 2.5, latitude: 61, longitude: -150, place: "Alaska") }
        try Data(RecentFeed.geoJSON(quakes).utf8).write(to: dir.appending("all_day.geojson"))
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let result = try Self.run(["import", "\(server.baseURL)/reset/all_day.geojson"], state: dir.appending("state"), timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        // The one line, whole: a reset, not "no network connection (offline?)".
        #expect(try result.errorLines.count == 1 && result.errorLines[0].wholeMatch(of: Regex(
            "Error: " + NSRegularExpression.escapedPattern(for: server.baseURL) + #"/reset/all_day\.geojson:\d+:\d+: read failed: "#
            + "cannot download: the connection to 127\\.0\\.0\\.1 was reset before the whole response came; try again\\.")) != nil,
                "\(result.stderr)")
    }

    /// Issue 57, point 8, with the fault shim: the helper's socket reads (curl's `recv`) fail once
    /// with EINTR at each of the first calls (the head, then the body): made again, the import
    /// is whole; with ECONNRESET in the middle of the body, the one sentence says a reset.
    @Test func anInterruptedReceiveIsMadeAgainAndAResetIsSaidAsOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let quakes = (0..<2_000).map { RecentFeed.Quake("ak\($0)", magnitude: 2.5, latitude: 61, longitude: -150, place: "Alaska") }
        try Data(RecentFeed.geoJSON(quakes).utf8).write(to: dir.appending("all_day.geojson"))
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let url = "\(server.baseURL)/file/all_day.geojson"
        for nth in [1, 2, 3, 5, 8] {
            let state = dir.appending("eintr\(nth)")
            let env = try FaultShim.environment(calls: ["recv"], path: "socket:", nth: nth, errno: "EINTR")
            let result = try Self.run(["import", url, "--json"], state: state, environment: env, timeout: 60)
            #expect(result.status == 0, "EINTR at recv #\(nth): \(result.stderr)")
            #expect(result.errorLines.isEmpty, "EINTR at recv #\(nth): \(result.stderr)")
            let count = try QuaketuiBinary.run(["info", "--json"], stateDirectory: state)
            #expect(try count.json()["quakes"] as? Int == 2000, "EINTR at recv #\(nth): \(count.stdout)")
        }
        // recv #1 reads the head (with the first bytes of the body), #4 is well inside the 450 KB body.
        let env = try FaultShim.environment(calls: ["recv"], path: "socket:", nth: 4, errno: "ECONNRESET")
        let result = try Self.run(["import", url], state: dir.appending("reset"), environment: env, timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(try result.errorLines.count == 1 && result.errorLines[0].wholeMatch(of: Regex(
            "Error: " + NSRegularExpression.escapedPattern(for: url) + #":\d+:\d+: read failed: "#
            + "cannot download: the connection to 127\\.0\\.0\\.1 was reset before the whole response came; try again\\.")) != nil,
                "\(result.stderr)")
    }

    /// Finding 7: `kill -9` of a command mid-download leaves no helper behind: it notices its
    /// parent is gone within a quarter of a second (the server here stays silent, so only the
    /// 30 s stall limit would have ended it).
    @Test func theHelperExitsWhenItsParentIsKilled() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let child = try ChildProcess(QuaketuiBinary.url, ["import", "\(server.baseURL)/stall/all_day.geojson"],
                                     environment: ["QUAKETUI_STATE_DIR": dir.appending("state").path])
        var helper: pid_t?
        #expect(eventually(timeout: 30) {
            helper = ChildProcess.children(of: child.pid).first { Self.name(of: $0) == "quaketui-http" }
            return helper != nil
        })
        child.kill(SIGKILL)
        child.wait()
        let helperPID = try #require(helper)
        // It polls its parent every quarter second; 5 s leaves room for a loaded machine.
        #expect(eventually(timeout: 5) { ChildProcess.isGone(helperPID) }, "the helper \(helperPID) outlived its parent")
        if !ChildProcess.isGone(helperPID) { kill(helperPID, SIGKILL) }
    }

    static func name(of pid: pid_t) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
