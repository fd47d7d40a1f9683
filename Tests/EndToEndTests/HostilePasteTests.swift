import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 57 (points 1, 6, 7): pastes at their worst in a real terminal. The paste is the bytes
/// `tmux paste-buffer -p` writes (bracketed, since the browser turned mode 2004 on), loaded from a
/// file so that they may be any bytes, invalid UTF-8 and fake end markers included.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct HostilePasteTests {
    struct Browser: TmuxFixture {
        let dir: TemporaryDirectory
        let tmux: TmuxSession
        let pane: String

        init() throws {
            dir = try TemporaryDirectory()
            let imported = try QuaketuiBinary.run(["import", "-"], stateDirectory: dir.url.appendingPathComponent("s"),
                                                  stdin: TerminalEnvironmentTests.feed)
            #expect(imported.status == 0, "\(imported.stderr)")
            tmux = try TmuxSession(columns: 120, rows: 16)
            pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", dir.path + "/s", "--scene", "p"],
                                  environment: TerminalEnvironmentTests.offline)
            try tmux.waitForScreen(pane, timeout: 20, "the first frame") { $0.header.isOf(scene: "p") && $0.quakeRows.map(\.place) == Self.places }
        }

        /// The feed's places, newest first: the whole list.
        static let places = ["12 km SW of Suárez, Colombia", "6 km S of Pāhala, Hawaii", "10 km N of Bend, Oregon"]

        /// The notes stored for any quake, one per line of the answer's array.
        func storedNotes() throws -> [String] {
            let connection = try Connection(path: dir.path + "/s/quakes.sqlite", create: false)
            defer { connection.close() }
            let count = try connection.scalar("SELECT count(*) FROM quake WHERE coalesce(notes, '') != ''").int64 ?? 0
            let notes = try connection.scalar("SELECT notes FROM quake WHERE coalesce(notes, '') != ''").string
            return count == 1 ? [notes ?? ""] : Array(repeating: "(\(count) quakes have notes)", count: Int(count))
        }

        /// Waits up to `seconds` for the browser to exit; returns its status (nil: still running).
        func quits(within seconds: TimeInterval, _ what: String) throws -> Int32? {
            let exited = eventually(timeout: seconds) { (try? tmux.exitStatus(pane)) != nil }
            let status = exited ? try tmux.exitStatus(pane) : nil
            #expect(status != nil, "\(what): still running \(seconds) s after q:\n\((try? tmux.capture(pane)) ?? "")")
            return status
        }
    }

    static let invalid: [UInt8] = Array("ZW".utf8) + [0x00] + Array("N".utf8) + [0x9B] + Array("AFTER\nline3".utf8)

    /// Point 6: an invalid byte is one U+FFFD, and what follows it is kept (the search, the notes).
    @Test func anInvalidByteInAPasteKeepsEverythingAfterIt() throws {
        let browser = try Browser()
        defer { browser.close() }
        let tmux = browser.tmux
        try tmux.send(browser.pane, "/")
        try browser.tmux.paste(browser.pane, bytes: Self.invalid, through: browser.dir.url)
        try tmux.waitForScreen(browser.pane, timeout: 10, "the whole paste in the search") { $0.header.search == "/ZWN\u{FFFD}AFTER line3▏" }
        try tmux.send(browser.pane, "Escape")
        try tmux.send(browser.pane, "C-u")
        try tmux.send(browser.pane, "Escape")
        try tmux.waitForScreen(browser.pane, "the search cleared") { $0.header.search == nil && $0.quakeRows.map(\.place) == Browser.places }

        try tmux.send(browser.pane, "g", "e")
        try tmux.waitForScreen(browser.pane, "the notes editor") { $0.notes == Screen.Notes(heading: "Editing notes", lines: []) }
        try browser.tmux.paste(browser.pane, bytes: Self.invalid, through: browser.dir.url)
        try tmux.waitForScreen(browser.pane, timeout: 10, "the whole paste in the notes") {
            $0.notes == Screen.Notes(heading: "Editing notes (unsaved)", lines: ["ZWN\u{FFFD}AFTER", "line3"])
        }
        try tmux.send(browser.pane, "C-s")
        try tmux.waitForScreen(browser.pane, "the notes saved") { $0.status.message == "Notes saved" }
        #expect(try browser.storedNotes() == ["ZWN\u{FFFD}AFTER\nline3"])
        try tmux.send(browser.pane, "q")
        #expect(try tmux.waitForExit(browser.pane) == 0)
    }

    /// Point 7: an end-of-paste marker inside the pasted text ends nothing: the `s` after it is
    /// text (ignored with the rest, as no field is being edited), not the sort key.
    @Test func aFakeEndMarkerInAPasteRunsNothingAsKeys() throws {
        let browser = try Browser()
        defer { browser.close() }
        let tmux = browser.tmux
        let before = try tmux.waitForScreen(browser.pane, "the list") { $0.header.sort == "sort time ↓" }
        try browser.tmux.paste(browser.pane, bytes: Array("zz\u{1B}[201~s".utf8), through: browser.dir.url)
        let after = try tmux.waitForScreen(browser.pane, timeout: 10, "the paste ignored") {
            $0.status.message == "Paste ignored: nothing is being edited (/ search, : command line, e notes)"
        }
        // The `s` after the marker sorted nothing: the same order, the same list.
        #expect(after.header.sort == "sort time ↓" && after.rows == before.rows, "before:\n\(before)\nafter:\n\(after)")
        // In the search, the whole paste is text: the marker's ESC dropped as a control, the rest kept.
        try tmux.send(browser.pane, "/")
        try browser.tmux.paste(browser.pane, bytes: Array("zz\u{1B}[201~sQ".utf8), through: browser.dir.url)
        try tmux.waitForScreen(browser.pane, timeout: 10, "the paste in the search") { $0.header.search == "/zz[201~sQ▏" }
        try tmux.send(browser.pane, "Escape")
        try tmux.send(browser.pane, "q")
        #expect(try tmux.waitForExit(browser.pane) == 0)
    }

    /// Point 1: a megabyte pasted into the `:` line, the search and the notes: each is drawn and
    /// the browser quits on `q` within a second of it.
    @Test(arguments: ["command", "search", "notes"])
    func aMegabytePasteLeavesTheBrowserAnswering(_ field: String) throws {
        let browser = try Browser()
        defer { browser.close() }
        let tmux = browser.tmux
        // 1 MiB of eight-byte words, a line break every 64 of them (the last word left out, so
        // that "END" fits in the decoder's `pasteLimit`).
        let megabyte: [UInt8] = (0..<(1 << 20) / 8 - 1).flatMap { (index: Int) -> [UInt8] in
            Array((index % 64 == 63 ? "mag 7-\n" : "mag 7- ").utf8) + [0x20]
        }
        switch field {
        case "command": try tmux.send(browser.pane, ":")
        case "search": try tmux.send(browser.pane, "/")
        default:
            try tmux.send(browser.pane, "g", "e")
            try tmux.waitForScreen(browser.pane, "the notes editor") { $0.notes == Screen.Notes(heading: "Editing notes", lines: []) }
        }
        try browser.tmux.paste(browser.pane, bytes: megabyte + Array("END".utf8), through: browser.dir.url)
        // The field is drawn with its cut said on the status line (the one-line fields: after the
        // `:` line, which takes the status line, or in its place; the notes hold 16,384 characters).
        let cut = "holds at most 1,024 characters: 1,047,547 pasted characters left out"
        let drawn = try tmux.waitForScreen(browser.pane, timeout: 10, "the paste drawn in the \(field)") { screen in
            switch field {
            case "command": screen.status.parts.last == "The : line " + cut
            case "search": screen.status.message == "The search " + cut
            default:
                screen.notes?.heading == "Editing notes (unsaved)" && screen.status.message == "The notes editor holds at most 16,384 characters: 1,032,187 pasted characters left out"
            }
        }
        let start = Date()
        try tmux.send(browser.pane, "Escape")
        if field == "notes" {
            // Esc with unsaved notes asks first: discard them, then quit.
            try tmux.waitForScreen(browser.pane, timeout: 1, "the question") {
                $0.status.message == "Discard the changes to these notes? y discards, n or Esc keeps editing"
            }
            try tmux.send(browser.pane, "y")
        }
        try tmux.send(browser.pane, "q")
        let status = try browser.quits(within: 1, "the \(field) after a 1 MB paste")
        #expect(status == 0, "\(drawn)")
        #expect(Date().timeIntervalSince(start) < 1.5)
    }
}
