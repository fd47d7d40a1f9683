import Foundation
import QuakeFeed
import QuakeModel
import QuakeScenes
import QuakeTestSupport
import QuakeTUI
import Testing

/// The status line's few words for a failed refresh come from the kind the failure was given
/// where it happened, never from its sentence: here the real helper fails against local servers
/// (one that never answers, one that goes silent after its head, one that trickles, a closed
/// port, a reset, a body shorter than its length, a 500), and the words and the sentence are
/// checked together. A timeout once showed as `(bad feed)`: the words were guessed from text
/// the helper no longer wrote.
@Suite(.waitsOnProcesses) struct FailureKindEndToEndTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var mode: String
        /// A part of the helper's sentence, as it writes it.
        var says: String
        var kind: FailureKind
        /// What `r` says on real data.
        var key: String
        var testDescription: String { mode }
    }

    static let cases = [
        Case(mode: "silent", says: "did not answer within 1 s (timed out)", kind: .timedOut, key: "offline · L why"),
        Case(mode: "stall", says: "sent nothing for 1 s (timed out)", kind: .timedOut, key: "offline · L why"),
        Case(mode: "trickle", says: "is too slow", kind: .timedOut, key: "offline · L why"),
        Case(mode: "refused", says: "refused the connection", kind: .serverDown, key: "offline · L why"),
        Case(mode: "reset", says: "was reset before the whole response came", kind: .connectionReset, key: ""),
        Case(mode: "truncated", says: "ended its answer after", kind: .badFeed, key: ""),
        Case(mode: "always-500", says: "HTTP 500", kind: .http(500), key: "refresh failed: HTTP 500 · L why"),
    ]

    /// The server for `mode`: the hostile one, or a port nothing listens on.
    static func base(_ mode: String, _ server: LocalHTTPServer) -> String {
        mode == "refused" ? "http://127.0.0.1:1" : "\(server.baseURL)/\(mode)"
    }

    static func feed(in dir: TemporaryDirectory) throws {
        let quakes = (0..<2_000).map { RecentFeed.Quake("ak\($0)", magnitude: 2.5, latitude: 61, longitude: -150, place: "Alaska") }
        try Data(RecentFeed.geoJSON(quakes).utf8).write(to: dir.appending("all_day.geojson"))
    }

    /// The automatic refresh (`watch --refresh`): `refresh.plist` keeps the sentence and its kind,
    /// and the status line words the kind.
    @Test(arguments: cases)
    func theAutomaticRefreshSaysTheKindTheHelperGave(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.feed(in: dir)
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let state = dir.appending("state")
        let watcher = try ChildProcess(QuaketuiBinary.url, ["watch", "--refresh"], environment: [
            "QUAKETUI_FEED_BASE_URL": Self.base(c.mode, server), "QUAKETUI_AUTO_REFRESH_INTERVAL": "300",
            "QUAKETUI_HTTP_STALL_TIMEOUT": "1", "QUAKETUI_STATE_DIR": state.path])
        defer { watcher.kill(); watcher.wait() }
        let file = RefreshStatusFile(state: StateDirectory(path: state.path))
        if c.mode == "silent" {
            // While the download waits, every pane says a refresh is running.
            #expect(eventually(timeout: 30) { file.load().isAttemptRunning }, "\(watcher.stderr)")
            #expect(RefreshStatusText.make(file.load(), now: Int64(Date().timeIntervalSince1970 * 1000))?.text == "refreshing")
        }
        #expect(eventually(timeout: 60) { file.load().failures >= 1 }, "\(watcher.stderr)")
        let status = file.load()
        #expect(status.lastError?.contains(c.says) == true, "\(status.lastError ?? "no lastError")")
        #expect(status.lastErrorKind == c.kind.token)
        let now = Int64(((status.lastAttempt ?? Date()).timeIntervalSince1970 * 1000).rounded())
        #expect(RefreshStatusText.make(status, now: now)?.text.hasPrefix("refresh failed (\(c.kind.words)) · retry ") == true,
                "\(String(describing: RefreshStatusText.make(status, now: now)))")
    }

    /// `r` (the browser's refresh reads the download through a `FeedReader`, as here, with a
    /// 30 s stall limit): the error the real helper gives has the kind, and on real data a
    /// timeout says `offline · L why` (README, `r`).
    @Test(arguments: cases)
    func theRefreshKeySaysTheKindTheHelperGave(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.feed(in: dir)
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let url = Self.base(c.mode, server) + "/all_day.geojson"
        var caught: FeedError?
        do {
            let stream = try HTTPByteStream(url: try #require(URL(string: url)), timeout: 1)
            let reader = try FeedReader(source: .stream(stream), name: url)
            while try reader.next() != nil {}
        } catch let error as FeedError {
            caught = error
        }
        let error = try #require(caught, "\(url) was read whole")
        #expect("\(error)".contains(c.says), "\(error)")
        #expect(error.kind == c.kind, "\(error)")
        let message = "Refresh of all_day failed: \(error)"
        #expect(RefreshStatusText.refreshFailed(after: message, kind: error.kind) == (c.key.isEmpty ? message : c.key))
    }
}
