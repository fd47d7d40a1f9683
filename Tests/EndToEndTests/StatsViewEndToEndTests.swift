import Foundation
import QuakeTestSupport
import Testing

/// The statistics view (`=`, issue 32) in a real terminal: it counts the list, follows an import
/// by another process while open, and is open again after `kill -9` and a relaunch.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct StatsViewEndToEndTests {
    /// The statistics' title, from the pane beside the list: `Statistics of the list  1,234 quakes`.
    static func title(_ screen: String) -> String? {
        guard let line = BrowserTests.line(screen, containing: "Statistics of the list") else { return nil }
        return line.components(separatedBy: "│").last?.trimmingCharacters(in: .whitespaces)
    }

    /// The view counted the list the header counts (not `…`, not an older count).
    static func agrees(_ screen: String) -> Bool {
        title(screen) == "Statistics of the list  \(BrowserTests.count(screen))"
    }

    @Test func theOpenViewFollowsAnImportAndComesBackAfterKillNine() throws {
        let fixture = try BrowserTests.Fixture(columns: 130, rows: 36)
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "=")
        let opened = try fixture.tmux.waitFor(pane, "the statistics") { Self.agrees($0) && $0.contains("Mc ") }
        #expect(BrowserTests.line(opened, containing: "Mc ")?.contains("b ") == true)
        #expect(opened.contains("Magnitude–frequency") && opened.contains("Quakes per day")
                && opened.contains("Depth (km)") && opened.contains("Top regions"))
        let before = try #require(Self.title(opened))

        // Another process imports: the open view counts again, by itself.
        let more = try QuaketuiBinary.run(["import", SharedData.url("4.5_month-2014-03-21.geojson").path],
                                          stateDirectory: fixture.dir.url)
        #expect(more.status == 0, "\(more.stderr)")
        let updated = try fixture.tmux.waitFor(pane, timeout: 20, "the statistics after the import") {
            Self.agrees($0) && Self.title($0) != before
        }
        let after = try #require(Self.title(updated))

        let saved = try BrowserTests.waitForSceneFile(fixture) { $0["StatsView.isPresented"] as? Bool == true }
        #expect(saved["StatsView.isPresented"] as? Bool == true)
        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)

        let relaunched = try fixture.launch(window: "again")
        let restored = try fixture.tmux.waitFor(relaunched, timeout: 20, "the restored statistics") { Self.agrees($0) }
        #expect(Self.title(restored) == after)

        // `=` closes it, and that too is kept.
        try fixture.tmux.send(relaunched, "=")
        try fixture.tmux.waitFor(relaunched, "the list alone") { Self.title($0) == nil }
        _ = try BrowserTests.waitForSceneFile(fixture) { $0["StatsView.isPresented"] as? Bool == false }
    }

    /// The Map tab's scale (`+`, `-`) is scene state: the same scale after `kill -9`, and the
    /// list's quakes drawn over the map (magnitude-coloured dots beside the selected quake's `◉`).
    @Test func theMapsScaleComesBackAfterKillNine() throws {
        let fixture = try BrowserTests.Fixture(columns: 130, rows: 36)
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "Enter", "2")
        try fixture.tmux.waitFor(pane, "the world map") { $0.contains("± world") && $0.contains("◉") }
        try fixture.tmux.send(pane, "+")
        let region = try fixture.tmux.waitFor(pane, "the region") { $0.contains("± region") }
        #expect(region.contains("◉") && !region.contains("Region (40° × 20°)"))
        try fixture.tmux.send(pane, "+")
        try fixture.tmux.waitFor(pane, "the local map") { $0.contains("± local") }
        try fixture.tmux.send(pane, "-")
        try fixture.tmux.waitFor(pane, "the region again") { $0.contains("± region") }
        _ = try BrowserTests.waitForSceneFile(fixture) { $0["MapView.zoom"] as? String == "region" }
        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)
        let relaunched = try fixture.launch(window: "again")
        try fixture.tmux.waitFor(relaunched, timeout: 20, "the restored region") { $0.contains("± region") && $0.contains("◉") }
    }
}
