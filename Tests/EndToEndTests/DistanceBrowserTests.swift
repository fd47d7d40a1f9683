import Foundation
import QuakeScenes
import QuakeTestSupport
import Testing

/// Home and distance in the real browser (tmux): `~` without a home says how to set one, `@`
/// sets it from the selected quake (defaults.plist), `~` filters to `nearRadius` (header count
/// against an independent haversine), an import from another process merges exactly into the
/// filtered list, and `s` reaches the distance sort with its band sections; the scene file
/// keeps `ContentView.nearHome` and `ContentView.sortOrder`.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct DistanceBrowserTests {
    /// The quakes of `records` within `radius` km of `home` (independent haversine).
    static func within(_ records: [(code: String, latitude: Double, longitude: Double)], of home: HomeLocation,
                       radius: Double) -> Set<String> {
        Set(records.filter {
            ExpectedResults.kilometres(fromLatitude: home.latitude, longitude: home.longitude,
                                       toLatitude: $0.latitude, longitude: $0.longitude) <= radius
        }.map(\.code))
    }

    /// A two-quake GeoJSON feed: one 50 km from `home` (due north), one 3,000 km away.
    static func smallFeed(near home: HomeLocation, time: Int64) -> String {
        let north = home.latitude + 50 / 111.2 < 90 ? home.latitude + 50 / 111.2 : home.latitude - 50 / 111.2
        let far = home.latitude > 0 ? home.latitude - 27 : home.latitude + 27
        return HostileInputTests.collection([
            HostileInputTests.feature("zznear1", time: "\(time)", place: "test zznear1", magnitude: 3.1, latitude: north, longitude: home.longitude),
            HostileInputTests.feature("zzfar1", time: "\(time)", place: "test zzfar1", magnitude: 3.1, latitude: far, longitude: home.longitude),
        ])
    }

    @Test func atTildeAndTheDistanceSortEndToEnd() throws {
        let fixture = try BrowserTests.Fixture(columns: 120, rows: 30)
        defer { fixture.close() }
        let records = try IndependentParse.expected(for: SharedData.url(BrowserTests.feed))
            .map { (code: $0.code, latitude: $0.latitude, longitude: $0.longitude) }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "~")
        try fixture.tmux.waitForScreen(pane, "how to set a home") {
            $0.status.message == "No home set: press @ on a quake, or run 'quaketui config home LAT,LON'"
        }

        try fixture.tmux.send(pane, "@")
        try fixture.tmux.waitForScreen(pane, "home set") { $0.status.message?.hasPrefix("Home set to ") == true }
        let storage = try AppStorage(state: StateDirectory(path: fixture.dir.path))
        var home: HomeLocation?
        #expect(eventually(timeout: 10) { _ = storage.reload(); home = storage.value(for: AppKeys.home); return home != nil })
        let setHome = try #require(home)
        // The distance column joined the list (the selected quake is its own epicentre: 0.0 km).
        try fixture.tmux.waitForScreen(pane, "the distance column") { $0.quakeRows.first?.columns[2] == "0.0 km" }

        try fixture.tmux.send(pane, "~")
        let expected = Self.within(records, of: setHome, radius: 300)
        let filtered = try fixture.tmux.waitForScreen(pane, "the near-home filter") { $0.header.nearHome == "near home ≤ 300 km" }
        #expect(filtered.header.segments == ["quaketui", "\(expected.count.formatted()) quake\(expected.count == 1 ? "" : "s")",
                                             "sort time ↓", "near home ≤ 300 km"], "\(filtered)")

        // Another process imports one quake inside the radius and one outside: exactly one more.
        let feed = fixture.dir.appending("small.geojson")
        try Self.smallFeed(near: setHome, time: 1_528_900_000_000).write(to: feed, atomically: true, encoding: .utf8)
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: fixture.dir.url).status == 0)
        let merged = try fixture.tmux.waitForScreen(pane, "the merged import") {
            $0.header.count == "\((expected.count + 1).formatted()) quakes"
        }
        #expect(merged.header.nearHome == "near home ≤ 300 km")

        // s: time → magnitude → region → depth → distance (nearest first, in bands).
        for _ in 0..<4 { try fixture.tmux.send(pane, "s") }
        let sorted = try fixture.tmux.waitForScreen(pane, "the distance sort") { $0.header.sort == "sort distance ↑" }
        #expect(sorted.sections.first?.title == "< 100 km", "\(sorted)")
        let scene = try BrowserTests.waitForSceneFile(fixture) {
            $0["ContentView.sortOrder"] as? String == "distance" && $0["ContentView.nearHome"] as? Bool == true
        }
        #expect(scene["ContentView.nearHome"] as? Bool == true)
        try fixture.tmux.send(pane, "q")
        #expect(try fixture.tmux.waitForExit(pane) == 0)
    }
}
