import Foundation
import QuakeTestSupport
import Testing

/// Issue 15 in a real terminal: navigation as in less/vim/lazygit, `o`/`y`, the `:` command
/// line, the message log, and questions before work is lost. Whole screens are read with
/// capture-pane and every wait is on a condition (the screen, a file, a tmux buffer).
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct BrowserFeelTests {
    typealias Fixture = BrowserTests.Fixture

    /// The screen's lines, each without the scrollbar thumb that may sit in its last column.
    static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("┃") ? $0.dropLast() : $0).trimmingCharacters(in: .whitespaces)
        }
    }

    static func selected(_ fixture: Fixture, _ scene: String = "a", _ condition: @escaping ([String: Any]) -> Bool) throws
        -> [String: Any] {
        try BrowserTests.waitForSceneFile(fixture, scene: scene, condition)
    }

    @Test func keysLandOnQuakesAndTheTopRowsSectionHeaderSticks() throws {
        let fixture = try Fixture(columns: 100, rows: 30)
        defer { fixture.close() }
        let pane = try fixture.launch()
        // Line 1 names the columns; the list starts on line 2.
        let first = try fixture.tmux.waitFor(pane, "the first section") { Self.lines($0)[2].hasPrefix("▾ ") }
        let firstHeader = Self.lines(first)[2]
        // The first day holds enough quakes that four half pages stay inside it.
        let count = Int(firstHeader.split(separator: "(").last?.prefix { $0.isNumber } ?? "") ?? 0
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
        let scrolled = try fixture.tmux.waitFor(pane, "the sticky header") { screen in
            let lines = Self.lines(screen)
            return lines[2] == firstHeader && !lines[3].hasPrefix("▾ ")
                && (try? BrowserTests.sceneFile(fixture))?["ContentView.selectionLine"] as? Int ?? 0 > 10
        }
        #expect(Self.lines(scrolled)[2] == firstHeader, "\(scrolled)")
        // ] jumps to the next day (issue 31): its header at the top of the list, the first quake
        // under it selected, the day's quakes below.
        try fixture.tmux.send(pane, "]")
        let next = try fixture.tmux.waitFor(pane, "the next section") { screen in
            Self.lines(screen)[2].hasPrefix("▾ ") && Self.lines(screen)[2] != firstHeader
        }
        let file = try Self.selected(fixture) { $0["ContentView.selectedSection"] as? String == "" && $0["ContentView.selectionLine"] as? Int == 1 }
        #expect(file["ContentView.selectionLine"] as? Int == 1, "the first quake right under the header:\n\(next)")
        #expect(!Self.lines(next)[3...27].contains { $0.hasPrefix("▾ ") }, "one day fills the list:\n\(next)")
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
        try fixture.tmux.waitFor(pane, "the first frame") { $0.contains("scene a") }
        // The launch's own selection reaches the scene file first: wait for it, then for j's.
        let first = try #require(try Self.selected(fixture) { $0["ContentView.selectedQuake"] as? String != "" }["ContentView.selectedQuake"] as? String)
        try fixture.tmux.send(pane, "j", "o")
        // After `j` (the launch itself saves the first row, on line 1): the second row, on line 2.
        let code = try #require(try Self.selected(fixture) {
            $0["ContentView.selectionLine"] as? Int == 2 && $0["ContentView.selectedQuake"] as? String != first
        }["ContentView.selectedQuake"] as? String)
        let url = "https://earthquake.usgs.gov/earthquakes/eventpage/\(code)"
        #expect(eventually(timeout: 10) { (try? String(contentsOf: opened, encoding: .utf8)) == url })
        try fixture.tmux.waitFor(pane, "the status line") { $0.contains("Opened \(url) with") }
        try fixture.tmux.send(pane, "y")
        try fixture.tmux.waitFor(pane, "what was copied") { $0.contains("Copied \(url)") }
        #expect(eventually(timeout: 10) { (try? fixture.tmux.command("show-buffer")) == url })
        try fixture.tmux.send(pane, "q")
        #expect(try fixture.tmux.waitForExit(pane) == 0)

        // No $BROWSER and no xdg-open on PATH: the status line says so and shows the address.
        let bare = try fixture.tmux.start(QuaketuiBinary.url.path, ["--state-dir", fixture.dir.path, "--scene", "b"],
                                          environment: BrowserTests.offline.merging(["BROWSER": "", "PATH": "/nonexistent"]) { $1 })
        try fixture.tmux.waitFor(bare, "the first frame") { $0.contains("scene b") }
        try fixture.tmux.send(bare, "j", "o", "L")
        try fixture.tmux.waitFor(bare, "the message log with the address") {
            $0.contains("Messages, newest first") && $0.contains("No browser found")
                && $0.replacingOccurrences(of: "\n", with: "").contains("eventpage")
        }
    }

    @Test func theColonCommandLineFiltersWithHistoryAndTheLogKeepsEveryMessage() throws {
        let fixture = try Fixture(columns: 130, rows: 30)
        defer { fixture.close() }
        let pane = try fixture.launch()
        let before = try fixture.tmux.waitFor(pane, "the count") { BrowserTests.count($0).hasSuffix("quakes") }
        let all = BrowserTests.count(before)
        try fixture.tmux.send(pane, ":")
        try fixture.tmux.send(pane, "depth 0-1", literal: true)
        try fixture.tmux.waitFor(pane, "the prompt") { Self.lines($0).contains { $0.hasPrefix(":depth 0-1▏") } }
        try fixture.tmux.send(pane, "Enter")
        let filtered = try fixture.tmux.waitFor(pane, "the filter in the header") { BrowserTests.header($0).contains(":depth 0-1") }
        #expect(BrowserTests.count(filtered) != all, "\(filtered)")
        _ = try Self.selected(fixture) { ($0["ContentView.filters"] as? [String]) == ["depth 0-1"] }
        try fixture.tmux.send(pane, ":")
        try fixture.tmux.send(pane, "dpeth 5", literal: true)
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.waitFor(pane, "the unknown command") { $0.contains("Unknown command “dpeth”") }
        // ↑ recalls the history, newest first.
        try fixture.tmux.send(pane, ":", "Up", "Up")
        try fixture.tmux.waitFor(pane, "the history") { Self.lines($0).contains { $0.hasPrefix(":depth 0-1▏") } }
        try fixture.tmux.send(pane, "Escape", ":")
        try fixture.tmux.send(pane, "clear", literal: true)
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.waitFor(pane, "no filter") { !BrowserTests.header($0).contains(":depth") && BrowserTests.count($0) == all }
        // The log has every message, the long error whole.
        // (Waiting for the parts themselves: tmux can show the overlay's title before its body.)
        try fixture.tmux.send(pane, "L")
        let parts = ["No filters", "Unknown command “dpeth”", ":clear", "Filters depth 0-1"]
        try fixture.tmux.waitFor(pane, "the log with every message") { screen in
            let text = screen.replacingOccurrences(of: "\n", with: " ")
            return text.contains("Messages, newest first") && parts.allSatisfy(text.contains)
        }
        try fixture.tmux.send(pane, "Escape")
        try fixture.tmux.waitFor(pane, "the log closed") { !$0.contains("Messages, newest first") }
    }

    @Test func notesChangedInAnotherPaneAreNotOverwrittenSilently() throws {
        let fixture = try Fixture(columns: 130)
        defer { fixture.close() }
        let paneA = try fixture.launch(scene: "a")
        let paneB = try fixture.launch(scene: "b")
        try fixture.tmux.send(paneA, "j", "Enter", "3", "e")
        try fixture.tmux.send(paneA, "mine", literal: true)
        try fixture.tmux.waitFor(paneA, "the draft") { $0.contains("mine") }
        // A's activity reaches the state directory a moment after its frame (its writes are
        // coalesced): on a loaded machine B may ask first and hear that no pane has shown a
        // quake yet. Like a user, it asks again.
        var handedOff = false
        for _ in 0..<15 where !handedOff {
            try fixture.tmux.send(paneB, "H")
            handedOff = (try? fixture.tmux.waitFor(paneB, timeout: 2, "the handoff") { $0.contains("1 Detail") }) != nil
        }
        try #require(handedOff, "B never took A's quake over")
        try fixture.tmux.send(paneB, "3", "e")
        try fixture.tmux.send(paneB, "theirs", literal: true)
        try fixture.tmux.send(paneB, "C-s")
        try fixture.tmux.waitFor(paneB, "B saved") { $0.contains("Notes saved") }
        try fixture.tmux.send(paneA, "C-s")
        try fixture.tmux.waitFor(paneA, "the question") { $0.contains("changed in another pane") }
        try fixture.tmux.send(paneA, "b")
        try fixture.tmux.waitFor(paneA, "both saved") { $0.contains("Notes saved") }
        // Both panes show both texts, theirs first.
        for pane in [paneA, paneB] {
            try fixture.tmux.waitFor(pane, timeout: 10, "both notes") { screen in
                let lines = Self.lines(screen)
                guard let theirs = lines.firstIndex(where: { $0.contains("theirs") }),
                      let mine = lines.firstIndex(where: { $0.contains("mine") }) else { return false }
                return theirs < mine
            }
        }
        // Keep theirs: A starts an edit, B saves meanwhile; A's edit is dropped, B's text stays.
        try fixture.tmux.send(paneA, "e")
        try fixture.tmux.send(paneA, "X", literal: true)
        try fixture.tmux.waitFor(paneA, "A's draft") { $0.contains("mineX") }
        try fixture.tmux.send(paneB, "e")
        try fixture.tmux.send(paneB, " again", literal: true)
        try fixture.tmux.send(paneB, "C-s")
        try fixture.tmux.waitFor(paneB, "B saved again") { $0.contains("Notes saved") && $0.contains("mine again") }
        try fixture.tmux.send(paneA, "C-s")
        try fixture.tmux.waitFor(paneA, "the second question") { $0.contains("changed in another pane") }
        try fixture.tmux.send(paneA, "t")
        try fixture.tmux.waitFor(paneA, "theirs kept") { $0.contains("Kept the notes saved in the other pane") && $0.contains("again") }
    }

    @Test func escOnAChangedDraftAndQAskFirst() throws {
        let fixture = try Fixture(columns: 130)
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "j", "Enter", "3", "e")
        try fixture.tmux.send(pane, "keep me", literal: true)
        try fixture.tmux.send(pane, "Escape")
        try fixture.tmux.waitFor(pane, "the question") { $0.contains("Discard the changes to these notes?") }
        try fixture.tmux.send(pane, "n")
        try fixture.tmux.send(pane, "!", literal: true)
        try fixture.tmux.waitFor(pane, "still editing") { $0.contains("keep me!") && $0.contains("Editing notes") }
        try fixture.tmux.send(pane, "Escape", "y")
        try fixture.tmux.waitFor(pane, "discarded") { $0.contains("Changes to the notes discarded") && !$0.contains("keep me") }
        // Esc on an unchanged draft just closes it.
        try fixture.tmux.send(pane, "e", "Escape")
        try fixture.tmux.waitFor(pane, "closed") { !$0.contains("Editing notes") && !$0.contains("Discard") }
        try fixture.tmux.send(pane, "Q")
        try fixture.tmux.waitFor(pane, "the Q question") { $0.contains("Close this scene and delete its saved state?") }
        try fixture.tmux.send(pane, "Escape")
        try fixture.tmux.waitFor(pane, "kept") { !$0.contains("Close this scene") }
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
        try fixture.tmux.waitFor(pane, "M ≥ 2.5") { BrowserTests.header($0).contains("M ≥ 2.5") }
        let small = try QuaketuiBinary.run(["open", "ci38197512", "--scene", "a"], stateDirectory: fixture.dir.url)
        #expect(small.status == 0, "\(small.stderr)")
        try fixture.tmux.waitFor(pane, "what hides it") {
            $0.contains("Quake ci38197512 (M 0.6) is hidden by the minimum magnitude 2.5")
        }
        try fixture.tmux.send(pane, "m", "m", "m")
        try fixture.tmux.waitFor(pane, "all magnitudes") { !BrowserTests.header($0).contains("M ≥") }
        try fixture.tmux.send(pane, ":")
        try fixture.tmux.send(pane, "depth 500-600", literal: true)
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.waitFor(pane, "the filter") { BrowserTests.header($0).contains(":depth 500-600") }
        _ = try QuaketuiBinary.run(["open", "ci38197512", "--scene", "a"], stateDirectory: fixture.dir.url)
        try fixture.tmux.waitFor(pane, "the filter lifted") {
            $0.contains("Cleared the filters depth 500-600 to show quake ci38197512") && !BrowserTests.header($0).contains(":depth")
        }
    }
}
