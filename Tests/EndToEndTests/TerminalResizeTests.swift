import Foundation
import Glibc
import QuakeTestSupport
import Testing

/// Issue 28.1 in a real terminal: nothing the terminal does ends the browser (SPEC §8). A
/// resize right after Esc once ended it with `Could not draw at column 80, row 3`; a seeded
/// fuzz of keys, resizes (`resize-window`, `resize-pane`, zoom), SIGWINCH storms and sizes down
/// to 1×1 must leave it alive, drawing the right screen for the final size.
/// `tools/resize-fuzz.sh` runs the fuzz for longer (`QUAKETUI_RESIZE_FUZZ_SECONDS`).
@Suite(.waitsOnProcesses, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct TerminalResizeTests {
    static let offline = ["QUAKETUI_FEED_BASE_URL": "file:///nonexistent-quaketui-feed"]

    /// A browser on a state directory of its own, in a new `columns`×`rows` tmux server.
    struct Browser: TmuxFixture {
        let dir: TemporaryDirectory
        let tmux: TmuxSession
        let pane: String

        init(columns: Int, rows: Int, split: Bool = false) throws {
            dir = try TemporaryDirectory()
            tmux = try TmuxSession(columns: columns, rows: rows)
            pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", dir.path + "/s", "--scene", "a"],
                                  environment: TerminalResizeTests.offline.merging(["QUAKETUI_TRACE": dir.path + "/trace"]) { $1 })
            try tmux.waitForScreen(pane, timeout: 20, "the first frame") { $0.header.isOf(scene: "a") }
            // The launch refresh of the (offline) feed has failed: nothing more changes by itself.
            try tmux.waitForScreen(pane, timeout: 20, "the offline notice") { $0.header.badges.last == "offline" }
            if split { try tmux.split(pane, "/bin/cat", []) }
        }

        var isRunning: Bool { (try? tmux.exitStatus(pane)) == nil }

        /// Frames the browser has drawn (its `QUAKETUI_TRACE`).
        var frames: Int {
            ((try? String(contentsOfFile: dir.path + "/trace", encoding: .utf8)) ?? "").split(separator: "\n")
                .count { $0.hasPrefix("frame") }
        }

        /// The pane's size as tmux has it now.
        func size() throws -> (columns: Int, rows: Int) {
            let text = try tmux.format(pane, "#{pane_width} #{pane_height}").split(separator: " ")
            return (Int(text[0]) ?? 0, Int(text[1]) ?? 0)
        }
    }

    /// The screen once it stays the same for a while (every resize drawn), checked to be the
    /// whole truth: ctrl-l (a full repaint from the model) draws exactly the same screen, but
    /// for the status line (ctrl-l is a key: it clears the one-shot message there). The ages
    /// (`58m ago`) move on with the clock: a repaint that differs is tried again, so that only
    /// a difference that stays fails (a loaded machine can cross a minute between the two).
    static func settledScreen(_ browser: Browser, _ what: String) throws -> Screen {
        var attempts: [(screen: Screen, repainted: Screen)] = []
        while attempts.count < 3 {
            var before = Screen("")
            var sameSince = Date()
            let screen = try browser.tmux.waitForScreen(browser.pane, timeout: 20, what) { screen in
                if screen != before { (before, sameSince) = (screen, Date()) }
                return Date().timeIntervalSince(sameSince) > 0.3
            }
            let frames = browser.frames
            try browser.tmux.send(browser.pane, "C-l")
            #expect(eventually(timeout: 20) { browser.frames > frames }, "\(what): no frame after ctrl-l")
            let repainted = try browser.tmux.waitForScreen(browser.pane, timeout: 20, "the repaint") { _ in true }
            if repainted.lines.dropLast() == screen.lines.dropLast() { return screen }
            attempts.append((screen, repainted))
        }
        let last = attempts[attempts.count - 1]
        #expect(last.repainted.lines.dropLast() == last.screen.lines.dropLast(),
                "\(what): the screen differs from its full repaint, 3 times:\n\(last.screen)\nrepainted:\n\(last.repainted)")
        return last.screen
    }

    /// Finding 1: `?` (or Enter, or `L`), then Esc, then a smaller pane within 0–60 ms: the
    /// browser goes on and draws the list at the new size.
    @Test func aResizeRightAfterEscNeverEndsTheBrowser() throws {
        let browser = try Browser(columns: 120, rows: 30)
        defer { browser.close() }
        let tmux = browser.tmux, pane = browser.pane
        var generator = SeededGenerator(seed: 28)
        for round in 0..<18 {
            let (key, shown) = Self.covers[round % 3]
            try tmux.send(pane, key)
            try tmux.waitForScreen(pane, "round \(round): \(key) shown", shown)
            let (columns, rows) = round % 2 == 0 ? (70, 18) : (120, 30)
            try tmux.send(pane, "Escape")
            usleep(UInt32.random(in: 0..<60_000, using: &generator))  // the resize's random moment after Esc, not a wait
            try tmux.resize(pane, columns: columns, rows: rows)
            try tmux.waitForScreen(pane, "round \(round): the list at \(columns)x\(rows)") { screen in
                !browser.isRunning || (screen.overlay == nil && screen.detailTabs == nil && Self.fills(screen, columns: columns, rows: rows))
            }
            let screen = try tmux.capture(pane)
            try #require(browser.isRunning, "round \(round): the browser exited:\n\(screen)")
        }
        let screen = try Self.settledScreen(browser, "the last screen")
        #expect(Self.fills(screen, columns: 120, rows: 30), "\(screen)")
        try tmux.send(pane, "q")
        #expect(try tmux.waitForExit(pane) == 0)
    }

    /// Whether `screen` is the browser drawn for `columns`×`rows`: its header ends with the
    /// scene's name in the last columns (tmux trims the blanks after it).
    static func fills(_ screen: Screen, columns: Int, rows: Int) -> Bool {
        let header = screen.lines.first ?? ""
        return screen.lines.count == rows && header.hasPrefix(" quaketui") && header.count >= columns - 2
    }

    /// What covers the list after a key, and how the screen shows it: the help, the detail, the log.
    static let covers: [(key: String, shown: @Sendable (Screen) -> Bool)] = [
        ("?", { $0.overlay?.title == "Keys" }), ("Enter", { $0.detailTabs != nil }),
        ("L", { $0.overlay?.title == "Messages, newest first" }),
    ]
}

