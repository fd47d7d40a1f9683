import Foundation

/// The real browser, `quaketui`, on a pseudo-terminal of `BenchScreen.size`: launch to first
/// restored frame, key press to frame, and its peak RSS. Frames are timed by the browser's
/// `QUAKETUI_TRACE` hook (one line per frame presented, on CLOCK_MONOTONIC), keys from the moment
/// they are written to the terminal, so each figure includes input decoding, the model, the
/// store reads, rendering and the ncurses output — everything but the terminal emulator.
///
/// Uses the scene `BrowserBench` saved (mid-list selection, detail open).
struct TerminalBench {
    let store: URL
    let quaketui: String
    let runs: Int
    /// How long the idle browser is watched for its CPU time (SPEC: 60 s).
    var idleSeconds = 60
    let scene = "bench"

    /// A key's bytes as a terminal sends them, the row its samples go to (nil: typed to get
    /// somewhere, not timed), and what the header row of the key's frame must then say: a
    /// sequence that no longer does what its rows name (issue 55's intensity sort joined `s`'s
    /// cycle, and the bench timed it as `s` → time) stops the bench rather than mislabel them.
    struct Step {
        let bytes: String
        let row: String?
        var header: HeaderCheck? = nil
        static func timed(_ bytes: String, _ row: String, header: HeaderCheck? = nil) -> Step {
            Step(bytes: bytes, row: row, header: header)
        }
        static func untimed(_ bytes: String) -> Step { Step(bytes: bytes, row: nil) }
        /// `s` to `order`: its row, `s → ORDER`, and the header's `sort ORDER ↓|↑`.
        static func sort(_ order: String) -> Step { .timed("s", "s → \(order)", header: .shows("sort \(order) ")) }
        /// Typed on the command line (`:`), each character untimed; the timed key is its Enter.
        static func command(_ text: String) -> [Step] { ([":"] + text.map(String.init)).map(untimed) }
    }

    /// Text the header row must hold, or must not, after a step's frame.
    enum HeaderCheck {
        case shows(String)
        case lacks(String)

        /// Nil when `header` agrees, else what went wrong.
        func failure(_ header: String) -> String? {
            switch self {
            case .shows(let text): header.contains(text) ? nil : "the header does not show “\(text)”"
            case .lacks(let text): header.contains(text) ? "the header still shows “\(text)”" : nil
            }
        }
    }

    /// Every key of SPEC §8 that draws a frame (`q` and `Q` end the browser, so they are timed by
    /// no row), plus `~` and issue 55's `:intensity 4+`, in sequences that leave the browser
    /// where they found it: each sequence runs `runs` times. The scene starts mid-list with the
    /// detail open, sorted by time; home is set, so `s` goes through magnitude → region → depth →
    /// distance → intensity → time (`QuakeSortOrder.next(hasHome: true)`; each step checks the
    /// header) and the first distance sort builds its table (its sample is that row's worst).
    static let sequences: [[Step]] = [
        [.untimed("\u{1B}")],  // close the restored detail (Esc's own row is below)
        [.timed("j", "j (next quake)"), .timed("k", "k (previous quake)")],
        [.timed("\u{1B}[B", "↓"), .timed("\u{1B}[A", "↑")],
        [.timed("\u{1B}[6~", "PgDn"), .timed("\u{1B}[5~", "PgUp")],
        [.timed("\u{04}", "ctrl-d (half a page down)"), .timed("\u{15}", "ctrl-u (half a page up)")],
        [.timed("G", "G (last quake)"), .timed("g", "g (first quake)")],
        [.timed(" ", "space (fold the section)"), .timed(" ", "space (unfold it)")],
        [.timed("\r", "Enter (open the detail)"), .timed("\t", "Tab (next tab)"), .timed("\u{1B}[Z", "shift-Tab (previous tab)"),
         .timed("2", "1 2 3 (a tab)"), .timed("3", "1 2 3 (a tab)"), .timed("1", "1 2 3 (a tab)"),
         .timed("\u{1B}", "Esc (close the detail)")],
        [.untimed("/")] + BrowserRole.searchWord.map { .timed(String($0), "search keystroke (/alaska, each letter)") }
            + [.timed("\r", "Enter (keep the search)"), .timed("\u{1B}", "Esc (clear the search)")],
        ["magnitude", "region", "depth", "distance", "intensity", "time"].map(Step.sort),
        [.timed("S", "S (reverse the order)", header: .shows("sort time ↑")),
         .timed("S", "S (reverse the order)", header: .shows("sort time ↓"))],
        Array(repeating: .timed("m", "m (each minimum magnitude)"), count: 4),
        [.timed("~", "~ (near home on)", header: .shows("near ")), .timed("~", "~ (near home off)", header: .lacks("near "))],
        // Issue 55's filter by the intensity predicted at home (in time order), then cleared.
        Step.command("intensity 4+") + [.timed("\r", ":intensity 4+ Enter (filter by intensity at home)", header: .shows(":intensity 4+"))]
            + Step.command("clear") + [.timed("\r", ":clear Enter (clear the filters)", header: .lacks(":intensity"))],
        [.timed("?", "? (help)"), .timed("\u{1B}", "Esc (close help)")],
        [.timed("e", "e (edit notes)"), .timed("\u{1B}", "Esc (cancel the notes)")],
        [.timed("H", "H (handoff)"), .timed("r", "r (refresh in the background)"), .timed("\u{0C}", "ctrl-l (redraw)")],
    ]

