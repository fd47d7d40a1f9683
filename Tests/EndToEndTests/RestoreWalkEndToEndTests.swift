import Foundation
import QuakeTestSupport
import Testing

/// The promise the project exists for (SPEC §4): the relaunched screen equals the screen that
/// was left, every time. Seeded random walks of SPEC §8 keys (and mouse reports) in the real
/// browser in tmux, on a store of two real feeds, each ended by `kill -9` (or `q`) and a
/// relaunch in the same pane; the screens must be equal line for line, the status line and
/// relative times ("8y ago") aside. Walks follow each other in one pane per layout, so each
/// starts where the previous relaunch left off. A failure prints the seed, the keys and both
/// screens. `RestoreWalkTests` checks the same property without a terminal, over many more seeds.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct RestoreWalkEndToEndTests {
    static let feeds = ["all_week-2018-06-14.geojson", "all_month-2023-04-04.csv"]

    /// The two feeds imported once (by the real binary) for the whole suite; tests copy it.
    static let baseStore: Result<TemporaryDirectory, any Error> = Result {
        let dir = try TemporaryDirectory(prefix: "quaketui-walk-store")
        for feed in feeds {
            let result = try QuaketuiBinary.run(["import", SharedData.url(feed).path], stateDirectory: dir.url)
            guard result.status == 0 else { throw ChildProcess.ChildError("import \(feed) failed: \(result.stderr)") }
        }
        atexit { try? RestoreWalkEndToEndTests.baseStore.get().remove() }
        return dir
    }

    /// A state directory holding a copy of the base store.
    static func stateDirectory() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try FileManager.default.copyItem(at: try baseStore.get().appending("quakes.sqlite"),
                                         to: dir.appending("quakes.sqlite"))
        return dir
    }

    // MARK: The walks

    @Test func sideBySideWalksComeBackAsTheyWereLeft() throws {
        try Self.walks(columns: 150, rows: 40, seeds: 1...24)
    }

    @Test func narrowWalksComeBackAsTheyWereLeft() throws {
        try Self.walks(columns: 80, rows: 24, seeds: 101...124)
    }

    /// Never wait on a key: every request that takes more than a few SQLite steps is answered
    /// first by a provisional window (budget 0), counted in the background, and keys that need
    /// the whole list wait for the count; launches restore through the same path. The screen
    /// left and the screen relaunched must still be equal.
    @Test func provisionalWalksComeBackAsTheyWereLeft() throws {
        try Self.walks(columns: 110, rows: 30, seeds: 201...220, environment: ["QUAKETUI_WINDOW_BUDGET_MS": "0"])
    }

    /// Every fourth walk ends with `q` instead of `kill -9`.
    static func walks(columns: Int, rows: Int, seeds: ClosedRange<UInt64>, environment: [String: String] = [:]) throws {
        let pane = try BrowserPane(columns: columns, rows: rows, scene: "walk", environment: environment)
        defer { pane.close() }
        let tmux = pane.tmux
        var screen = try pane.settle()
        var tracker = ModeTracker()
        for seed in seeds {
            let walk = Walk(seed: seed, columns: columns, rows: rows)
            for step in walk.steps {
                try pane.send(step)
                tracker.apply(step)
            }
            let quits = seed % 4 == 0
            if quits {
                // `q` quits from the list and the detail; leave the search field and the help first.
                if let leave = tracker.stepToBrowse {
                    try pane.send(leave)
                    tracker.apply(leave)
                }
            }
            let left: String
            do { left = try pane.settle() } catch {
                Issue.record("seed \(seed) at \(columns)x\(rows): \(error)\nKeys: \(walk.description)")
                return
            }
            if quits {
                try pane.send(.keys(["q"]))
                let status = try tmux.waitForExit(pane.target)
                try #require(status == 0, "seed \(seed): q exited with \(status)")
            } else {
                kill(try tmux.pid(pane.target), SIGKILL)
                let status = try tmux.waitForExit(pane.target)
                try #require(status == 128 + SIGKILL, "seed \(seed): kill -9 gave \(status)")
            }
            try pane.launch()
            screen = try pane.settle()
            let (before, after) = (masked(left), masked(screen))
            guard before != after else { continue }
            let first = zip(before, after).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? before.count
            Issue.record("""
                seed \(seed) at \(columns)x\(rows), ended by \(quits ? "q" : "kill -9"): the relaunched screen differs \
                from line \(first + 1). Keys: \(walk.description)
                left:
                \(left)
                relaunched:
                \(screen)
                """)
            return
        }
    }

    /// The pane's rows without the status line, relative times masked, trailing blanks trimmed.
    static func masked(_ screen: String) -> [String] {
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        if !lines.isEmpty { lines.removeLast() }
        return lines.map { line in
            line.replacingOccurrences(of: #" *(in )?\d+[smhdwy]( ago)?\b"#, with: " ~", options: .regularExpression)
                .replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
        }
    }

    /// `m` is app-wide (`defaults.plist`): the pane's own writes come back through the file
    /// watcher, and an older one must not undo a newer one when `m` is pressed quickly.
    @Test func minimumMagnitudePressedQuicklyComesBackAsShown() throws {
        let pane = try BrowserPane(columns: 100, rows: 30, scene: "magnitude")
        defer { pane.close() }
        _ = try pane.settle()
        try pane.send(.keys(["m", "m", "m", "j", "m", "m"]))  // 2.5, 4.5, 6, then all, 2.5
        let left = try pane.settle()
        #expect(Self.header(left).contains("M ≥ 2.5"), "\(left)")
        kill(try pane.tmux.pid(pane.target), SIGKILL)
        _ = try pane.tmux.waitForExit(pane.target)
        try pane.launch()
        let screen = try pane.settle()
        #expect(Self.masked(screen) == Self.masked(left), "left:\n\(left)\nrelaunched:\n\(screen)")
    }

    static func header(_ screen: String) -> String { String(screen.split(separator: "\n").first ?? "") }

    // MARK: A clean error exit is not a crash

    /// SPEC §4.1's crash guard is for a launch that crashed while restoring: a launch that
    /// stops cleanly before its first frame (no terminal description for its TERM) must leave
    /// the scene as it was for the next launch, which then draws the same screen.
    @Test func aCleanErrorExitBeforeTheFirstFrameLeavesTheSceneIntact() throws {
        let pane = try BrowserPane(columns: 120, rows: 30, scene: "guard")
        defer { pane.close() }
        let (tmux, dir) = (pane.tmux, pane.dir)
        _ = try pane.settle()
        for step: Step in [.keys(["s", "j", "j", "j", "Enter", "2"]), .keys(["Space"])] { try pane.send(step) }
        let left = try pane.settle()
        try pane.send(.keys(["q"]))
        #expect(try tmux.waitForExit(pane.target) == 0)
        let plist = dir.appending("scenes/guard.plist")
        let saved = try Data(contentsOf: plist)

        // No terminal description for TERM; then a store that cannot be opened.
        try pane.launch(environment: ["TERM": "nosuchterm"])
        #expect(try tmux.waitForExit(pane.target) == 1)
        let error = try tmux.capture(pane.target)
        #expect(error.contains("Error"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("scenes/guard.restoring").path))
        #expect(try Data(contentsOf: plist) == saved)

        let store = dir.appending("quakes.sqlite"), kept = dir.appending("kept.sqlite")
        try FileManager.default.moveItem(at: store, to: kept)
        try Data("not a store, not SQLite at all".utf8).write(to: store)
        try pane.launch()
        #expect(try tmux.waitForExit(pane.target) == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.appending("scenes/guard.restoring").path))
        #expect(try Data(contentsOf: plist) == saved)
        try FileManager.default.removeItem(at: store)
        try FileManager.default.moveItem(at: kept, to: store)

        try pane.launch()
        let screen = try pane.settle()
        #expect(!screen.contains("stopped while restoring"))
        #expect(Self.masked(screen) == Self.masked(left), "left:\n\(left)\nrelaunched:\n\(screen)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.appending("scenes").path)
            .filter { $0.contains("crashed") }
        #expect(aside.isEmpty, "\(aside)")
    }
}