extension TerminalResizeTests {
    /// How long the fuzz runs: `QUAKETUI_RESIZE_FUZZ_SECONDS` (`tools/resize-fuzz.sh`), else 12 s.
    static var fuzzSeconds: Double {
        ProcessInfo.processInfo.environment["QUAKETUI_RESIZE_FUZZ_SECONDS"].flatMap(Double.init) ?? 12
    }

    /// Keys that never quit or leave the pane (no `q`, `Q`, ctrl-c, ctrl-z, `r`, `o`, `H`).
    static let fuzzKeys = ["j", "k", "?", "Escape", "Escape", "Enter", "L", "/", "a", "Tab", "G", "g", "Space", "NPage",
                           "PPage", "s", "1", "2", "3", "Down", "Up", "BSpace", "e", "x"]

    /// Seeded interleavings of keys, `resize-window` (down to 1×1), `resize-pane`, zoom and
    /// SIGWINCH storms, at random moments: the browser never exits, and once the pane is
    /// 100×30 again and the browser is left alone, its screen is what a full repaint draws.
    @Test func aSeededResizeFuzzNeverEndsTheBrowser() throws {
        let seed = ProcessInfo.processInfo.environment["QUAKETUI_RESIZE_FUZZ_SEED"].flatMap(UInt64.init) ?? 2_028
        let browser = try Browser(columns: 100, rows: 30, split: true)
        defer { browser.close() }
        let tmux = browser.tmux, pane = browser.pane
        let pid = try tmux.pid(pane)
        var generator = SeededGenerator(seed: seed)
        var steps: [String] = []
        let deadline = Date().addingTimeInterval(Self.fuzzSeconds)
        while Date() < deadline {
            let step: String
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let key = Self.fuzzKeys.randomElement(using: &generator)!
                try tmux.send(pane, key)
                step = key
            case 4, 5:
                let tiny = Bool.random(using: &generator)
                let columns = tiny ? Int.random(in: 1...12, using: &generator) : Int.random(in: 13...170, using: &generator)
                let rows = tiny ? Int.random(in: 1...6, using: &generator) : Int.random(in: 7...50, using: &generator)
                try tmux.command("resize-window", "-t", pane, "-x", "\(columns)", "-y", "\(rows)")
                step = "window \(columns)x\(rows)"
            case 6:
                let columns = Int.random(in: 1...120, using: &generator)
                // May fail when the window is too small for the split: that is the terminal's business.
                _ = try? tmux.command("resize-pane", "-t", pane, "-x", "\(columns)")
                step = "pane width \(columns)"
            case 7:
                _ = try? tmux.command("resize-pane", "-Z", "-t", pane)
                step = "zoom"
            case 8:
                let count = Int.random(in: 5...200, using: &generator)
                for _ in 0..<count { kill(pid, SIGWINCH) }
                step = "SIGWINCH ×\(count)"
            default:
                // Esc, then a resize straight after it (finding 1).
                try tmux.send(pane, "Escape")
                usleep(UInt32.random(in: 0..<40_000, using: &generator))  // the resize's random moment, not a wait
                let columns = Int.random(in: 1...140, using: &generator)
                try tmux.command("resize-window", "-t", pane, "-x", "\(columns)", "-y", "\(Int.random(in: 1...40, using: &generator))")
                step = "Escape + window \(columns) wide"
            }
            steps.append(step)
            // The next event's random moment (the fuzz's interleaving), not a wait: every check
            // waits on a condition (`waitFor`, `settledScreen`).
            usleep(UInt32.random(in: 0..<25_000, using: &generator))
            guard browser.isRunning else {
                let (status, shown) = (try tmux.exitStatus(pane), try tmux.capture(pane))
                Issue.record("""
                    seed \(seed): the browser exited (\(String(describing: status))) after \(steps.count) steps, \
                    the last: \(steps.suffix(12).joined(separator: ", ")); the pane shows:
                    \(shown)
                    """)
                return
            }
        }
        // Back to one known size, with the pane unzoomed filling the window's left half or all of it.
        try tmux.command("resize-window", "-t", pane, "-x", "100", "-y", "30")
        let screen = try Self.settledScreen(browser, "the screen after \(steps.count) fuzz steps (seed \(seed))")
        let size = try browser.size()
        #expect(screen.lines.count == size.rows, "\(screen)")
        #expect(browser.isRunning)
        // Whatever has focus now (a field, the editor): SIGTERM saves and ends it cleanly.
        kill(pid, SIGTERM)
        #expect(try tmux.waitForExit(pane) == 0, "seed \(seed): \(steps.count) steps")
    }
}
