import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The browser's first successful refresh replaces the sample but keeps a sample quake with the
/// user's notes, and its message says so (issue 31).
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct SampleNotesBrowserTests {
    @Test(.timeLimit(.minutes(2)))
    func theRefreshThatReplacesTheSampleSaysItKeptTheNotes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("state")
        let container = try PersistentContainer(directory: state)
        let sample = try #require(try SampleCatalogue.importIntoNewStore(container)).inserted
        let code = try #require(try container.viewContext.read { try $0.scalar("SELECT min(code) FROM quake").string })
        let writer = try container.newBackgroundContext(author: "notes")
        #expect(try writer.performAndWait { try $0.setNotes("felt it", forCode: code) })
        writer.close()
        container.close()
        try AppStorage(state: StateDirectory(path: state.path)).set(0, for: AppKeys.autoRefreshInterval)
        let mirror = dir.appending("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        try Data(RecentFeed.geoJSON([RecentFeed.Quake("us1", magnitude: 4, latitude: 1, longitude: 2, place: "A"),
                                     RecentFeed.Quake("us2", magnitude: 5, latitude: 3, longitude: 4, place: "B")]).utf8)
            .write(to: mirror.appendingPathComponent("all_month.geojson"))

        let tmux = try TmuxSession(columns: 220, rows: 20)
        defer { tmux.close() }
        let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", state.path, "--scene", "s"],
                                  environment: ["QUAKETUI_FEED_BASE_URL": mirror.absoluteString], window: "s")
        let sentence = "; replaced the bundled sample (\(CountFormat.quakes(sample - 1))); kept 1 sample quake with your notes"
        let screen = try tmux.waitForScreen(pane, timeout: 30, "the refresh's message") { $0.status.message?.hasSuffix(sentence) == true }
        // The whole status line, its parts as drawn (the import's seconds vary).
        let line = screen.status.line
        let parts = line.replacing(/in \d+\.\d\d s;/, with: "in X s;").components(separatedBy: "  ")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(parts == ["Refreshed all_month: imported 2 quakes (2 new, 0 updated, 0 unchanged, 0 skipped) in X s" + sentence,
                          "? help", "↻ off", "● live"], "\(line)")
        // The kept quake stays, an ordinary one: the two new ones and it.
        let after = try tmux.waitForScreen(pane, timeout: 10, "the list of 3") { $0.header.count == "3 quakes" }
        #expect(after.header.segments == ["quaketui", "3 quakes", "sort time ↓"] && after.header.right == ["scene s"], "\(after)")
    }
}
