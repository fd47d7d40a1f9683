import Foundation
import QuakeTestSupport
import Testing

/// The statistics view (`=`, issue 32) in a real terminal: it counts the list, follows an import
/// by another process while open, and is open again after `kill -9` and a relaunch.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct StatsViewEndToEndTests {
    /// The statistics' title, from the pane beside the list: `Statistics of the list  1,234 quakes`.
    static func title(_ screen: Screen) -> String? {
        screen.detailTabs == nil ? screen.detailPane?.first : nil
    }

    /// The view counted the list the header counts (not `…`, not an older count).
    static func agrees(_ screen: Screen) -> Bool {
        title(screen) == "Statistics of the list  \(screen.header.count ?? "")"
    }

    @Test func theOpenViewFollowsAnImportAndComesBackAfterKillNine() throws {
        let fixture = try BrowserTests.Fixture(columns: 130, rows: 36)
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "=")
        let opened = try fixture.tmux.waitForScreen(pane, "the statistics") { Self.agrees($0) && $0.detailPane?.dropFirst().first?.hasPrefix("Mc ") == true }
        let statistics = try #require(opened.detailPane)
        // `Mc 2.4 · b 0.95 ± 0.03 · a 5.49 · n 1,572 at or above Mc`
        let fit = statistics[1].components(separatedBy: " · ")
        #expect(fit.count == 4 && fit[1].hasPrefix("b ") && fit[2].hasPrefix("a ") && fit[3].hasSuffix(" at or above Mc"), "\(statistics[1])")
        // Every chart's title, each first on its line.
        let titles = statistics.compactMap { Screen.words($0, separatedBy: 2).first }
        #expect(Set(titles).isSuperset(of: ["Magnitude–frequency", "Quakes per day (local time)", "Depth (km)"]), "\(opened)")
        #expect(statistics.compactMap { Screen.words($0, separatedBy: 2) == ["Depth (km)", "Top regions"] ? $0 : nil }.count == 1)
        let before = try #require(Self.title(opened))

        // Another process imports: the open view counts again, by itself.
        let more = try QuaketuiBinary.run(["import", SharedData.url("4.5_month-2014-03-21.geojson").path],
                                          stateDirectory: fixture.dir.url)
        #expect(more.status == 0, "\(more.stderr)")
        let updated = try fixture.tmux.waitForScreen(pane, timeout: 20, "the statistics after the import") {
            Self.agrees($0) && Self.title($0) != before
        }
        let after = try #require(Self.title(updated))

        let saved = try BrowserTests.waitForSceneFile(fixture) { $0["StatsView.isPresented"] as? Bool == true }
        #expect(saved["StatsView.isPresented"] as? Bool == true)
        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)

        let relaunched = try fixture.launch(window: "again")
        let restored = try fixture.tmux.waitForScreen(relaunched, timeout: 20, "the restored statistics") { Self.agrees($0) }
        #expect(Self.title(restored) == after)

        // `=` closes it, and that too is kept.
        try fixture.tmux.send(relaunched, "=")
        try fixture.tmux.waitForScreen(relaunched, "the list alone") { $0.detailPane == nil }
        _ = try BrowserTests.waitForSceneFile(fixture) { $0["StatsView.isPresented"] as? Bool == false }
    }

    /// The Map tab's scale (`+`, `-`) is scene state: the same scale after `kill -9`, and the
    /// list's quakes drawn over the map (magnitude-coloured dots beside the selected quake's `◉`).
    @Test func theMapsScaleComesBackAfterKillNine() throws {
        let fixture = try BrowserTests.Fixture(columns: 130, rows: 36)
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "Enter", "2")
        try fixture.tmux.waitForScreen(pane, "the world map") { $0.mapScale == "± world" && $0.mapMark != nil }
        try fixture.tmux.send(pane, "+")
        let region = try fixture.tmux.waitForScreen(pane, "the region") { $0.mapScale == "± region" }
        // The quake's mark on the map, and the map drawn (not a placeholder naming the scale).
        #expect(region.mapMark != nil && region.detailPane?.allSatisfy { $0 != "Region (40° × 20°)" } == true, "\(region)")
        try fixture.tmux.send(pane, "+")
        try fixture.tmux.waitForScreen(pane, "the local map") { $0.mapScale == "± local" }
        try fixture.tmux.send(pane, "-")
        try fixture.tmux.waitForScreen(pane, "the region again") { $0.mapScale == "± region" }
        _ = try BrowserTests.waitForSceneFile(fixture) { $0["MapView.zoom"] as? String == "region" }
        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)
        let relaunched = try fixture.launch(window: "again")
        try fixture.tmux.waitForScreen(relaunched, timeout: 20, "the restored region") { $0.mapScale == "± region" && $0.mapMark != nil }
    }
}
