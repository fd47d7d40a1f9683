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

    func run(n: Int) throws -> [Figure] {
        log("real browser on a pty N=\(n.formatted()) ×\(runs)")
        var launches: [Double] = []
        for _ in 0..<runs {
            let browser = try Browser(self)
            launches.append(Double(try browser.nextFrame(after: 0) - browser.terminal.startedAt) / 1e9)
            try browser.quit()
        }
        let browser = try Browser(self)
        _ = try browser.nextFrame(after: 0)
        var keys: [(name: String, keys: [String], samples: [Double])] = [
            ("scroll a line (j)", ["j"], []), ("scroll a page (PgDn)", ["\u{1B}[6~"], []),
            ("search keystroke (/alaska, each letter)", ["/"] + BrowserRole.searchWord.map(String.init) + ["\u{1B}"], []),
            ("sort change (s, three times)", ["s", "s", "s"], []),
        ]
        for index in keys.indices {
            for _ in 0..<runs {
                for key in keys[index].keys {
                    let sent = monotonicNanoseconds()
                    browser.terminal.type(key)
                    let drawn = try browser.nextFrame(after: sent)
                    // "/" only opens the field and Esc clears it: time the letters.
                    if key != "/" && !(key == "\u{1B}" && keys[index].keys.count > 1) {
                        keys[index].samples.append(Double(drawn - sent) / 1e9)
                    }
                }
            }
        }
        // Idle: the browser blocks in poll(2) until a key, a posted action or the clock.
        let cpuBefore = try browser.terminal.cpuSeconds()
        Thread.sleep(forTimeInterval: Double(idleSeconds))
        let idleCPU = try browser.terminal.cpuSeconds() - cpuBefore
        let rss = browser.terminal.peakRSSBytes
        try browser.quit()

        var figures = [Figure(name: "pty: launch → first restored frame (real quaketui)", n: n, ours: launches.median,
                              ourMax: launches.maximum, samples: launches.count, unit: "s", target: "≤ 100 ms",
                              met: launches.median <= 0.1)]
        for key in keys {
            figures.append(Figure(name: "pty: key→frame: \(key.name)", n: n, ours: key.samples.median,
                                  ourMax: key.samples.maximum, samples: key.samples.count, unit: "s",
                                  target: "≤ 16 ms", met: key.samples.median <= 0.016))
        }
        figures.append(Figure(name: "pty: idle browser CPU over \(idleSeconds) s (utime+stime)", n: n, ours: idleCPU,
                              samples: 1, unit: "s", target: "≤ 0.1 s per 60 s",
                              met: idleCPU <= 0.1 * Double(idleSeconds) / 60))
        figures.append(Figure(name: "pty: browser peak RSS (real quaketui)", n: n,
                              ours: rss.map { Double($0) / 1e6 } ?? .nan, samples: rss == nil ? 0 : 1, unit: "MB",
                              target: "≤ 64 MB", met: rss.map { Double($0) / 1e6 <= 64 }))
        return figures
    }

    /// One browser process and its frame trace.
    final class Browser {
        let terminal: PseudoTerminal
        private let trace: URL
        private var seen = 0

        /// `environment` adds to (or replaces) the offline feed mirror and the trace.
        init(_ bench: TerminalBench, environment: [String: String] = [:]) throws {
            trace = FileManager.default.temporaryDirectory.appendingPathComponent("quakebench-trace-\(UUID().uuidString)")
            terminal = try PseudoTerminal(
                [bench.quaketui, "--state-dir", bench.store.path, "--scene", bench.scene],
                columns: BenchScreen.size.columns, rows: BenchScreen.size.rows,
                environment: ["QUAKETUI_TRACE": trace.path, "QUAKETUI_FEED_BASE_URL": "file:///nonexistent-quakebench"]
                    .merging(environment) { $1 })
        }

        /// The time of the first frame presented after `after` (ns), waiting up to 10 s.
        func nextFrame(after: UInt64) throws -> UInt64 {
            let deadline = monotonicNanoseconds() + 10_000_000_000
            while monotonicNanoseconds() < deadline {
                let lines = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n")
                for line in lines.dropFirst(seen) where line.hasSuffix("") {
                    let parts = line.split(separator: " ")
                    guard parts.count >= 2, parts[0] == "frame", let time = UInt64(parts[1]) else { continue }
                    seen += 1
                    if time >= after { seen = lines.count; return time }
                }
                usleep(200)
            }
            throw BenchError("the browser drew no frame within 10 s (trace \(trace.path))")
        }

        func quit() throws {
            terminal.type("q")
            let status = terminal.wait()
            try? FileManager.default.removeItem(at: trace)
            guard status == 0 else { throw BenchError("quaketui exited with \(status)") }
        }
    }
}
