import Foundation
import QuakeTestSupport
import Testing

/// The sequence view (`A`, issue 54) in a real terminal: `A` on the 2019 Ridgecrest M 7.1 shows
/// its sequence with the Omori fit and the forecast, and after `kill -9` and a relaunch the same
/// view is back (`SequenceView.mainshock`).
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct SequenceViewEndToEndTests {
    /// The view's lines, with the forecast's start time (when it was computed, a second apart
    /// across a relaunch) written as `TIME`; nil until the sequence is there (not `…`).
    static func view(_ screen: Screen) -> [String]? {
        guard let pane = screen.detailPane, pane.first == "Sequence of M 7.1 ci38457511",
              pane.contains(where: { $0.hasPrefix("Omori K ") }) else { return nil }
        return pane.map {
            $0.hasPrefix("Forecast from ") ? $0.replacingOccurrences(of: #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+"#, with: "TIME",
                                                                     options: .regularExpression) : $0
        }
    }

    @Test func aShowsTheSequenceAndItComesBackAfterKillNine() throws {
        let fixture = try BrowserTests.Fixture(columns: 130, rows: 36, importing: "2.5_month-2019-07-19.geojson")
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "/")
        try fixture.tmux.send(pane, "Earthquake Sequence", literal: true)
        try fixture.tmux.send(pane, "Enter")
        // The M 7.1 and its M 6.4 foreshock; `g` selects the first, the newer.
        try fixture.tmux.waitForScreen(pane, "the Ridgecrest quakes") { $0.header.count == "2 quakes" }
        try fixture.tmux.send(pane, "g")
        try fixture.tmux.send(pane, "A")
        let shown = try fixture.tmux.waitForScreen(pane, timeout: 20, "the sequence") { Self.view($0) != nil }
        let view = try #require(Self.view(shown))
        #expect(view[1].hasPrefix("2019-07-06 "), "\(view)")
        #expect(view[2] == "Radius 47.8 km (Wells & Coppersmith 1994 rupture length)")
        #expect(view.contains { $0.hasPrefix("the sequence's own parameters: a ") }, "\(view)")
        // The store ends in 2019: the forecast starts where its data end, and says so. It holds 17
        // days before the mainshock, not the year a background needs: the line says so.
        #expect(view.contains { $0.hasPrefix("Forecast from TIME (Reasenberg & Jones 1989)") }, "\(view)")
        let said = view.joined(separator: " ")
        #expect(said.contains("The forecast starts 2019-07-19 02:52 UTC, where the sequence's data end, "), "\(view)")
        #expect(view.contains { $0.hasPrefix("No background term: the store covers 17.0 days before the mainshock") }, "\(view)")
        #expect(!said.contains("aftershocks only"), "\(view)")

        _ = try BrowserTests.waitForSceneFile(fixture) { $0["SequenceView.mainshock"] as? String == "ci38457511" }
        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)

        let relaunched = try fixture.launch(window: "again")
        let restored = try fixture.tmux.waitForScreen(relaunched, timeout: 20, "the restored sequence") { Self.view($0) != nil }
        #expect(Self.view(restored) == view)
        #expect(restored.listPane == shown.listPane)

        // Live: a quake imported by another process within the radius, in the month the store
        // covers (the 2019-07-10 of its feed), joins the open sequence.
        let feed = fixture.dir.url.appendingPathComponent("new.geojson")
        try Data(RecentFeed.geoJSON([.init("ci99999999", magnitude: 3.1, latitude: 35.75, longitude: -117.58,
                                                place: "12 km NE of Ridgecrest, CA")],
                                    now: Date(timeIntervalSince1970: 1_562_760_000)).utf8).write(to: feed)
        let imported = try QuaketuiBinary.run(["import", feed.path], stateDirectory: fixture.dir.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let count = try #require(view.first { $0.hasSuffix(" at or above") })
        #expect(count.hasPrefix("1,413 aftershocks · "), "\(count)")
        try fixture.tmux.waitForScreen(relaunched, timeout: 20, "the new aftershock counted") {
            $0.detailPane?.contains { $0.hasPrefix("1,414 aftershocks · ") } == true
        }

        // A day of 2025 imported: the view says the sequence ends where the 2019 month does.
        let later = try QuaketuiBinary.run(["import", SharedData.url("1.0_day-2025-07-27.geojson").path], stateDirectory: fixture.dir.url)
        #expect(later.status == 0, "\(later.stderr)")
        try fixture.tmux.waitForScreen(relaunched, timeout: 20, "the gap said") {
            $0.detailPane?.contains { $0.hasPrefix("The sequence ends 2019-07-19 02:52 UTC: no quake is stored") } == true
                && $0.detailPane?.contains { $0.hasPrefix("1,414 aftershocks · ") } == true
        }

        // `Esc` closes it, and that too is kept.
        try fixture.tmux.send(relaunched, "Escape")
        try fixture.tmux.waitForScreen(relaunched, "the list alone") { $0.detailPane == nil }
        _ = try BrowserTests.waitForSceneFile(fixture) { $0["SequenceView.mainshock"] as? String == "" }
    }
}