    /// `/` `Esc` (no search), `:sort time desc`, `:clear` and, when the header says so, `~`:
    /// untimed, each frame awaited, the header checked.
    static func startFromTimeOrder(_ browser: Browser) throws {
        var header = ""
        for step in [Step.untimed("/"), .untimed("\u{1B}")] + Step.command("sort time desc") + [.untimed("\r")]
                        + Step.command("clear") + [.untimed("\r")] {
            browser.terminal.type(step.bytes)
            header = try browser.nextFrameAfterKey().header
        }
        if header.contains("near ") {
            browser.terminal.type("~")
            header = try browser.nextFrameAfterKey().header
        }
        // At 5M the counts of that whole list take a while: the sequences start once they are
        // exact (a key typed before would wait for them, and its frame show the list before it).
        while header.contains("… quakes") { header = try browser.nextHeader() }
        guard header.contains("sort time ↓"), !header.contains("near "), !header.contains(" :"), !header.contains(" /") else {
            throw BenchError("the scene did not come back to time order, unfiltered, unsearched: “\(header)”")
        }
    }

    func run(n: Int) throws -> [Figure] {
        warmPageCache(store)
        warmExecutable(quaketui)
        log("real browser on a pty N=\(n.formatted()) ×\(runs)")
        var launches: [Double] = []
        for _ in 0..<runs {
            let browser = try Browser(self)
            launches.append(Double(try browser.nextFrame(after: 0) - browser.terminal.startedAt) / 1e9)
            try browser.quit()
        }
        // Home for `~` and the distance sort, set as a user would; unset again at the end so the
        // store's other benchmarks see it as they made it.
        try config(["home", "\(BrowserRole.home.latitude),\(BrowserRole.home.longitude)", "--name", "Tokyo"])
        defer { try? config(["home", "--unset"]) }
        let browser = try Browser(self)
        _ = try browser.nextFrame(after: 0)
        var rows: [String] = []
        var samples: [String: [Double]] = [:]
        for (index, sequence) in Self.sequences.enumerated() {
            // After the first (the restored detail closed): a scene another run left may be in
            // another order, filtered or near home; the sequences start from time order, unfiltered.
            if index == 1 { try Self.startFromTimeOrder(browser) }
            for _ in 0..<(sequence.contains { $0.row != nil } ? runs : 1) {
                for step in sequence {
                    let sent = monotonicNanoseconds()
                    browser.terminal.type(step.bytes)
                    let (drawn, header) = try browser.nextFrameAfterKey()
                    if let failure = step.header?.failure(header) {
                        throw BenchError("after \(step.row ?? "an untimed key") (\(step.bytes.debugDescription)) \(failure): “\(header)”")
                    }
                    guard let row = step.row else { continue }
                    if samples[row] == nil { rows.append(row) }
                    samples[row, default: []].append(Double(drawn - sent) / 1e9)
                }
            }
        }
        // Idle: the browser blocks in poll(2) until a key, a posted action or the clock. The
        // watch starts once the work of the last keys is done (at 5M a superseded statistics
        // or count may take a second to stop or finish): no CPU time for a whole second.
        let settleStart = monotonicNanoseconds()
        var cpuBefore = try browser.terminal.cpuSeconds(), quietSince = settleStart
        while monotonicNanoseconds() - quietSince < 1_000_000_000, monotonicNanoseconds() - settleStart < 30_000_000_000 {
            usleep(100_000)
            let cpu = try browser.terminal.cpuSeconds()
            if cpu != cpuBefore { (cpuBefore, quietSince) = (cpu, monotonicNanoseconds()) }
        }
        let settled = Double(monotonicNanoseconds() - settleStart) / 1e9
        Thread.sleep(forTimeInterval: Double(idleSeconds))
        let idleCPU = try browser.terminal.cpuSeconds() - cpuBefore
        let rss = browser.terminal.peakRSSBytes
        try browser.quit()

        var figures = [Figure(name: "pty: launch → first restored frame (real quaketui)", n: n, ours: launches.median,
                              ourMax: launches.maximum, samples: launches.count, unit: "s",
                              target: "≤ 50 ms, worst ≤ 100 ms", met: launches.median <= 0.05 && launches.maximum <= 0.1)]
        for row in rows {
            let times = samples[row] ?? []
            figures.append(Figure(name: "pty: key→frame: \(row)", n: n, ours: times.median, ourMax: times.maximum,
                                  samples: times.count, unit: "s", target: "≤ 16 ms, worst ≤ 33 ms",
                                  met: times.median <= 0.016 && times.maximum <= 0.033))
        }
        figures.append(Figure(name: "pty: idle browser CPU over \(idleSeconds) s (utime+stime)", n: n, ours: idleCPU,
                              samples: 1, unit: "s", target: "≤ 0.1 s per 60 s",
                              met: idleCPU <= 0.1 * Double(idleSeconds) / 60,
                              note: "watched from \(String(format: "%.1f", settled)) s after the last key, once its work was done"))
        figures.append(Figure(name: "pty: browser peak RSS (real quaketui)", n: n,
                              ours: rss.map { Double($0) / 1e6 } ?? .nan, samples: rss == nil ? 0 : 1, unit: "MB",
                              target: "≤ 64 MB", met: rss.map { Double($0) / 1e6 <= 64 }))
        return figures
    }

