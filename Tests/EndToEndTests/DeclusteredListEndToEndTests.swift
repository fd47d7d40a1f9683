import Foundation
import QuakeTestSupport
import Testing

/// The list declustered (`:decluster gk`, issue 54) in a real terminal, on the 2019 Ridgecrest
/// month: the header's count and its label are `list --decluster gk --json`'s, and after
/// `kill -9` and a relaunch the same declustered list is back (`ContentView.declustering`).
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct DeclusteredListEndToEndTests {
    /// `n` grouped by thousands, as the header writes counts.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        return String(digits.enumerated().flatMap { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
        })
    }

    @Test func declusterGKListsTheBackgroundAndItComesBackAfterKillNine() throws {
        let fixture = try BrowserTests.Fixture(columns: 130, rows: 30, importing: "2.5_month-2019-07-19.geojson")
        defer { fixture.close() }
        let cli = try QuaketuiBinary.run(["list", "--decluster", "gk", "--json", "--limit", "1"], stateDirectory: fixture.dir.url)
        #expect(cli.status == 0, "\(cli.stderr)")
        let json = try cli.json()
        let kept = try #require(json["total"] as? Int)
        let removed = try #require((json["declustered"] as? [String: Any])?["removed"] as? Int)
        #expect(removed > 1_000, "Ridgecrest's aftershocks are dependent: \(removed)")
        let label = "declustered (Gardner–Knopoff): \(Self.grouped(kept)) of \(Self.grouped(kept + removed))"

        let pane = try fixture.launch()
        let before = try fixture.tmux.waitForScreen(pane, "the list") { $0.header.count == "\(Self.grouped(kept + removed)) quakes" }
        #expect(before.header.declustering == nil)
        try fixture.tmux.send(pane, ":")
        try fixture.tmux.send(pane, "decluster gk", literal: true)
        try fixture.tmux.send(pane, "Enter")
        let shown = try fixture.tmux.waitForScreen(pane, timeout: 30, "the background") {
            $0.header.declustering == label && $0.header.count == "\(Self.grouped(kept)) quakes"
        }

        _ = try BrowserTests.waitForSceneFile(fixture) { $0["ContentView.declustering"] as? String == "gk" }
        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)

        let relaunched = try fixture.launch(window: "again")
        let restored = try fixture.tmux.waitForScreen(relaunched, timeout: 30, "the restored background") {
            $0.header.declustering == label && $0.header.count == "\(Self.grouped(kept)) quakes"
        }
        #expect(restored.listPane == shown.listPane)

        // Off: every quake again, and that is kept too.
        try fixture.tmux.send(relaunched, ":")
        try fixture.tmux.send(relaunched, "decluster off", literal: true)
        try fixture.tmux.send(relaunched, "Enter")
        try fixture.tmux.waitForScreen(relaunched, "every quake") {
            $0.header.declustering == nil && $0.header.count == "\(Self.grouped(kept + removed)) quakes"
        }
        _ = try BrowserTests.waitForSceneFile(fixture) { $0["ContentView.declustering"] as? String == "" }
    }
}
