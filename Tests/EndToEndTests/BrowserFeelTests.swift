import Foundation
import QuakeTestSupport
import Testing

/// Issue 15 in a real terminal: navigation as in less/vim/lazygit, `o`/`y`, the `:` command
/// line, the message log, and questions before work is lost. Whole screens are read with
/// capture-pane and every wait is on a condition (the screen, a file, a tmux buffer).
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct BrowserFeelTests {
    typealias Fixture = BrowserTests.Fixture

    static func selected(_ fixture: Fixture, _ scene: String = "a", _ condition: @escaping ([String: Any]) -> Bool) throws
        -> [String: Any] {
        try BrowserTests.waitForSceneFile(fixture, scene: scene, condition)
    }

    @Test func keysLandOnQuakesAndTheTopRowsSectionHeaderSticks() throws {
        let fixture = try Fixture(columns: 100, rows: 30)
        defer { fixture.close() }
        let pane = try fixture.launch()
        // Line 1 names the columns; the list starts on line 2.
        let first = try fixture.tmux.waitForScreen(pane, "the first section") { $0.columnHeaders != nil && $0.rows.first?.section != nil }
        let firstHeader = try #require(first.row(at: 0))
        // The first day holds enough quakes that four half pages stay inside it.
        let count = Int(firstHeader.section?.count.filter(\.isNumber) ?? "") ?? 0
        try #require(count > 80, "\(firstHeader)")
        // G then g: the last and the first quake, never a header.
        try fixture.tmux.send(pane, "G")
        let last = try Self.selected(fixture) { ($0["ContentView.selectionLine"] as? Int ?? 0) > 20 }
        #expect(last["ContentView.selectedSection"] as? String == "")
        let lastCode = last["ContentView.selectedQuake"] as? String
        try fixture.tmux.send(pane, "g")
        let top = try Self.selected(fixture) { $0["ContentView.selectedQuake"] as? String != lastCode }
        #expect(top["ContentView.selectedSection"] as? String == "" && top["ContentView.selectionLine"] as? Int == 1)
        // k on the first quake stays there (the header above is skipped).
        try fixture.tmux.send(pane, "k", "j", "k")
        _ = try Self.selected(fixture) { $0["ContentView.selectedQuake"] as? String == top["ContentView.selectedQuake"] as? String }
        // Four half pages down (ctrl-d) in the first day's 250 quakes: the first line of the list
        // still names that day, the sticky header over a scrolled-away section's rows.
        try fixture.tmux.send(pane, "C-d", "C-d", "C-d", "C-d")
        let scrolled = try fixture.tmux.waitForScreen(pane, "the sticky header") { screen in
            screen.row(at: 0) == firstHeader && screen.row(at: 1)?.section == nil
                && (try? BrowserTests.sceneFile(fixture))?["ContentView.selectionLine"] as? Int ?? 0 > 10
        }
        #expect(scrolled.row(at: 0) == firstHeader, "\(scrolled)")
        // ] jumps to the next day (issue 31): its header at the top of the list, the first quake
        // under it selected, the day's quakes below.
        try fixture.tmux.send(pane, "]")
        let next = try fixture.tmux.waitForScreen(pane, "the next section") { screen in
            screen.row(at: 0)?.section != nil && screen.row(at: 0) != firstHeader
        }
        let file = try Self.selected(fixture) { $0["ContentView.selectedSection"] as? String == "" && $0["ContentView.selectionLine"] as? Int == 1 }
        #expect(file["ContentView.selectionLine"] as? Int == 1, "the first quake right under the header:\n\(next)")
        let below = next.rows.dropFirst().prefix(25)
        #expect(below.count == 25 && below.allSatisfy { $0.section == nil }, "one day fills the list:\n\(next)")
        // [ twice: back to the first quake of the first day.
        try fixture.tmux.send(pane, "[", "[")
        _ = try Self.selected(fixture) { $0["ContentView.selectedQuake"] as? String == top["ContentView.selectedQuake"] as? String }
        try fixture.tmux.send(pane, "q")
        #expect(try fixture.tmux.waitForExit(pane) == 0)
    }

    @Test func oOpensTheEventPageWithBrowserAndYCopiesItThroughTheTerminal() throws {
        let fixture = try Fixture(columns: 120, rows: 24)
        defer { fixture.close() }
        try fixture.tmux.command("set-option", "-g", "set-clipboard", "on")
        let opened = fixture.dir.appending("opened.txt")
        let script = fixture.dir.appending("browser.sh")
        try "printf '%s' \"$1\" > '\(opened.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        // Read by `sh`, not executed (see SuspendTests: "Text file busy" under parallel tests).
        let pane = try fixture.tmux.start(QuaketuiBinary.url.path, ["--state-dir", fixture.dir.path, "--scene", "a"],
                                          environment: BrowserTests.offline.merging(["BROWSER": "/bin/sh \(script.path)"]) { $1 })
        try fixture.tmux.waitForScreen(pane, "the first frame") { $0.header.isOf(scene: "a") }
        // The launch's own selection reaches the scene file first: wait for it, then for j's.
        let first = try #require(try Self.selected(fixture) { $0["ContentView.selectedQuake"] as? String != "" }["ContentView.selectedQuake"] as? String)
        try fixture.tmux.send(pane, "j", "o")
        // After `j` (the launch itself saves the first row, on line 1): the second row, on line 2.
        let code = try #require(try Self.selected(fixture) {
            $0["ContentView.selectionLine"] as? Int == 2 && $0["ContentView.selectedQuake"] as? String != first
        }["ContentView.selectedQuake"] as? String)
        let url = "https://earthquake.usgs.gov/earthquakes/eventpage/\(code)"
        #expect(eventually(timeout: 10) { (try? String(contentsOf: opened, encoding: .utf8)) == url })
        try fixture.tmux.waitForScreen(pane, "the status line") { $0.status.message == "Opened \(url) with sh" }
        try fixture.tmux.send(pane, "y")
        try fixture.tmux.waitForScreen(pane, "what was copied") { $0.status.message?.hasPrefix("Copied \(url) ") == true }
        #expect(eventually(timeout: 10) { (try? fixture.tmux.command("show-buffer")) == url })
        try fixture.tmux.send(pane, "q")
        #expect(try fixture.tmux.waitForExit(pane) == 0)

        // No $BROWSER and no xdg-open on PATH: the status line says so and shows the address.
        let bare = try fixture.tmux.start(QuaketuiBinary.url.path, ["--state-dir", fixture.dir.path, "--scene", "b"],
                                          environment: BrowserTests.offline.merging(["BROWSER": "", "PATH": "/nonexistent"]) { $1 })
        try fixture.tmux.waitForScreen(bare, "the first frame") { $0.header.isOf(scene: "b") }
        try fixture.tmux.send(bare, "j")
        let second = try #require(try Self.selected(fixture, "b") { $0["ContentView.selectionLine"] as? Int == 2 }["ContentView.selectedQuake"] as? String)
        try fixture.tmux.send(bare, "o", "L")
        let address = "https://earthquake.usgs.gov/earthquakes/eventpage/\(second)"
        try fixture.tmux.waitForScreen(bare, "the message log with the address") { screen in
            guard screen.overlay?.title == "Messages, newest first", let entry = screen.overlay?.entries.first else { return false }
            return entry.hasPrefix("No browser found (tried ") && entry.hasSuffix("): set BROWSER, or copy the address with y: \(address)")
        }
    }

    @Test func theColonCommandLineFiltersWithHistoryAndTheLogKeepsEveryMessage() throws {
        let fixture = try Fixture(columns: 130, rows: 30)
        defer { fixture.close() }
        let pane = try fixture.launch()
        let before = try fixture.tmux.waitForScreen(pane, "the count") { $0.header.count?.hasSuffix(" quakes") == true }
        let all = try #require(before.header.count)
        try fixture.tmux.send(pane, ":")
        try fixture.tmux.send(pane, "depth 0-1", literal: true)
        try fixture.tmux.waitForScreen(pane, "the prompt") { $0.commandLine == ":depth 0-1▏" }
        try fixture.tmux.send(pane, "Enter")
        let filtered = try fixture.tmux.waitForScreen(pane, "the filter in the header") { $0.header.filters == ":depth 0-1" }
        #expect(filtered.header.count != all, "\(filtered)")
        _ = try Self.selected(fixture) { ($0["ContentView.filters"] as? [String]) == ["depth 0-1"] }
        try fixture.tmux.send(pane, ":")
        try fixture.tmux.send(pane, "dpeth 5", literal: true)
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.waitForScreen(pane, "the unknown command") { $0.status.message?.hasPrefix("Unknown command “dpeth”. ") == true }
        // ↑ recalls the history, newest first.
        try fixture.tmux.send(pane, ":", "Up", "Up")
        try fixture.tmux.waitForScreen(pane, "the history") { $0.commandLine == ":depth 0-1▏" }
        try fixture.tmux.send(pane, "Escape", ":")
        try fixture.tmux.send(pane, "clear", literal: true)
        try fixture.tmux.send(pane, "Enter")
        let cleared = try fixture.tmux.waitForScreen(pane, "no filter") { $0.header.filters == nil && $0.header.count == all }
        #expect(cleared.header.segments == before.header.segments, "\(cleared)")
        // The log has every message, the long error whole, newest first.
        // (Waiting for the entries themselves: tmux can show the overlay's title before its body.)
        try fixture.tmux.send(pane, "L")
        let log = try fixture.tmux.waitForScreen(pane, "the log with every message") { $0.overlay?.entries.count ?? 0 >= 3 }
        let entries = try #require(log.overlay?.entries)
        #expect(log.overlay?.title == "Messages, newest first")
        #expect(entries[0] == "No filters: \(all)", "\(entries)")
        #expect(entries[1].hasPrefix("Unknown command “dpeth”. Did you mean :depth? The command line accepts "), "\(entries)")
        #expect(entries[2] == "Filters depth 0-1: \(filtered.header.count!); :clear removes them", "\(entries)")
        try fixture.tmux.send(pane, "Escape")
        try fixture.tmux.waitForScreen(pane, "the log closed") { $0.overlay == nil }
    }

    @Test func notesChangedInAnotherPaneAreNotOverwrittenSilently() throws {
        let fixture = try Fixture(columns: 130)
        defer { fixture.close() }
        let paneA = try fixture.launch(scene: "a")
        let paneB = try fixture.launch(scene: "b")
        try fixture.tmux.send(paneA, "j", "Enter", "3", "e")
        try fixture.tmux.send(paneA, "mine", literal: true)
        try fixture.tmux.waitForScreen(paneA, "the draft") { $0.notes == Screen.Notes(heading: "Editing notes (unsaved)", lines: ["mine"]) }
        // A's activity reaches the state directory a moment after its frame (its writes are
        // coalesced): on a loaded machine B may ask first and hear that no pane has shown a
        // quake yet. Like a user, it asks again.
        var handedOff = false
        for _ in 0..<15 where !handedOff {
            try fixture.tmux.send(paneB, "H")
            handedOff = (try? fixture.tmux.waitForScreen(paneB, timeout: 2, "the handoff") { $0.detailTabs != nil }) != nil
        }
        try #require(handedOff, "B never took A's quake over")
        try fixture.tmux.send(paneB, "3", "e")
        try fixture.tmux.send(paneB, "theirs", literal: true)
        try fixture.tmux.send(paneB, "C-s")
        try fixture.tmux.waitForScreen(paneB, "B saved") { $0.status.message == "Notes saved" }
        try fixture.tmux.send(paneA, "C-s")
        let code = try #require(try BrowserTests.sceneFile(fixture, "a")["ContentView.selectedQuake"] as? String)
        try fixture.tmux.waitForScreen(paneA, "the question") { Self.isConflictQuestion($0.status.message, code) }
        try fixture.tmux.send(paneA, "b")
        try fixture.tmux.waitForScreen(paneA, "both saved") { $0.status.message == "Notes saved" }
        // Both panes show both texts, theirs first.
        for pane in [paneA, paneB] {
            try fixture.tmux.waitForScreen(pane, timeout: 10, "both notes") { $0.notes?.lines == Self.bothNotes }
        }
        // Keep theirs: A starts an edit, B saves meanwhile; A's edit is dropped, B's text stays.
        try fixture.tmux.send(paneA, "e")
        try fixture.tmux.send(paneA, "X", literal: true)
        try fixture.tmux.waitForScreen(paneA, "A's draft") { $0.notes?.heading == "Editing notes (unsaved)" && $0.notes?.lines.last == "mineX" }
        try fixture.tmux.send(paneB, "e")
        try fixture.tmux.send(paneB, " again", literal: true)
        try fixture.tmux.send(paneB, "C-s")
        try fixture.tmux.waitForScreen(paneB, "B saved again") {
            $0.status.message == "Notes saved" && $0.notes?.lines.last == "mine again"
        }
        try fixture.tmux.send(paneA, "C-s")
        try fixture.tmux.waitForScreen(paneA, "the second question") { Self.isConflictQuestion($0.status.message, code) }
        try fixture.tmux.send(paneA, "t")
        try fixture.tmux.waitForScreen(paneA, "theirs kept") {
            $0.status.message == "Kept the notes saved in the other pane; yours were discarded"
                && $0.notes?.lines.last == "mine again"
        }
    }

    /// `Q`'s question on the status line.
    static let closeQuestion = "Close this scene and delete its saved state? y closes it, n or Esc keeps it"

    /// The notes tab after both texts were saved: theirs first.
    static let bothNotes = ["theirs", "mine"]

    /// The status line's question when the notes of `code` changed in another pane since the
    /// edit began (cut at the line's width).
    static func isConflictQuestion(_ message: String?, _ code: String) -> Bool {
        message?.hasPrefix("The notes of \(code) changed in another pane since you began: m keeps mine, t keeps theirs, b keeps b") == true
    }

    @Test func escOnAChangedDraftAndQAskFirst() throws {
        let fixture = try Fixture(columns: 130)
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "j", "Enter", "3", "e")
        try fixture.tmux.send(pane, "keep me", literal: true)
        try fixture.tmux.send(pane, "Escape")
        try fixture.tmux.waitForScreen(pane, "the question") {
            $0.status.message == "Discard the changes to these notes? y discards, n or Esc keeps editing"
        }
        try fixture.tmux.send(pane, "n")
        try fixture.tmux.send(pane, "!", literal: true)
        try fixture.tmux.waitForScreen(pane, "still editing") { $0.notes == Screen.Notes(heading: "Editing notes (unsaved)", lines: ["keep me!"]) }
        try fixture.tmux.send(pane, "Escape", "y")
        let discarded = try fixture.tmux.waitForScreen(pane, "discarded") { $0.status.message == "Changes to the notes discarded" }
        #expect(discarded.notes == BrowserTests.noNotes, "\(discarded)")
        // Esc on an unchanged draft just closes it.
        try fixture.tmux.send(pane, "e", "Escape")
        try fixture.tmux.waitForScreen(pane, "closed") {
            $0.notes == BrowserTests.noNotes && $0.status.message?.hasPrefix("Discard") != true
        }
        try fixture.tmux.send(pane, "Q")
        try fixture.tmux.waitForScreen(pane, "the Q question") { $0.status.message == Self.closeQuestion }
        try fixture.tmux.send(pane, "Escape")
        try fixture.tmux.waitForScreen(pane, "kept") { $0.status.message != Self.closeQuestion }
        #expect(FileManager.default.fileExists(atPath: fixture.dir.appending("scenes/a.plist").path))
        try fixture.tmux.send(pane, "Q", "y")
        #expect(try fixture.tmux.waitForExit(pane) == 0)
        #expect(!FileManager.default.fileExists(atPath: fixture.dir.appending("scenes/a.plist").path))
    }

    @Test func openOfAQuakeHiddenByTheMinimumMagnitudeSaysSoAndAFilterIsLifted() throws {
        let fixture = try Fixture(columns: 130)
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "m")
        try fixture.tmux.waitForScreen(pane, "M ≥ 2.5") { $0.header.minimumMagnitude == "M ≥ 2.5" }
        let small = try QuaketuiBinary.run(["open", "ci38197512", "--scene", "a"], stateDirectory: fixture.dir.url)
        #expect(small.status == 0, "\(small.stderr)")
        try fixture.tmux.waitForScreen(pane, "what hides it") {
            $0.status.message?.hasPrefix("Quake ci38197512 (M 0.6) is hidden by the minimum magnitude 2.5") == true
        }
        try fixture.tmux.send(pane, "m", "m", "m")
        try fixture.tmux.waitForScreen(pane, "all magnitudes") { $0.header.segments == ["quaketui", "4,711 quakes", "sort time ↓"] }
        try fixture.tmux.send(pane, ":")
        try fixture.tmux.send(pane, "depth 500-600", literal: true)
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.waitForScreen(pane, "the filter") { $0.header.filters == ":depth 500-600" }
        _ = try QuaketuiBinary.run(["open", "ci38197512", "--scene", "a"], stateDirectory: fixture.dir.url)
        try fixture.tmux.waitForScreen(pane, "the filter lifted") {
            $0.status.message?.hasPrefix("Cleared the filters depth 500-600 to show quake ci38197512") == true
                && $0.header.segments == ["quaketui", "4,711 quakes", "sort time ↓"]
        }
    }
}