    /// `quaketui config ARGS` on the bench's state directory.
    private func config(_ arguments: [String]) throws {
        let result = try Measured.run([quaketui, "config"] + arguments + ["--state-dir", store.path])
        guard result.status == 0 else { throw BenchError("quaketui config \(arguments.joined(separator: " ")) failed (exit \(result.status))") }
    }

    /// One browser process and its frame trace.
    final class Browser {
        let terminal: PseudoTerminal
        private let trace: URL
        private let lines: TraceLines

        /// Where traces go, and stay, when `$QUAKEBENCH_KEEP_TRACES` names a directory (to read
        /// what the browser did around a slow frame); else a temporary file, removed at `quit`.
        private static let keptTraces = ProcessInfo.processInfo.environment["QUAKEBENCH_KEEP_TRACES"].map { URL(fileURLWithPath: $0) }

        /// `environment` adds to (or replaces) the offline feed mirror and the trace; `scene`
        /// replaces the bench's (`bench`).
        init(_ bench: TerminalBench, scene: String? = nil, environment: [String: String] = [:]) throws {
            let directory = Self.keptTraces ?? FileManager.default.temporaryDirectory
            trace = directory.appendingPathComponent("quakebench-trace-\(UUID().uuidString)")
            if Self.keptTraces != nil { log("trace of this browser: \(trace.path)") }
            lines = TraceLines(trace)
            terminal = try PseudoTerminal(
                [bench.quaketui, "--state-dir", bench.store.path, "--scene", scene ?? bench.scene],
                columns: BenchScreen.size.columns, rows: BenchScreen.size.rows,
                environment: ["QUAKETUI_TRACE": trace.path, "QUAKETUI_FEED_BASE_URL": "file:///nonexistent-quakebench"]
                    .merging(environment) { $1 })
        }

        /// The time of the first frame presented after `after` (ns), waiting up to 10 s.
        func nextFrame(after: UInt64) throws -> UInt64 {
            try lines.wait("the browser drew no frame within 10 s (trace \(trace.path))") { parts in
                guard parts.count >= 2, parts[0] == "frame", let time = UInt64(parts[1]), time >= after else { return nil }
                return time
            }
        }

