import Foundation
import Glibc
import QuakeTestSupport
import Testing

/// The promise the project exists for (SPEC §4): the relaunched screen equals the screen that
/// was left, every time. Seeded random walks of SPEC §8 keys (and mouse reports) in the real
/// browser in tmux, on a store of two real feeds, each ended by `kill -9` (or `q`) and a
/// relaunch in the same pane; the screens must be equal line for line, the status line and
/// relative times ("8y ago") aside. Walks follow each other in one pane per layout, so each
/// starts where the previous relaunch left off. A failure prints the seed, the keys and both
/// screens. `RestoreWalkTests` checks the same property without a terminal, over many more seeds.
@Suite(.waitsOnProcesses, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
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
        try Self.walks(columns: 150, rows: 40, seeds: 1...12)
    }

    @Test func narrowWalksComeBackAsTheyWereLeft() throws {
        try Self.walks(columns: 80, rows: 24, seeds: 101...112)
    }

    /// Never wait on a key: every request that takes more than a few SQLite steps is answered
    /// first by a provisional window (budget 0), counted in the background, and keys that need
    /// the whole list wait for the count; launches restore through the same path. The screen
    /// left and the screen relaunched must still be equal.
    @Test func provisionalWalksComeBackAsTheyWereLeft() throws {
        try Self.walks(columns: 110, rows: 30, seeds: 201...210, environment: ["QUAKETUI_WINDOW_BUDGET_MS": "0"])
    }

    /// Under `NO_COLOR` the selection, the tab bar and the map are attributes only (reverse,
    /// bold, dim): the screens are compared with them (`capture-pane -e -N`). Issue 56.2: a
    /// restored Notes tab seemed to lose the reverse video of its label's last cell (tmux's
    /// capture without `-N` drops it when nothing was written after it on the line).
    @Test func noColorWalksComeBackAsTheyWereLeftAttributesAndAll() throws {
        let pane = try BrowserPane(columns: 100, rows: 30, scene: "plain", environment: ["NO_COLOR": "1"], styled: true)
        defer { pane.close() }
        try Self.walks(in: pane, seeds: 401...412)
    }

    /// Every fourth walk ends with `q` instead of `kill -9`.
    static func walks(columns: Int, rows: Int, seeds: ClosedRange<UInt64>, environment: [String: String] = [:]) throws {
        let pane = try BrowserPane(columns: columns, rows: rows, scene: "walk", environment: environment)
        defer { pane.close() }
        try walks(in: pane, seeds: seeds)
    }

    /// The walks of `seeds` one after another in `pane`, each ended by `kill -9` (at a seeded
    /// moment after the scene is on disk) or `q`, and compared with the relaunch.
    static func walks(in pane: BrowserPane, seeds: ClosedRange<UInt64>) throws {
        let tmux = pane.tmux
        var screen = try pane.settle()
        var tracker = ModeTracker()
        for seed in seeds {
            let (columns, rows) = pane.size
            let walk = Walk(seed: seed, columns: columns, rows: rows, sizes: pane.sizes)
            for step in walk.steps {
                try pane.send(step)
                tracker.apply(step)
            }
            let quits = seed % 4 == 0
            if quits {
                // `q` quits from the list and the detail; leave the search field and the help first.
                while let leave = tracker.stepToBrowse {
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
                // Any moment after the scene reached the disk must do (SPEC §4.1): a seeded one.
                var moment = SeededGenerator(seed: seed)
                usleep(UInt32.random(in: 0..<150_000, using: &moment))
                kill(try tmux.pid(pane.target), SIGKILL)
                let status = try tmux.waitForExit(pane.target)
                try #require(status == 128 + SIGKILL, "seed \(seed): kill -9 gave \(status)")
            }
            // What the process left behind, for the message if the relaunch differs.
            let (leftTrace, savedScene) = (pane.traceTail, pane.scenePlist)
            try pane.launch()
            screen = try pane.settle()
            let (before, after) = (masked(left), masked(screen))
            guard before != after else { continue }
            let first = zip(before, after).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? before.count
            let kept = pane.keepStateDirectory(label: "seed\(seed)")
            Issue.record("""
                seed \(seed) at \(columns)x\(rows), ended by \(quits ? "q" : "kill -9"): the relaunched screen differs \
                from line \(first + 1). Keys: \(walk.description)
                left:
                \(left)
                relaunched:
                \(screen)
                the scene file it left: \(savedScene)
                its trace ended: \(leftTrace)
                the relaunch's trace: \(pane.traceTail)
                state directory (store, defaults, scene as relaunched) kept at \(kept)
                """)
            return
        }
    }

    // MARK: First launch

    /// The very first screen (a new state directory: the bundled sample imported, the launch
    /// refresh failed against a closed local port, watching started and its first merge done)
    /// is the screen a relaunch draws, after `q` and after `kill -9`: nothing on a first launch
    /// (the import, the refresh and its failure, the first merge, the time zone) may draw rows
    /// that a relaunch draws elsewhere. Masked as in the walks: the status line (the refresh's
    /// failure says where it failed and when it retries) and relative times ("57m ago": the
    /// clock moves between the two launches).
    @Test(arguments: [false, true])
    func theFirstLaunchScreenComesBack(quitting: Bool) throws {
        for zone in ["UTC", "Asia/Kathmandu", "America/St_Johns"] {
            let pane = try BrowserPane(columns: 150, rows: 40, scene: "first", firstLaunch: true, timeZone: zone)
            defer { pane.close() }
            let first = try pane.settle()
            #expect(Screen(first).header.right == ["sample data", "offline", "scene first"], "\(first)")
            try Self.end(pane, quitting: quitting)
            try pane.launch()
            let again = try pane.settle()
            #expect(Self.masked(again) == Self.masked(first),
                    "TZ=\(zone), \(quitting ? "q" : "kill -9"): first launch:\n\(first)\nrelaunched:\n\(again)")
        }
    }

    /// Walks that start on the first launch's screen, one new state directory per seed.
    @Test func firstLaunchWalksComeBackAsTheyWereLeft() throws {
        for seed: UInt64 in 201...206 {
            let pane = try BrowserPane(columns: seed % 2 == 0 ? 150 : 80, rows: seed % 2 == 0 ? 40 : 24,
                                       scene: "first", firstLaunch: true)
            defer { pane.close() }
            try Self.walks(in: pane, seeds: seed...seed)
        }
    }

    /// Two panes on one store (a first launch): keys go to either; `m` is app-wide, so each
    /// pane also redraws for the other's presses. Both end by `kill -9` (every third walk, `q`)
    /// and come back as they were left. `@` and `~` stay out: a home set in one pane changes
    /// nothing the other shows that a test could wait for before killing it.
    @Test func twoPanesOnOneStoreComeBackAsTheyWereLeft() throws {
        let first = try BrowserPane(columns: 120, rows: 32, scene: "left", firstLaunch: true)
        defer { first.close() }
        let second = try BrowserPane(beside: first, scene: "right")
        let panes = [first, second]
        var screens = try panes.map { try $0.settle() }
        var trackers = [ModeTracker(), ModeTracker()]
        let names = Walk.names.filter { $0 != "@" && $0 != "~" }
        for seed: UInt64 in 301...304 {
            var chooser = SeededGenerator(seed: seed)
            let walk = Walk(seed: seed, columns: 120, rows: 32, names: names)
            for step in walk.steps {
                let index = Int.random(in: 0...1, using: &chooser)
                try panes[index].send(step)
                trackers[index].apply(step)
            }
            let quits = seed % 3 == 0
            for (index, pane) in panes.enumerated() where quits {
                while let leave = trackers[index].stepToBrowse {
                    try pane.send(leave)
                    trackers[index].apply(leave)
                }
            }
            var left = try panes.map { try $0.settle() }
            // The other pane's `m` reaches a pane through its settings watcher: wait for it to show.
            if !eventually(timeout: 20, { Self.magnitudeFilter(left[0]) == Self.magnitudeFilter(left[1]) }) {
                left = try panes.map { try $0.settle() }
            }
            guard Self.magnitudeFilter(left[0]) == Self.magnitudeFilter(left[1]) else {
                Issue.record("seed \(seed): the panes show different filters:\n\(left[0])\n\(left[1])")
                return
            }
            for pane in panes { try Self.end(pane, quitting: quits) }
            for pane in panes { try pane.launch() }
            screens = try panes.map { try $0.settle() }
            for index in panes.indices where Self.masked(left[index]) != Self.masked(screens[index]) {
                Issue.record("""
                    seed \(seed), pane \(panes[index].scene), ended by \(quits ? "q" : "kill -9"): the relaunched \
                    screen differs. Keys: \(walk.description)
                    left:
                    \(left[index])
                    relaunched:
                    \(screens[index])
                    """)
                return
            }
        }
    }

    /// A terminal that tells its size late (a new tab or split that starts the program at
    /// 80×24 and grows it a moment later): the browser restores at the size it first sees,
    /// draws, and only then learns the real one. It must still show the screen that was left,
    /// the selection on its saved line, as long as no key was pressed in between.
    @Test func aTerminalSizeArrivingLateStillDrawsTheScreenThatWasLeft() throws {
        let pane = try BrowserPane(columns: 150, rows: 40, scene: "late")
        defer { pane.close() }
        _ = try pane.settle()
        for step: Step in [.keys(Array(repeating: "j", count: 34)), .keys(["NPage", "k", "k"])] { try pane.send(step) }
        let left = try pane.settle()
        for quitting in [false, true] {
            try Self.end(pane, quitting: quitting)
            try pane.tmux.resize(pane.target, columns: 80, rows: 24)
            try pane.launch()
            _ = try pane.settle()  // the first frame, at 80×24
            try pane.send(.resize(columns: 150, rows: 40))
            let screen = try pane.settle()
            #expect(Self.masked(screen) == Self.masked(left),
                    "\(quitting ? "q" : "kill -9"), then 80x24 → 150x40: left:\n\(left)\nrelaunched:\n\(screen)")
        }
    }

    /// Issues 56.1 and 56.2: the detail's tabs after `kill -9`, colours and attributes and all
    /// (`capture-pane -e`), with colour and under `NO_COLOR`: the Map tab at each scale (at
    /// `local` it came back without its dots) and the Notes tab (under `NO_COLOR` its label lost
    /// the reverse video of its last cell, and kept it lost after `1` `3`).
    @Test(arguments: [false, true])
    func theDetailTabsComeBackAttributesAndAll(noColor: Bool) throws {
        let pane = try BrowserPane(columns: 120, rows: 32, scene: "tabs", environment: noColor ? ["NO_COLOR": "1"] : [:],
                                   styled: true)
        defer { pane.close() }
        _ = try pane.settle()
        try pane.send(.keys(["j", "j", "Enter"]))
        for keys in [["2"], ["+"], ["+"], ["3"]] {
            try pane.send(.keys(keys))
            let left = try pane.settle()
            try Self.end(pane, quitting: false)
            try pane.launch()
            let relaunched = try pane.settle()
            #expect(Self.masked(relaunched) == Self.masked(left),
                    "NO_COLOR \(noColor), after \(keys): left:\n\(left)\nrelaunched:\n\(relaunched)")
            // The tab shown again from another: the same screen.
            try pane.send(.keys(["1", keys == ["3"] ? "3" : "2"]))
            let again = try pane.settle()
            #expect(Self.masked(again) == Self.masked(left), "NO_COLOR \(noColor), after \(keys), 1 and back:\n\(again)")
        }
    }

    /// `q` (exit 0) or `kill -9` (at a moment after the scene is on disk), waited for.
    static func end(_ pane: BrowserPane, quitting: Bool) throws {
        if quitting {
            try pane.send(.keys(["q"]))
            let status = try pane.tmux.waitForExit(pane.target)
            try #require(status == 0, "q exited with \(status)")
        } else {
            kill(try pane.tmux.pid(pane.target), SIGKILL)
            let status = try pane.tmux.waitForExit(pane.target)
            try #require(status == 128 + SIGKILL, "kill -9 gave \(status)")
        }
    }

    /// The header's `M ≥ 4.5`, or "" for all magnitudes.
    static func magnitudeFilter(_ screen: String) -> String { Screen(screen).header.minimumMagnitude ?? "" }

    /// The pane's rows without the status line (but with the `:` line drawn over it), relative
    /// times masked, trailing blanks trimmed.
    ///
    /// A styled capture is compared as it looks (`Screen.visibleStyles`), not as tmux encoded it.
    static func masked(_ screen: String) -> [String] {
        let styled = screen.contains("\u{1B}[")
        var lines = styled ? Screen.visibleStyles(screen)
            : screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        let plain = lines.last?.replacingOccurrences(of: "‹[^›]*›", with: "", options: .regularExpression)
        if let plain, !plain.hasPrefix(":") { lines.removeLast() }
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
        #expect(Screen(left).header.minimumMagnitude == "M ≥ 2.5", "\(left)")
        kill(try pane.tmux.pid(pane.target), SIGKILL)
        _ = try pane.tmux.waitForExit(pane.target)
        try pane.launch()
        let screen = try pane.settle()
        #expect(Self.masked(screen) == Self.masked(left), "left:\n\(left)\nrelaunched:\n\(screen)")
    }

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
        let error = try tmux.screen(pane.target)
        #expect(error.lines.first?.hasPrefix("Error: TERM=nosuchterm is not a terminal the browser can draw on") == true, "\(error)")
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
        // No crash-guard notice: the status line as it was (the masked screens below leave it out).
        #expect(Screen(screen).status.message?.hasPrefix("The last launch of scene guard stopped while restoring") != true, "\(screen)")
        #expect(Self.masked(screen) == Self.masked(left), "left:\n\(left)\nrelaunched:\n\(screen)")
        let aside = files(in: dir.appending("scenes").path, withPrefix: "guard.plist.crashed-")
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
    /// The pane resized (tmux `resize-window`): no key, one new frame.
    case resize(columns: Int, rows: Int)

    var keyCount: Int {
        switch self {
        case .keys(let names): names.count
        case .text(let text): text.count
        case .raw(_, let keys): keys
        case .resize: 0
        }
    }

    var description: String {
        switch self {
        case .keys(let names): names.joined(separator: " ")
        case .text(let text): "“\(text)”"
        case .raw(let bytes, _): bytes.replacingOccurrences(of: "\u{1B}", with: "ESC")
        case .resize(let columns, let rows): "resize \(columns)x\(rows)"
        }
    }

    static func wheel(down: Bool, x: Int, y: Int) -> Step { .raw("\u{1B}[<\(down ? 65 : 64);\(x);\(y)M", keys: 1) }
    /// A left click: the press is a key, its release nothing.
    static func click(x: Int, y: Int) -> Step { .raw("\u{1B}[<0;\(x);\(y)M\u{1B}[<0;\(x);\(y)m", keys: 1) }
}

