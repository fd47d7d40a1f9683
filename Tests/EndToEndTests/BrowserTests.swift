import Foundation
import QuakeTestSupport
import Testing

/// The browser in a real terminal: tmux panes driven with send-keys, read with capture-pane.
/// Each test has its own tmux server (socket) and state directory.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct BrowserTests {
    /// An unreachable feed mirror, so no test ever touches the network.
    static let offline = ["QUAKETUI_FEED_BASE_URL": "file:///nonexistent-quaketui-feed"]
    static let feed = "all_week-2018-06-14.geojson"

    struct Fixture: TmuxFixture {
        let dir: TemporaryDirectory
        let tmux: TmuxSession

        init(columns: Int = 100, rows: Int = 30, importing feed: String? = BrowserTests.feed) throws {
            dir = try TemporaryDirectory()
            tmux = try TmuxSession(columns: columns, rows: rows)
            if let feed {
                let result = try QuaketuiBinary.run(["import", SharedData.url(feed).path], stateDirectory: dir.url)
                guard result.status == 0 else { throw ChildProcess.ChildError("import failed: \(result.stderr)") }
            }
        }

        /// Imports `quakes` (`RecentFeed`'s GeoJSON) into the fixture's store.
        func importQuakes(_ quakes: [RecentFeed.Quake]) throws {
            let feed = dir.url.appendingPathComponent("quakes-\(quakes.count).geojson")
            try Data(RecentFeed.geoJSON(quakes).utf8).write(to: feed)
            let result = try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url)
            guard result.status == 0 else { throw ChildProcess.ChildError("import failed: \(result.stderr)") }
        }

        @discardableResult
        func launch(scene: String = "a", window: String? = nil) throws -> String {
            let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", dir.path, "--scene", scene],
                                      environment: BrowserTests.offline, window: window)
            try tmux.waitForScreen(pane, "the first frame") { $0.header.isOf(scene: scene) }
            return pane
        }
    }

    @Test func firstLaunchOnAnEmptyStoreShowsTheSampleAndSaysItIsOffline() throws {
        // Wide enough for every key hint beside the automatic refresh's `✗ retry 4m` and `● live`.
        let fixture = try Fixture(columns: 120, importing: nil)
        defer { fixture.close() }
        // Offline: nothing listens where the feed is (the connection is refused at once).
        let port = try ClosedLocalPort()
        defer { port.close() }
        let pane = try fixture.tmux.start(QuaketuiBinary.url.path, ["--state-dir", fixture.dir.path, "--scene", "a"],
                                          environment: ["QUAKETUI_FEED_BASE_URL": "http://127.0.0.1:\(port.port)"])
        let screen = try fixture.tmux.waitForScreen(pane, "the sample") {
            $0.header.count == "775 quakes" && $0.header.badges.first == "sample data"
        }
        #expect(screen.rows.first?.section != nil, "\(screen)")  // day sections
        // Issue 31: a few words that fit, not the error cut at the edge; the sentence is in `L`.
        // (The whole left side: not the error's own words, no `L whole message`.)
        try fixture.tmux.waitForScreen(pane, "the failed refresh") {
            $0.status.left == "offline — showing the bundled sample · r retries  ? help"
        }
        try fixture.tmux.send(pane, "L")
        try fixture.tmux.waitForScreen(pane, "the whole sentence in the log") {
            $0.overlay?.title == "Messages, newest first" && $0.overlay?.entries.filter { $0.hasPrefix("Refresh of all_month") }
                == ["Refresh of all_month failed: cannot download: 127.0.0.1 refused the connection; nothing was changed."]
        }
        try fixture.tmux.send(pane, "L")
        try fixture.tmux.send(pane, "j")
        // After the first key the message gives way to the key hints (with `r refresh`), and the
        // header keeps saying what is going on: badges that win over the scene ID.
        let after = try fixture.tmux.waitForScreen(pane, "the offline badge and the hints") {
            $0.header.badges == ["sample data", "offline"] && $0.status.offers("r refresh") && $0.status.offers("? help")
        }
        #expect(after.status.parts.allSatisfy { !$0.hasSuffix("showing the bundled sample · r retries") }, "\(after)")
        try fixture.tmux.send(pane, "q")
        #expect(try fixture.tmux.waitForExit(pane) == 0)
    }

    /// The quake of the activity `activity.plist` holds as the latest (its `payload`'s code).
    static func advertisedCode(_ activity: URL) -> String? {
        ((try? propertyList(at: activity))?["payload"] as? [String: Any])?["code"] as? String
    }

    static func sceneFile(_ fixture: Fixture, _ scene: String = "a") throws -> [String: Any] {
        try fixture.dir.scenePlist(scene)
    }

    /// Polls the scene file until `condition` holds (or 20 s pass); returns its contents.
    static func waitForSceneFile(_ fixture: Fixture, scene: String = "a",
                                 _ condition: ([String: Any]) -> Bool) throws -> [String: Any] {
        var last: [String: Any] = [:]
        let reached = eventually(timeout: 20) {
            guard let file = try? sceneFile(fixture, scene) else { return false }
            last = file
            return condition(file)
        }
        if !reached { Issue.record("the scene file never got there: \(last)") }
        return last
    }

    @Test func onFirstLaunchABackgroundRefreshReplacesTheSampleAndRRefreshesAgain() throws {
        let fixture = try Fixture(importing: nil)
        defer { fixture.close() }
        // A local mirror of the summary feeds: all_month is a real snapshot.
        let mirror = fixture.dir.appending("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: SharedData.url(BrowserTests.feed), to: mirror.appendingPathComponent("all_month.geojson"))
        let pane = try fixture.tmux.start(QuaketuiBinary.url.path, ["--state-dir", fixture.dir.path, "--scene", "a"],
                                          environment: ["QUAKETUI_FEED_BASE_URL": mirror.absoluteString])
        // The status line can say "Refreshed" a frame before the merge reaches the header.
        let screen = try fixture.tmux.waitForScreen(pane, "the live feed") {
            $0.header.count == "4,711 quakes" && $0.status.message?.hasPrefix("Refreshed") == true
        }
        #expect(screen.header.badges == [], "\(screen)")
        try fixture.tmux.send(pane, "r")
        try fixture.tmux.waitForScreen(pane, "the second refresh") {
            $0.status.message?.hasPrefix("Refreshed all_month: imported 4,711 quakes (0 new, ") == true
        }
        #expect(try QuaketuiBinary.run(["info", "--json"], stateDirectory: fixture.dir.url).json()["quakes"] as? Int == 4711)
    }

    @Test func killNineThenRelaunchRestoresSortSearchSelectionAndTab() throws {
        let fixture = try Fixture(columns: 130, rows: 30)
        defer { fixture.close() }
        let pane = try fixture.launch()
        let first = try fixture.tmux.waitForScreen(pane, "the counted list") { _ in true }
        #expect(first.sections.first == Screen.Section(title: "Thursday, 14 June 2018", count: "298"))  // day sections, newest first
        // The list narrows as you type, before Enter.
        try fixture.tmux.send(pane, "/")
        try fixture.tmux.send(pane, "ala", literal: true)
        let narrowed = try fixture.tmux.waitForScreen(pane, "narrowing") { $0.header.count != first.header.count }
        try fixture.tmux.send(pane, "ska", literal: true)
        try fixture.tmux.waitForScreen(pane, "more narrowing") { $0.header.count != narrowed.header.count }
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.send(pane, "s")
        try fixture.tmux.waitForScreen(pane, "magnitude order") { $0.header.sort == "sort magnitude ↓" }
        try fixture.tmux.send(pane, "j", "j", "j", "Enter", "Tab")
        let before = try fixture.tmux.waitForScreen(pane, "the map") { $0.mapMark != nil }
        // Wait for what the scene file must say, not for a time (SPEC's 250 ms is quakebench's figure).
        let saved = try Self.waitForSceneFile(fixture) { $0["DetailView.selectedTab"] as? String == "map" }
        #expect(saved["ContentView.sortOrder"] as? String == "magnitude")
        #expect(saved["ContentView.searchText"] as? String == "alaska")
        #expect(saved["DetailView.selectedTab"] as? String == "map")
        #expect(saved["DetailView.isPresented"] as? Bool == true)
        let code = try #require(saved["ContentView.selectedQuake"] as? String)
        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)

        let relaunched = try fixture.launch(window: "again")
        let after = try fixture.tmux.waitForScreen(relaunched, "the restored map") { $0.mapMark != nil }
        #expect(after.header == before.header)
        // The legend (place and coordinates) and the quake's mark on the map, whole lines at the same place.
        let mark = try #require(before.mapMark)
        #expect(after.mapLegend == before.mapLegend && after.mapMark! == mark, "\(before)\n\(after)")
        #expect(after.body[mark.line] == before.body[mark.line], "\(before)\n\(after)")
        // The same rows on the same screen lines (relative times aside).
        let rows = { (screen: Screen) in screen.lines.dropFirst().prefix(20).map { $0.prefix(50) } }
        #expect(rows(after) == rows(before))
        #expect(try Self.sceneFile(fixture)["ContentView.selectedQuake"] as? String == code)
    }

    @Test func aNotesDraftSurvivesKillNineAndSavingShowsLiveInAnotherPane() throws {
        let fixture = try Fixture(columns: 130)
        defer { fixture.close() }
        let paneA = try fixture.launch(scene: "a")
        let paneB = try fixture.launch(scene: "b")
        try fixture.tmux.send(paneA, "j", "j", "Enter", "3", "e")
        try fixture.tmux.send(paneA, "felt it in the kitchen", literal: true)
        try fixture.tmux.waitForScreen(paneA, "the draft") { $0.notes == Self.draft }
        _ = try Self.waitForSceneFile(fixture, scene: "a") {
            (($0["EditView.draft"] as? [String: Any])?["text"] as? String) == "felt it in the kitchen"
        }
        kill(try fixture.tmux.pid(paneA), SIGKILL)
        _ = try fixture.tmux.waitForExit(paneA)
        let again = try fixture.launch(scene: "a", window: "again")
        try fixture.tmux.waitForScreen(again, "the restored draft") { $0.notes == Self.draft }
        // Pane B shows the same quake's notes (handed off), then sees the save live.
        try fixture.tmux.send(paneB, "H")
        try fixture.tmux.waitForScreen(paneB, "the handoff") { $0.detailTabs != nil }
        try fixture.tmux.send(paneB, "3")
        try fixture.tmux.waitForScreen(paneB, "the empty notes tab") { $0.notes == Self.noNotes }
        try fixture.tmux.send(again, "C-s")
        try fixture.tmux.waitForScreen(again, "the save") { $0.status.message == "Notes saved" }
        try fixture.tmux.waitForScreen(paneB, timeout: 10, "the saved notes, live") {
            $0.notes == Screen.Notes(heading: "Notes", lines: ["felt it in the kitchen"])
        }
        _ = try Self.waitForSceneFile(fixture, scene: "a") { $0["EditView.draft"] == nil }
    }

    /// The notes being written in the first test's pane A.
    static let draft = Screen.Notes(heading: "Editing notes (unsaved)", lines: ["felt it in the kitchen"])
    /// The Notes tab of a quake without notes.
    static let noNotes = Screen.Notes(heading: "Notes", lines: ["No notes. Press e to write some."])

    @Test func aChangeFromAnotherProcessShowsInTwoRunningPanesThatKeepTheirSelection() throws {
        let fixture = try Fixture(columns: 130)
        defer { fixture.close() }
        let paneA = try fixture.launch(scene: "a")
        let paneB = try fixture.launch(scene: "b")
        try fixture.tmux.send(paneA, "j", "j", "Enter")
        try fixture.tmux.send(paneB, "G", "Enter")
        let titleA = try #require(try fixture.tmux.waitForScreen(paneA, "A's detail") { $0.detailLine("Title") != nil }.detailLine("Title"))
        let titleB = try #require(try fixture.tmux.waitForScreen(paneB, "B's detail") { $0.detailLine("Title") != nil }.detailLine("Title"))
        #expect(titleA != titleB)
        let initial = try fixture.tmux.screen(paneA).header.count
        let result = try QuaketuiBinary.run(["import", SharedData.url("all_day-2017-03-23.geojson").path],
                                            stateDirectory: fixture.dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        for (pane, title) in [(paneA, titleA), (paneB, titleB)] {
            let screen = try fixture.tmux.waitForScreen(pane, timeout: 10, "the new count") { $0.header.count != initial }
            #expect(screen.detailLine("Title") == title)
        }
        // App storage: a minimum magnitude set in one pane filters the other.
        try fixture.tmux.send(paneA, "Escape", "m")
        try fixture.tmux.waitForScreen(paneB, timeout: 10, "the filter from pane a") { $0.header.minimumMagnitude == "M ≥ 2.5" }
    }

    @Test func handoffShowsInThisPaneTheQuakeAnotherPaneShows() throws {
        let fixture = try Fixture(columns: 130)
        defer { fixture.close() }
        let paneA = try fixture.launch(scene: "a")
        let paneB = try fixture.launch(scene: "b")
        try fixture.tmux.send(paneA, "j", "j", "j", "j", "Enter")
        let shown = try fixture.tmux.waitForScreen(paneA, "the detail") { $0.detailField("Title") != nil && $0.detailField("Code") != nil }
        let title = try #require(shown.detailField("Title"))
        let advertised = try #require(shown.detailField("Code"))
        // Pane A advertises what it shows; wait for that, not for a time.
        let activity = fixture.dir.appending("activity.plist")
        #expect(eventually(timeout: 20) { Self.advertisedCode(activity) == advertised })
        try fixture.tmux.send(paneB, "H")
        try fixture.tmux.waitForScreen(paneB, "the handed-off quake") { $0.detailField("Title") == title }
        // `quaketui open` reaches a running pane too.
        let code = advertised
        try fixture.tmux.send(paneB, "Escape", "g")
        let opened = try QuaketuiBinary.run(["open", "https://earthquake.usgs.gov/earthquakes/eventpage/\(code)",
                                             "--scene", "b"], stateDirectory: fixture.dir.url)
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout == "sent \(code) to scene b, open in process \(try fixture.tmux.pid(paneB)): "
                + "it shows the quake within a second.\n", "\(opened.stdout)")
        try fixture.tmux.waitForScreen(paneB, timeout: 2, "the opened quake") { $0.detailField("Code") == code }
    }

    @Test func resizingRedrawsAndATinyTerminalGetsAMessage() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.resize(pane, columns: 40, rows: 10)
        try fixture.tmux.waitForScreen(pane, "the 40×10 frame") { screen in
            screen.header.title == "quaketui" && screen.lines.allSatisfy { $0.count <= 40 } && screen.lines.count == 10
                && screen.rows.first?.section != nil
        }
        try fixture.tmux.resize(pane, columns: 39, rows: 9)
        try fixture.tmux.waitForScreen(pane, "the too-small message") { $0.textLines == ["Terminal too small (need 40×10)", "now 39×9"] }
        try fixture.tmux.resize(pane, columns: 250, rows: 70)
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.waitForScreen(pane, "list and detail side by side") { screen in
            screen.detailTabs != nil && screen.separatorColumn != nil && screen.rows.first?.section != nil
        }
        try fixture.tmux.send(pane, "q")
        #expect(try fixture.tmux.waitForExit(pane) == 0)
    }

    @Test func escapeSequencesInPlaceNamesNeverReachTheTerminal() throws {
        let fixture = try Fixture(importing: nil)
        defer { fixture.close() }
        let hostile = [
            "Evil\u{1B}]0;pwned\u{07} title", "Clear\u{1B}[2J\u{1B}[H screen", "Bell\u{07}\u{07} ring",
            "Wide 東京都 🌋 place", "Bidi \u{202E}reversed",
        ]
        let features = hostile.enumerated().map { index, place in
            let escaped = place.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
            return """
                {"type":"Feature","id":"evil\(index)","properties":{"mag":\(3 + index),"place":"\(escaped)",\
                "time":\(1_700_000_000_000 + index * 60_000),"updated":1700000000000},\
                "geometry":{"type":"Point","coordinates":[139.7,35.6,10]}}
                """
        }
        let file = fixture.dir.appending("hostile.geojson")
        try #"{"type":"FeatureCollection","features":["#.appending(features.joined(separator: ",")).appending("]}")
            .write(to: file, atomically: true, encoding: .utf8)
        let imported = try QuaketuiBinary.run(["import", file.path], stateDirectory: fixture.dir.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let pane = try fixture.launch()
        let screen = try fixture.tmux.waitForScreen(pane, "the rows") { $0.header.count == "5 quakes" }
        try fixture.tmux.send(pane, "Enter")  // the detail shows the place in full
        try fixture.tmux.waitForScreen(pane, "the detail") { $0.detailField("Place") != nil }
        // The title is still tmux's own (the host's name), as in the placeholder window.
        #expect(try fixture.tmux.paneTitle(pane) == fixture.tmux.paneTitle("main:0"))
        #expect(!screen.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        // The frame is intact: the header is still on the first line and every row is there,
        // its place with what was around the escapes (the wide one cut at the column's edge).
        #expect(screen.header.title == "quaketui")
        let places = screen.quakeRows.compactMap(\.place)
        #expect(places.compactMap { $0.split(separator: " ").first }.sorted() == ["Bell", "Bidi", "Clear", "Evil", "Wide"], "\(screen)")
        #expect(places.filter { $0.hasSuffix(" title") || $0.hasSuffix(" screen") || $0.hasPrefix("Wide 東京都") }.count == 3,
                "\(screen)")
    }

    @Test func aCorruptSceneFileIsSetAsideAndTheSceneStartsFresh() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let scenes = fixture.dir.appending("scenes")
        try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
        try Data("<?xml version=\"1.0\"?><plist><dict><key>ContentView.sortOrder".utf8)
            .write(to: scenes.appendingPathComponent("a.plist"))
        let pane = try fixture.launch()
        let screen = try fixture.tmux.waitForScreen(pane, "the notice") { $0.status.message?.hasPrefix("The saved state of scene a") == true }
        #expect(screen.header.sort == "sort time ↓")
        let aside = files(in: scenes.path, withPrefix: "a.plist.corrupt-")
        #expect(aside.count == 1)
    }

    @Test func aLaunchThatDiedWhileRestoringStartsFreshNextTime() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "s", "q")
        _ = try fixture.tmux.waitForExit(pane)
        // As if the next launch had crashed before drawing its first frame.
        _ = FileManager.default.createFile(atPath: fixture.dir.appending("scenes/a.restoring").path, contents: nil)
        let again = try fixture.launch(window: "again")
        let screen = try fixture.tmux.waitForScreen(again, "the crash-guard notice") {
            $0.status.message?.hasPrefix("The last launch of scene a stopped while restoring") == true
        }
        #expect(screen.header.sort == "sort time ↓")
    }

    @Test func qKeepsTheSceneAndCapitalQClosesIt() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let pane = try fixture.launch(scene: "keep")
        try fixture.tmux.send(pane, "j", "q")
        #expect(try fixture.tmux.waitForExit(pane) == 0)
        let plist = fixture.dir.appending("scenes/keep.plist").path
        #expect(FileManager.default.fileExists(atPath: plist))
        let again = try fixture.launch(scene: "keep", window: "again")
        try fixture.tmux.send(again, "Q")
        try fixture.tmux.waitForScreen(again, "the question") { $0.status.message == BrowserFeelTests.closeQuestion }
        #expect(FileManager.default.fileExists(atPath: plist))
        try fixture.tmux.send(again, "y")
        #expect(try fixture.tmux.waitForExit(again) == 0)
        #expect(!FileManager.default.fileExists(atPath: plist))
    }

    @Test func aSceneOpenInOnePaneCannotBeOpenedTwice() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        _ = try fixture.launch(scene: "solo")
        let second = try fixture.tmux.start(QuaketuiBinary.url.path, ["--state-dir", fixture.dir.path, "--scene", "solo"],
                                            environment: Self.offline)
        try fixture.tmux.waitForScreen(second, "the refusal") {
            $0.lines.first?.hasPrefix("Error: Scene solo is open in process ") == true
                && $0.lines.first?.hasSuffix("; close it there, or pick another scene with --scene ID.") == true
        }
        #expect(try fixture.tmux.waitForExit(second) == 1)
        // Without a terminal the browser says what to use instead.
        let piped = try QuaketuiBinary.run(["--scene", "other"], stateDirectory: fixture.dir.url)
        #expect(piped.status == 1 && piped.errorLines == ["Error: The browser needs a terminal; for scripts use 'quaketui list' (see 'quaketui --help')."],
                "\(piped.stderr)")
    }
}