/// One step of a walk, as tmux sends it.
enum Step: CustomStringConvertible {
    /// tmux key names (`j`, `NPage`, `C-d`, `Escape`, `Space`).
    case keys([String])
    /// Literal text, one key per character.
    case text(String)
    /// Raw bytes (an SGR mouse report) and how many keys the browser reads from them.
    case raw(String, keys: Int)

    var keyCount: Int {
        switch self {
        case .keys(let names): names.count
        case .text(let text): text.count
        case .raw(_, let keys): keys
        }
    }

    var description: String {
        switch self {
        case .keys(let names): names.joined(separator: " ")
        case .text(let text): "“\(text)”"
        case .raw(let bytes, _): bytes.replacingOccurrences(of: "\u{1B}", with: "ESC")
        }
    }

    static func wheel(down: Bool, x: Int, y: Int) -> Step { .raw("\u{1B}[<\(down ? 65 : 64);\(x);\(y)M", keys: 1) }
    /// A left click: the press is a key, its release nothing.
    static func click(x: Int, y: Int) -> Step { .raw("\u{1B}[<0;\(x);\(y)M\u{1B}[<0;\(x);\(y)m", keys: 1) }
}

/// A seeded walk over the keys of SPEC §8 (not `r`, `e`, `H`, `q`, `Q`: network, editor,
/// handoff, quitting), some mouse reports, and searches typed into the field.
struct Walk: CustomStringConvertible {
    let steps: [Step]