/// A seeded walk over the keys of SPEC §8 (not `r`, `e`, `H`, `q`, `Q`: network, editor,
/// handoff, quitting), `@` and `~` (home, issue 13), some mouse reports, searches typed into
/// the field, and resizes of the pane among `sizes`.
struct Walk: CustomStringConvertible {
    let steps: [Step]

    static let names = ["j", "j", "j", "k", "Down", "Up", "NPage", "PPage", "C-d", "C-u", "g", "G", "s", "S", "/",
                        "Enter", "Enter", "Escape", "Space", "Space", "Tab", "BTab", "1", "2", "3", "m", "?", "BSpace",
                        "[", "]", "Home", "End", "@", "~", "L", ":", "Left"]
    static let words = ["hawaii", "alaska", "japan", "ca"]

    /// A walk starting in a `columns`×`rows` pane; mouse reports stay inside the pane as resized.
    init(seed: UInt64, columns: Int, rows: Int, sizes: [(columns: Int, rows: Int)] = [], names: [String] = Walk.names) {
        var generator = SeededGenerator(seed: seed)
        var steps: [Step] = []
        var (columns, rows) = (columns, rows)
        // Every walk visits one of the states the issue names, then wanders: every fourth the
        // Map tab, at each of its scales in turn (issue 56.1: `local` came back without its dots).
        if seed % 4 == 3 {
            steps.append(.keys(["Enter", "2"] + Array(repeating: "+", count: Int(seed / 4) % 3)))
        } else { switch seed % 7 {
        case 5: steps += [.keys([":"]), .text("depth 10-"), .keys(["Left", "Left"])]  // a `:` line with its cursor
        case 6: steps += [.keys(["/"]), .text("zz"), .keys(["Enter", "L"])]        // the message log open
        case 0: steps.append(.keys(["Enter"]))                                    // detail open
        case 1: steps.append(.keys(["Space"]))                                    // a section collapsed
        case 2: steps += [.keys(["/"]), .text(Self.words[Int(seed / 5) % 4]), .keys(["Enter"])]  // a search kept
        case 3: steps += [.keys(["/"]), .text("al")]                              // a search being edited
        default: steps.append(.keys(["G"]))
        } }
        for _ in 0..<Int.random(in: 4...16, using: &generator) {
            switch Int.random(in: 0..<21, using: &generator) {
            case 0: steps.append(.text(Self.words.randomElement(using: &generator)!))
            case 1, 2:
                steps.append(.wheel(down: Bool.random(using: &generator), x: Int.random(in: 1...columns, using: &generator),
                                    y: Int.random(in: 2...(rows - 1), using: &generator)))
            case 3: steps.append(.click(x: Int.random(in: 1...columns, using: &generator),
                                        y: Int.random(in: 2...(rows - 1), using: &generator)))
            case 4: steps.append(.keys(Array(repeating: "j", count: Int.random(in: 5...40, using: &generator))))
            case 5:
                if let size = sizes.filter({ $0 != (columns, rows) }).randomElement(using: &generator) {
                    (columns, rows) = size
                    steps.append(.resize(columns: columns, rows: rows))
                } else {
                    steps.append(.keys([names.randomElement(using: &generator)!]))
                }
            default: steps.append(.keys([names.randomElement(using: &generator)!]))
            }
        }
        self.steps = steps
    }

