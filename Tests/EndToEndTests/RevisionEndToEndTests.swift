import Foundation
import QuakeTestSupport
import Testing

/// Revisions end to end (issue 53, point 4): a USGS report revised by another process's import
/// is marked `◆` in a browser's list, the mark comes back after `kill -9`, `:revised` keeps it,
/// the Reports tab shows its versions, and a `deleted` record takes it out, saying so. The feed
/// is QuakeFeedTests' `RevisionTests` fixture, written from the USGS GeoJSON format.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct RevisionEndToEndTests {
    static func importFeed(_ text: String, _ fixture: BrowserTests.Fixture, name: String) throws -> String {
        let file = fixture.dir.url.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: fixture.dir.url)
        guard result.status == 0 else { throw ChildProcess.ChildError("import failed: \(result.stderr)") }
        return result.stdout
    }

    /// The list line of the Anamizu quake, trimmed; nil when it is not listed.
    static func anamizu(_ screen: Screen) -> String? {
        screen.listPane.first { $0.contains("Anamizu") }?.trimmingCharacters(in: .whitespaces)
    }

    @Test func aRevisedReportIsMarkedFilteredShownAndDeleted() throws {
        // Narrower than 120 columns: the detail is full screen, wide enough for the versions' line.
        let fixture = try BrowserTests.Fixture(columns: 118, rows: 36, importing: nil)
        defer { fixture.close() }
        _ = try Self.importFeed(RevisionFixture.first, fixture, name: "v1.geojson")
        let pane = try fixture.launch()
        let before = try fixture.tmux.waitForScreen(pane, "the quake") { Self.anamizu($0) != nil }
        #expect(Self.anamizu(before)?.hasPrefix("◆") == false, "\(before)")

        // Another process stores the reviewed solution: the row is marked.
        _ = try Self.importFeed(RevisionFixture.reviewed, fixture, name: "v2.geojson")
        try fixture.tmux.waitForScreen(pane, "the revised mark") { Self.anamizu($0)?.hasPrefix("◆") == true }

        // kill -9 and a relaunch: the mark comes back (the scene's saved `seen` mark, the store's revision).
        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)
        let again = try fixture.launch(window: "again")
        try fixture.tmux.waitForScreen(again, "the mark after the relaunch") { Self.anamizu($0)?.hasPrefix("◆") == true }

        // :revised keeps it alone.
        try fixture.tmux.send(again, ":")
        try fixture.tmux.send(again, "revised", literal: true)
        try fixture.tmux.send(again, "Enter")
        let filtered = try fixture.tmux.waitForScreen(again, "the filter") {
            $0.header.filters == ":revised" && $0.quakeRows.count == 1
        }
        #expect(Self.anamizu(filtered) != nil, "\(filtered)")

        // The Reports tab shows its versions.
        try fixture.tmux.send(again, "Enter")
        try fixture.tmux.send(again, "4")
        let reports = try fixture.tmux.waitForScreen(again, "the versions") { $0.text.contains("Revisions: ") }
        let line = try #require(reports.textLines.first { $0.contains("Revisions: ") })
        #expect(line.contains("Revisions: mb 5.1 automatic 2024-01-01 18:23 → Mww 5.4 reviewed "), "\(reports)")
        #expect(line.contains("(moved 9 km E, depth 12.0 km)"), "\(reports)")
        try fixture.tmux.send(again, "Escape")

        // Its agency deletes it: the import says so, and the quake goes from the list.
        let said = try Self.importFeed(RevisionFixture.deleted, fixture, name: "v3.geojson")
        #expect(said.contains("1 deleted by its agency, hidden"), "\(said)")
        try fixture.tmux.waitForScreen(again, "the quake gone") { Self.anamizu($0) == nil && $0.header.count == "0 quakes" }
    }
}
