import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The first real download replaces the bundled sample, and a browser open on the sample marks
/// none of it new: README, "New quakes". A `fetch` commits one window at a time, so the browser
/// sees the sample go with the first window and the rest arrive after it.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
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
        try tmux.waitForScreen(pane, timeout: 20, "the sample") { $0.header.badges.first == "sample data" }

        let result = try FetchCommandTests.fetchAll(catalogue, from: server, limit: 1_000, into: state)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try #require(try result.json()["windows"] as? Int) > 2, "several commits, as a real fetch makes")
        #expect(server.requests.first { $0.status == 200 && $0.count < 1_000 }?.number == 4, "the first window stored")

        let screen = try tmux.waitForScreen(pane, timeout: 20, "every fetched quake in the list") { $0.header.count == "6,000 quakes" }
        // Nothing new, no sample badge: the header's whole segments.
        #expect(screen.header.segments == ["quaketui", "6,000 quakes", "sort time ↓"], "\(screen.header)")
        #expect(screen.header.badges.allSatisfy { $0 != "sample data" }, "\(screen.header)")
        #expect(screen.quakeRows.allSatisfy { !$0.isNew }, "\(screen)")
    }

    /// A scene that last looked at the sample, relaunched after the download that replaced it and
    /// an import of more than `Connection.maxListedArrivals` quakes: only that import is new. (The
    /// new rows past the listed changes are counted by id, from above the replacing download's.)
    @Test(.timeLimit(.minutes(3)))
    func aRelaunchAfterTheSampleWasReplacedCountsOnlyWhatCameAfterIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("state")
        let first = dir.appending("first.txt"), second = dir.appending("second.txt")
        try GeneratedCatalogue(count: 3_000, start: 1_672_531_200_000, days: 200, seed: 5).write(to: first)
        try GeneratedCatalogue(count: 10_500, start: 1_704_067_200_000, days: 200, seed: 6).write(to: second)
        let text = try String(contentsOf: second, encoding: .utf8)
        try text.replacingOccurrences(of: "tc0", with: "td0").write(to: second, atomically: false, encoding: .utf8)
        let tmux = try TmuxSession(columns: 120, rows: 20)
        defer { tmux.close() }
        let arguments = ["--state-dir", state.path, "--scene", "s"], environment = ["QUAKETUI_FEED_BASE_URL": "http://127.0.0.1:9/"]
        let pane = try tmux.start(QuaketuiBinary.url.path, arguments, environment: environment, window: "s")
        try tmux.waitForScreen(pane, timeout: 20, "the sample") { $0.header.badges.first == "sample data" }
        try tmux.send(pane, "q")
        #expect(try tmux.waitForExit(pane) == 0)

        for file in [first, second] {
            let imported = try QuaketuiBinary.run(["import", file.path], stateDirectory: state)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let again = try tmux.start(QuaketuiBinary.url.path, arguments, environment: environment, window: "again")
        // The new quakes are counted after the first frame, in the background.
        let screen = try tmux.waitForScreen(again, timeout: 20, "the new quakes counted") { $0.header.new != nil }
        #expect(screen.header.segments == ["quaketui", "13,500 quakes", "10,500 new", "sort time ↓"], "\(screen.header)")
    }
}

/// What the benchmark measures is what a user gets (issue 33): the store `fetch` builds window
/// by window is the store `import` builds from the same events in one file — every row and
/// column, the section counts, the search index.
@Suite(.waitsOnProcesses) struct FetchBuildsTheImportedStoreTests {
    @Test(.timeLimit(.minutes(3)))
    func aFetchedStoreEqualsTheImportedOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalogue = GeneratedCatalogue(count: 8_000, days: 120, seed: 21)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 1_500, in: dir.url)
        defer { server.stop() }
        let fetched = dir.appending("fetched"), imported = dir.appending("imported")
        let fetch = try FetchCommandTests.fetchAll(catalogue, from: server, limit: 1_500, into: fetched)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(try #require(try fetch.json()["windows"] as? Int) > 4)
        let load = try QuaketuiBinary.run(["import", file.path], stateDirectory: imported)
        #expect(load.status == 0, "\(load.stderr)")
        // Everything that decides what a browser shows, as FetchBuildsTheImportStoreTests reads it.
        let a = try FetchBuildsTheImportStoreTests.contents(of: fetched), b = try FetchBuildsTheImportStoreTests.contents(of: imported)
        #expect(a["quake"]?.count == catalogue.events.count && a["integrity"] == ["text(\"ok\")"])
        for key in b.keys.sorted() {
            let (x, y) = (a[key] ?? [], b[key] ?? [])
            #expect(x == y, "\(key): first difference: \(String(describing: zip(x, y).first { $0 != $1 }))")
        }
    }
}