    var description: String { steps.map(\.description).joined(separator: ", ") }
}

/// Which focus the browser is in (KeyMap's rules), so a walk ending with `q` can leave the
/// search field or the help first: `q` is a letter there.
struct ModeTracker {
    enum Mode { case list, search, help, command, log, helpFind, logFind }
    var mode = Mode.list

    /// How many characters `/` has typed in the help or the log (Backspace on none leaves it).
    var found = 0

    mutating func apply(_ step: Step) {
        if case .text(let text) = step, mode == .helpFind || mode == .logFind { found += text.count }
        guard case .keys(let names) = step else { return }
        for name in names {
            switch (mode, name) {
            case (.list, "/"): mode = .search
            case (.list, "?"): mode = .help
            case (.list, ":"): mode = .command
            case (.list, "L"): mode = .log
            case (.help, "/"): (mode, found) = (.helpFind, 0)
            case (.log, "/"): (mode, found) = (.logFind, 0)
            case (.helpFind, "Enter"), (.helpFind, "Escape"): mode = .help
            case (.logFind, "Enter"), (.logFind, "Escape"): mode = .log
            case (.helpFind, "BSpace"), (.logFind, "BSpace"):
                if found == 0 { mode = mode == .helpFind ? .help : .log } else { found -= 1 }
            case (.helpFind, _), (.logFind, _):
                if name.count == 1 || name == "Space" { found += 1 }  // typed; other keys do nothing there
            case (.search, "Enter"), (.search, "Escape"), (.help, "?"), (.help, "Escape"), (.help, "Enter"),
                 (.command, "Enter"), (.command, "Escape"), (.log, "L"), (.log, "Escape"), (.log, "Enter"): mode = .list
            default: break
            }
        }
    }