        /// The time of the first frame presented after the browser handled the key just typed
        /// (its `key` trace line), and that frame's header row as drawn, waiting up to 10 s.
        ///
        /// Not the first frame after the key's bytes were written: a frame the browser was
        /// drawing when they arrived (a background count of the previous key settling) does not
        /// show the key, and taking it as the key's frame shifts every later key onto the frame
        /// of the key before it (`s` → time was timed by the frame of `s` → distance).
        func nextFrameAfterKey() throws -> (time: UInt64, header: String) {
            var handled = false
            return try lines.wait("the browser drew no frame for a key within 10 s (trace \(trace.path))") { parts in
                if parts.first == "key" { handled = true }
                guard handled, parts.count >= 2, parts[0] == "frame", let time = UInt64(parts[1]) else { return nil }
                // `frame <ns> <rows> <header row>` (FrameTrace); the header's words rejoined.
                return (time, parts.dropFirst(3).joined(separator: " "))
            }
        }

        /// The header row of the next frame the browser presents, waiting up to 10 s.
        func nextHeader() throws -> String {
            try nextFrameWithHeader().header
        }

        /// The time and header row of the last frame presented before the browser's trace says
        /// `idle` (nothing left to do, the scene on disk), waiting up to 10 s; nil: none since the last wait.
        func lastFrameBeforeIdle() throws -> (time: UInt64, header: String)? {
            var last: (time: UInt64, header: String)?
            return try lines.wait("the browser did not settle within 10 s (trace \(trace.path))") { parts in
                if parts.count >= 2, parts[0] == "frame", let time = UInt64(parts[1]) {
                    last = (time, parts.dropFirst(3).joined(separator: " "))
                }
                return parts.first == "idle" ? .some(last) : nil
            }
        }

        /// The time and header row of the next frame the browser presents, waiting up to 10 s.
        func nextFrameWithHeader() throws -> (time: UInt64, header: String) {
            try lines.wait("the browser drew no frame within 10 s (trace \(trace.path))") { parts in
                guard parts.count >= 2, parts[0] == "frame", let time = UInt64(parts[1]) else { return nil }
                return (time, parts.dropFirst(3).joined(separator: " "))
            }
        }

        func quit() throws {
            terminal.type("q")
            let status = terminal.wait()
            if Self.keptTraces == nil { try? FileManager.default.removeItem(at: trace) }
            guard status == 0 else { throw BenchError("quaketui exited with \(status)") }
        }
    }
}

/// The lines a browser appends to its trace file, read as they come: each poll reads only the
/// bytes written since the last one, so the bench's own polling (every 200 µs) costs the
/// machine next to nothing while the browser it times works.
final class TraceLines {
    private let url: URL
    /// Opened once the browser has written to the file: it creates the file by replacing
    /// whatever was at the path, so a handle opened before would read another file.
    private var handle: FileHandle?
    private var partial = Data()
    private var pending: [[Substring]] = []

    init(_ url: URL) { self.url = url }
    deinit { try? handle?.close() }

    /// Reads lines until `match` returns a value for one (lines before it are consumed, the
    /// rest stay for the next wait), or throws `failure` after 10 s.
    func wait<T>(_ failure: String, _ match: ([Substring]) -> T?) throws -> T {
        let deadline = monotonicNanoseconds() + 10_000_000_000
        while true {
            while !pending.isEmpty {
                if let found = match(pending.removeFirst()) { return found }
            }
            guard monotonicNanoseconds() < deadline else { throw BenchError(failure) }
            if !readMore() { usleep(200) }
        }
    }

    /// Whole lines only: the browser may be writing the last one.
    private func readMore() -> Bool {
        if handle == nil, let size = try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize, size > 0 {
            handle = try? FileHandle(forReadingFrom: url)
        }
        guard let data = try? handle?.readToEnd(), !data.isEmpty else { return false }
        partial.append(data)
        guard let end = partial.lastIndex(of: UInt8(ascii: "\n")) else { return true }
        let text = String(decoding: partial[partial.startIndex..<end], as: UTF8.self)
        partial = Data(partial[(end + 1)...])
        pending += text.split(separator: "\n").map { $0.split(separator: " ") }
        return true
    }
}

