import Foundation
import QuakeTestSupport
import Testing

/// The first real download replaces the bundled sample, and a browser open on the sample marks
/// none of it new: README, "New quakes". A `fetch` commits one window at a time, so the browser
/// sees the sample go with the first window and the rest arrive after it.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct FirstDownloadTests {
    @Test(.timeLimit(.minutes(3)))
    func aFetchThatReplacesTheSampleMarksNothingNew() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("state")
        let catalogue = GeneratedCatalogue(count: 6_000, days: 60, seed: 11)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        // A busy server after the first window is stored (request 4: three halvings of the first
        // window to fit the limit) and again later: the fetch waits a second each time, and the
        // browser sees that window (and the sample go) before the others arrive, as it would from
        // a real, slower service.
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 1_000, faults: [
            5: .status(503, retryAfter: 1, message: "busy"), 8: .status(503, retryAfter: 1, message: "busy"),
        ], in: dir.url)
        defer { server.stop() }
        let tmux = try TmuxSession(columns: 120, rows: 20)
        defer { tmux.close() }
        // A new store: the browser imports the sample; its refresh fails at once (nothing listens there).
        let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", state.path, "--scene", "s"],
                                  environment: ["QUAKETUI_FEED_BASE_URL": "http://127.0.0.1:9/"], window: "s")
        try tmux.waitFor(pane, timeout: 20, "the sample") { $0.contains("sample data") }

        let result = try QuaketuiBinary.run(
            ["fetch", "--start", FetchCommandTests.iso(catalogue.start), "--end", FetchCommandTests.iso(catalogue.end), "--json"],
            stateDirectory: state, environment: ["QUAKETUI_FDSN_BASE_URL": server.fdsnBaseURL, "QUAKETUI_FDSN_LIMIT": "1000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try #require(try result.json()["windows"] as? Int) > 2, "several commits, as a real fetch makes")
        #expect(server.requests.first { $0.status == 200 && $0.count < 1_000 }?.number == 4, "the first window stored")

        let screen = try tmux.waitFor(pane, timeout: 20, "every fetched quake in the list") {
            $0.split(separator: "\n").first?.contains("6,000 quakes") == true
        }
        let header = String(screen.split(separator: "\n").first ?? "")
        #expect(!header.contains("new"), "\(header)")
        #expect(!header.contains("sample"), "\(header)")
        #expect(!screen.split(separator: "\n").contains { $0.hasPrefix("●") }, "\(screen)")
    }
}