    /// The key that returns to the list, keeping what the search found.
    var stepToBrowse: Step? {
        switch mode {
        case .list: nil
        case .search: .keys(["Enter"])
        case .help, .command, .log: .keys(["Escape"])
        // `/` in the help or the log: typing ends first (Enter), then the overlay closes.
        case .helpFind, .logFind: .keys(["Enter"])
        }
    }
}

/// The browser in one tmux pane (its own tmux server, or another window of a pane's server for
/// a second pane on the same store) with its own `QUAKETUI_TRACE`; relaunched in the same pane.
/// The store is a copy of the two-feed store, or with `firstLaunch` a new state directory: the
/// browser imports the bundled sample and its launch refresh fails against a closed local port.
/// `close()` removes what the pane made (the tmux server and the state directory, by the first pane).
final class BrowserPane {
    let tmux: TmuxSession
    let dir: TemporaryDirectory
    let scene: String
    /// Given to every launch (e.g. `QUAKETUI_WINDOW_BUDGET_MS`).
    let environment: [String: String]
    /// Whether `settle` returns the pane with its attributes and colours (`capture-pane -e`).
    let styled: Bool
    private(set) var target = ""
    /// The pane's size now (`Step.resize` changes it), and the sizes walks resize it among.
    private(set) var size: (columns: Int, rows: Int)
    let sizes: [(columns: Int, rows: Int)]
    /// Whether this pane made the tmux server and the state directory (and removes them).
    private let owns: Bool
    /// The sample's launch refresh is tried at every launch: settled means it has failed.
    let isSample: Bool
    /// Bound, never listening: a connection to it is refused at once, like an offline machine's.
    private let closedPort: ClosedLocalPort?
    /// `TZ` for the browser (the days its sections span), else the test's own.
    private let timeZone: String?
    private let trace: URL
    /// Keys sent since the last launch.
    private var sent = 0
    /// Whether the last step sent ended with Esc.
    private var afterEscape = false