    static let names = ["j", "j", "j", "k", "Down", "Up", "NPage", "PPage", "C-d", "C-u", "g", "G", "s", "S", "/",
                        "Enter", "Enter", "Escape", "Space", "Space", "Tab", "BTab", "1", "2", "3", "m", "?", "BSpace",
                        "[", "]", "Home", "End"]
    static let words = ["hawaii", "alaska", "japan", "ca"]

    init(seed: UInt64, columns: Int, rows: Int) {
        var generator = SeededGenerator(seed: seed)
        var steps: [Step] = []
        // Every walk visits one of the states the issue names, then wanders.
        switch seed % 5 {
        case 0: steps.append(.keys(["Enter"]))                                    // detail open
        case 1: steps.append(.keys(["Space"]))                                    // a section collapsed
        case 2: steps += [.keys(["/"]), .text(Self.words[Int(seed / 5) % 4]), .keys(["Enter"])]  // a search kept
        case 3: steps += [.keys(["/"]), .text("al")]                              // a search being edited
        default: steps.append(.keys(["G"]))
        }
        for _ in 0..<Int.random(in: 4...16, using: &generator) {
            switch Int.random(in: 0..<20, using: &generator) {
            case 0: steps.append(.text(Self.words.randomElement(using: &generator)!))
            case 1, 2:
                steps.append(.wheel(down: Bool.random(using: &generator), x: Int.random(in: 1...columns, using: &generator),
                                    y: Int.random(in: 2...(rows - 1), using: &generator)))
            case 3: steps.append(.click(x: Int.random(in: 1...columns, using: &generator),
                                        y: Int.random(in: 2...(rows - 1), using: &generator)))
            case 4: steps.append(.keys(Array(repeating: "j", count: Int.random(in: 5...40, using: &generator))))
            default: steps.append(.keys([Self.names.randomElement(using: &generator)!]))
            }
        }
        self.steps = steps
    }

    var description: String { steps.map(\.description).joined(separator: ", ") }
}

