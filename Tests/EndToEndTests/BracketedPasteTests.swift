import Foundation
import Glibc
import QuakeTestSupport
import Testing

/// Issue 28.2 in a real terminal: a paste is text (bracketed paste, mode 2004), never keys.
/// `tmux paste-buffer -p` sends the paste bracketed when the program turned mode 2004 on. Each
/// paste in pane A is compared, whole screen, with pane B (another scene on the same store)
/// where the cleaned text was typed by hand.
@Suite(.waitsOnProcesses, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct BracketedPasteTests {
    struct Panes: TmuxFixture {
        let dir: TemporaryDirectory
        let tmux: TmuxSession
        let a: String
        let b: String

        init() throws {
            dir = try TemporaryDirectory()
            tmux = try TmuxSession(columns: 110, rows: 28)
            let environment = TerminalResizeTests.offline
            a = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", dir.path + "/s", "--scene", "a"], environment: environment)
            try tmux.waitForScreen(a, timeout: 20, "pane a") { $0.header.isOf(scene: "a") && $0.header.badges.last == "offline" }
            b = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", dir.path + "/s", "--scene", "b"], environment: environment)
            try tmux.waitForScreen(b, timeout: 20, "pane b") { $0.header.isOf(scene: "b") && $0.header.badges.last == "offline" }
            // Both past their launch: the same status line.
            for pane in [a, b] { try tmux.send(pane, "j") }
        }

        /// Waits until both panes show the same settled screen (the scene's name aside); returns it.
        @discardableResult
        func same(_ what: String, withStatusLine: Bool = true, _ condition: (Screen) -> Bool = { _ in true }) throws -> Screen {
            var screens = (Screen(""), Screen(""))
            let equal = eventually(timeout: 20) {
                screens = ((try? tmux.screen(a)) ?? Screen(""), (try? tmux.screen(b)) ?? Screen(""))
                return screens.0.isSettled && screens.1.isSettled && condition(screens.0)
                    && Self.normal(screens.0.text, withStatusLine) == Self.normal(screens.1.text, withStatusLine)
            }
            #expect(equal, "\(what): pane a (pasted):\n\(screens.0)\npane b (typed):\n\(screens.1)")
            #expect((try? tmux.exitStatus(a)) == nil, "\(what): pane a exited")
            return screens.0
        }

        static func normal(_ screen: String, _ withStatusLine: Bool) -> [String] {
            let text = screen.replacingOccurrences(of: "scene a", with: "scene ?").replacingOccurrences(of: "scene b", with: "scene ?")
            var lines = RestoreWalkEndToEndTests.masked(text + "\n")
            if withStatusLine { lines.append(String(text.split(separator: "\n", omittingEmptySubsequences: false).last ?? "")) }
            return lines
        }
    }

    @Test func aPasteGoesWholeIntoTheFieldBeingEdited() throws {
        let panes = try Panes()
        defer { panes.close() }
        let tmux = panes.tmux
        try panes.same("both launched")

        // The search: a paste with a line break, escape codes and a q is text; `a` never runs.
        try tmux.send(panes.a, "/")
        try panes.tmux.paste(panes.a, "Tokyo\nJapan\u{1B}[A q")
        try tmux.send(panes.b, "/")
        try tmux.send(panes.b, "Tokyo Japan[A q", literal: true)
        try panes.same("the search", withStatusLine: false) { $0.header.search == "/Tokyo Japan[A q▏" }
        try tmux.send(panes.a, "C-u")
        try tmux.send(panes.b, "C-u")
        try panes.tmux.paste(panes.a, "Jap\r\nan", keepLineFeeds: true)
        try tmux.send(panes.b, "Jap an", literal: true)
        try panes.same("the search, CR LF kept", withStatusLine: false) { $0.header.search == "/Jap an▏" }

        // Nothing being edited: the paste does nothing but say so (no quit, no setting changed).
        for pane in [panes.a, panes.b] { try tmux.send(pane, "Escape") }
        let closed = try panes.same("the search closed", withStatusLine: false) { $0.header.search == nil }
        try panes.tmux.paste(panes.a, "qQm@a")
        let ignored = try tmux.waitForScreen(panes.a, "the paste ignored") {
            $0.status.message == "Paste ignored: nothing is being edited (/ search, : command line, e notes)"
        }
        #expect(try tmux.exitStatus(panes.a) == nil)
        #expect(ignored.header == closed.header, "\(ignored)")
        try panes.same("the list after an ignored paste", withStatusLine: false)

        // The `:` line: one line, the text at the cursor.
        for pane in [panes.a, panes.b] { try tmux.send(pane, ":") }
        try panes.tmux.paste(panes.a, "depth 10-\n20")
        try tmux.send(panes.b, "depth 10- 20", literal: true)
        try panes.same("the command line") { $0.commandLine == ":depth 10- 20▏" }
        for pane in [panes.a, panes.b] { try tmux.send(pane, "Escape") }

        // The notes: line breaks stay, a tab is the Tab key's four spaces, controls go.
        for pane in [panes.a, panes.b] { try tmux.send(pane, "g", "e") }
        try panes.same("the notes editor") { $0.notes == Screen.Notes(heading: "Editing notes", lines: []) }
        try panes.tmux.paste(panes.a, "line one\r\nline\u{7}two\tend", keepLineFeeds: true)
        try tmux.send(panes.b, "line one", literal: true)
        try tmux.send(panes.b, "Enter")
        try tmux.send(panes.b, "linetwo", literal: true)
        try tmux.send(panes.b, "Tab")
        try tmux.send(panes.b, "end", literal: true)
        try panes.same("the notes") { $0.notes?.lines == ["line one", "linetwo    end"] }

        // Mode 2004 is off once the browser has quit: a paste into the pane (the tty echoes it)
        // comes without the brackets (`^[[200~`) it had while the browser ran.
        try tmux.send(panes.a, "C-s")
        try tmux.waitForScreen(panes.a, "the notes saved") { $0.status.message == "Notes saved" }
        try tmux.send(panes.a, "q")
        #expect(try tmux.waitForExit(panes.a) == 0)
        try panes.tmux.paste(panes.a, "after-quit")
        // All the pane shows is the paste, without brackets.
        try tmux.waitForScreen(panes.a, "the echoed paste") { $0.textLines == ["after-quit"] }
    }
}