    /// Launches the browser in a new `columns`×`rows` pane.
    init(columns: Int, rows: Int, scene: String, firstLaunch: Bool = false, timeZone: String? = nil,
         environment: [String: String] = [:], styled: Bool = false) throws {
        self.environment = environment
        self.styled = styled
        dir = firstLaunch ? try TemporaryDirectory(prefix: "quaketui-first-launch")
            : try RestoreWalkEndToEndTests.stateDirectory()
        do {
            closedPort = firstLaunch ? try ClosedLocalPort() : nil
            tmux = try TmuxSession(columns: columns, rows: rows)
        } catch {
            dir.remove()
            throw error
        }
        (self.scene, owns, isSample, size, self.timeZone) = (scene, true, firstLaunch, (columns, rows), timeZone)
        sizes = Self.sizes(around: (columns, rows))
        trace = dir.appending("trace-\(scene)")
        do { try launch() } catch {
            close()
            throw error
        }
    }

    /// A second pane on `other`'s store, in another window of its tmux server.
    init(beside other: BrowserPane, scene: String) throws {
        (tmux, dir, closedPort, isSample, size, sizes) = (other.tmux, other.dir, other.closedPort, other.isSample,
                                                          other.size, other.sizes)
        (self.scene, owns, timeZone, environment, styled) = (scene, false, other.timeZone, other.environment, other.styled)
        trace = dir.appending("trace-\(scene)")
        try launch()
    }