/// Which focus the browser is in (KeyMap's rules), so a walk ending with `q` can leave the
/// search field or the help first: `q` is a letter there.
struct ModeTracker {
    enum Mode { case list, search, help }
    var mode = Mode.list

    mutating func apply(_ step: Step) {
        guard case .keys(let names) = step else { return }
        for name in names {
            switch (mode, name) {
            case (.list, "/"): mode = .search
            case (.list, "?"): mode = .help
            case (.search, "Enter"), (.search, "Escape"), (.help, "?"), (.help, "Escape"), (.help, "Enter"): mode = .list
            default: break
            }
        }
    }

    /// The key that returns to the list, keeping what the search found.
    var stepToBrowse: Step? {
        switch mode {
        case .list: nil
        case .search: .keys(["Enter"])
        case .help: .keys(["Escape"])
        }
    }
}

/// The browser in one tmux pane (its own tmux server) on a copy of the two-feed store, with
/// its `QUAKETUI_TRACE`; relaunched in the same pane. `close()` removes both.
final class BrowserPane {
    let tmux: TmuxSession
    let dir: TemporaryDirectory
    let scene: String
    /// Given to every launch (e.g. `QUAKETUI_WINDOW_BUDGET_MS`).
    let environment: [String: String]
    private(set) var target = ""
    private let trace: URL
    /// Keys sent since the last launch.
    private var sent = 0

    /// Launches the browser in a new `columns`×`rows` pane.
    init(columns: Int, rows: Int, scene: String, environment: [String: String] = [:]) throws {
        self.environment = environment
        dir = try RestoreWalkEndToEndTests.stateDirectory()
        do {
            tmux = try TmuxSession(columns: columns, rows: rows)
        } catch {
            dir.remove()
            throw error
        }
        self.scene = scene
        trace = dir.appending("trace-\(scene)")
        do { try launch() } catch {
            close()
            throw error
        }
    }

    func close() {
        tmux.close()
        dir.remove()
    }

    /// Starts the browser, in the same pane after the first time.
    func launch(environment: [String: String] = [:]) throws {
        try? FileManager.default.removeItem(at: trace)
        sent = 0
        var environment = self.environment.merging(environment) { $1 }
        environment["QUAKETUI_TRACE"] = trace.path
        environment["QUAKETUI_FEED_BASE_URL"] = "file:///nonexistent-quaketui-feed"
        let arguments = ["--state-dir", dir.path, "--scene", scene]
        if target.isEmpty {
            target = try tmux.start(QuaketuiBinary.url.path, arguments, environment: environment)
        } else {
            try tmux.respawn(target, QuaketuiBinary.url.path, arguments, environment: environment)
        }
    }

    func send(_ step: Step) throws {
        switch step {
        case .keys(let names): try tmux.send(target, keys: names)
        case .text(let text), .raw(let text, _): try tmux.send(target, keys: [text], literal: true)
        }
        sent += step.keyCount
    }

    /// Waits until the browser has read every key sent, drawn, and written the scene (its trace
    /// ends with `idle`), and tmux shows a steady screen; returns that screen.
    func settle(timeout: TimeInterval = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [Substring] = []
        while Date() < deadline {
            lines = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n")
            let keys = lines.count(where: { $0 == "key" })
            if keys >= sent, lines.last == "idle", lines.contains(where: { $0.hasPrefix("frame") }) {
                let screen = try tmux.capture(target)
                usleep(60_000)
                let again = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n")
                if again.count == lines.count, try tmux.capture(target) == screen { return screen }
                continue
            }
            usleep(20_000)
        }
        throw ChildProcess.ChildError("""
            the browser did not settle within \(timeout) s: \(lines.count(where: { $0 == "key" })) of \(sent) keys read, \
            trace ends \(lines.suffix(3)); the pane shows:
            \(try tmux.capture(target))
            """)
    }
}