    /// The base size and two others: side by side becomes narrow and back.
    private static func sizes(around base: (columns: Int, rows: Int)) -> [(columns: Int, rows: Int)] {
        [base, (base.columns * 2 / 3, max(12, base.rows - 8)), (base.columns + 20, base.rows + 4)]
    }

    func close() {
        guard owns else { return }
        tmux.close()
        closedPort?.close()
        dir.remove()
    }

    /// Starts the browser, in the same pane after the first time.
    func launch(environment: [String: String] = [:]) throws {
        try? FileManager.default.removeItem(at: trace)
        (sent, afterEscape) = (0, false)
        var environment = self.environment.merging(environment) { $1 }
        environment["QUAKETUI_TRACE"] = trace.path
        if let timeZone { environment["TZ"] = timeZone }
        environment["QUAKETUI_FEED_BASE_URL"] = closedPort.map { "http://127.0.0.1:\($0.port)" }
            ?? "file:///nonexistent-quaketui-feed"
        let arguments = ["--state-dir", dir.path, "--scene", scene]
        if target.isEmpty {
            target = try tmux.start(QuaketuiBinary.url.path, arguments, environment: environment)
            if size != sizes[0] { try tmux.resize(target, columns: size.columns, rows: size.rows) }
        } else {
            try tmux.respawn(target, QuaketuiBinary.url.path, arguments, environment: environment)
        }
    }

    func send(_ step: Step) throws {
        // Esc and the next key sent together read as one escape sequence (Esc [ a is a key of
        // its own): a person's keys are further apart than the browser's Esc delay, so the walk
        // lets the browser read the Esc alone first.
        if afterEscape { _ = try settle() }
        if case .keys(let names) = step { afterEscape = names.last == "Escape" } else { afterEscape = false }
        switch step {
        case .keys(let names): try tmux.send(target, keys: names)
        case .text(let text), .raw(let text, _): try tmux.send(target, keys: [text], literal: true)
        case .resize(let columns, let rows):
            // No key to count: wait for the frame the new size brings, after the frames of the
            // keys before it (which must not pass for it).
            _ = try settle()
            let frames = self.frames
            try tmux.resize(target, columns: columns, rows: rows)
            size = (columns, rows)
            guard eventually(timeout: 20, { self.frames > frames }) else {
                throw ChildProcess.ChildError("no frame after resizing to \(columns)x\(rows):\n\(try tmux.capture(target))")
            }
        }
        sent += step.keyCount
    }

    private var traceLines: [Substring] {
        ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n")
    }

    private var frames: Int { traceLines.count(where: { $0.hasPrefix("frame") }) }

    /// Copies the state directory to a new folder under the temp dir that the test does not
    /// remove, for a failure to be replayed by hand; returns its path (or why there is none).
    func keepStateDirectory(label: String) -> String {
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("quaketui-walk-failure-\(label)-\(UUID().uuidString)")
        do {
            try FileManager.default.copyItem(at: dir.url, to: kept)
            return kept.path
        } catch {
            return "nowhere (\(error))"
        }
    }

    /// The trace's last lines, one line of text (for failure messages).
    var traceTail: String { traceLines.suffix(16).joined(separator: " · ") }

    /// The scene's plist as it is on disk now, without its XML header (for failure messages).
    var scenePlist: String {
        let text = (try? String(contentsOfFile: dir.path + "/scenes/\(scene).plist", encoding: .utf8)) ?? "<none>"
        return text.split(separator: "\n").filter { !$0.hasPrefix("<?xml") && !$0.hasPrefix("<!DOCTYPE") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    }

    /// Waits until the browser has read every key sent, drawn, and written the scene (its trace
    /// ends with `idle`), and tmux shows a steady screen; returns that screen. On the sample, the
    /// launch refresh must also have failed (the header says `offline`): its message and the
    /// header's word come later than the first frame.
    func settle(timeout: TimeInterval = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [Substring] = []
        while Date() < deadline {
            lines = traceLines
            let keys = lines.count(where: { $0.hasPrefix("key ") })
            if keys >= sent, lines.last == "idle", lines.contains(where: { $0.hasPrefix("frame") }) {
                let screen = try tmux.capture(target)
                if isSample, Screen(screen).header.badges.last != "offline" {
                    usleep(20_000)
                    continue
                }
                usleep(60_000)
                if traceLines.count == lines.count, try tmux.capture(target) == screen {
                    return styled ? try tmux.styledCapture(target) : screen
                }
                continue
            }
            usleep(20_000)
        }
        throw ChildProcess.ChildError("""
            the browser did not settle within \(timeout) s: \(lines.count(where: { $0.hasPrefix("key ") })) of \(sent) keys read, \
            trace ends \(lines.suffix(3)); the pane shows:
            \(try tmux.capture(target))
            """)
    }
}

/// A TCP port on 127.0.0.1 that is bound but never listens: connecting is refused at once,
/// as on a machine without network, and no other test can take the port meanwhile.
final class ClosedLocalPort: @unchecked Sendable {
    let port: Int
    private var descriptor: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = fd >= 0 && withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { Glibc.close(fd) }
            throw ChildProcess.ChildError("no local port: \(reason)")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
