import Foundation
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// Live propagation: a commit in another process → the frame that shows it in this one.
///
/// The writer (`quakebench --role writer`) commits single new quakes (newest first, so they
/// land above the selection) 40 ms apart and prints each commit's CLOCK_MONOTONIC time. Here a
/// browser model sits at the top of the list; the `StoreChangeObserver` callback sends
/// `.storeChanged` (merge the history) and renders, and the frame's time is logged with the
/// count its header shows. A commit's latency is the first frame at or after it whose count
/// includes it. (Not "shows its row": the selection is anchored, so the list keeps the selected
/// quake on its screen line and the new rows go above the fold, as they should.)
struct LiveBench {
    let store: URL
    let commits: Int
    let quakebench: String
    let quaketui: String
    /// A real month imported by `quaketui import` while a browser model watches (nil: skipped).
    let monthFile: URL?
    let monthRuns: Int

    func run(n: Int) throws -> [Figure] {
        log("live changes N=\(n.formatted()) ×\(commits)")
        // The writer's quakes are deleted afterwards, as the month's are: a later run on this
        // store measures N, not N plus these.
        let maxID = try ImportBench.maxID(store)
        defer { _ = try? ImportBench.deleteRows(after: maxID, in: store) }
        let container = try PersistentContainer(directory: store)
        defer { container.close() }
        let model = try Self.browserModel(scene: "live", container: container)
        defer { model.close() }
        let reader = LiveReader(model: model, container: container)
        let initialCount = model.results.count
        let observer = try StoreChangeObserver(container: container) { reader.storeChanged() }
        defer { observer.stop() }
        let writer = try Measured.run([quakebench, "--role", "writer", store.path, String(commits)])
        guard writer.status == 0 else { throw BenchError("writer failed (exit \(writer.status)): \(writer.stdout.prefix(300))") }
        // Let the last commit's frame land (the target is 250 ms).
        let deadline = monotonicNanoseconds() + 1_000_000_000
        let commitTimes = writer.stdout.split(separator: "\n").compactMap { line -> (String, UInt64)? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let time = UInt64(parts[1]) else { return nil }
            return (String(parts[0]), time)
        }
        while monotonicNanoseconds() < deadline, (reader.frames.last?.count ?? 0) < initialCount + commitTimes.count {
            usleep(5_000)
        }
        let frames = reader.frames
        if let error = reader.error { throw error }
        var latencies: [Double] = []
        var lost = 0
        for (index, (_, committed)) in commitTimes.enumerated() {
            if let frame = frames.first(where: { $0.time >= committed && $0.count >= initialCount + index + 1 }) {
                latencies.append(Double(frame.time - committed) / 1e9)
            } else {
                lost += 1
            }
        }
        let note = lost > 0 ? "\(lost) of \(commitTimes.count) commits never reached a frame within 1 s" : nil
        return [
            Figure(name: "live change in another process → frame", n: n, ours: latencies.median,
                   ourMax: latencies.maximum, samples: latencies.count, unit: "s", target: "≤ 250 ms (goal 50 ms)",
                   met: lost == 0 && latencies.median <= 0.25, note: note),
            Figure(name: "live change → frame (p95)", n: n, ours: latencies.percentile(0.95),
                   samples: latencies.count, unit: "s", target: "≤ 250 ms", met: lost == 0 && latencies.percentile(0.95) <= 0.25),
        ]
    }

    /// A month (`all_month-2023-04-04.csv`, 12,569 new quakes) imported by another process
    /// while a browser model at N, its selection a hundred rows down, merges and renders: from
    /// the moment the import's commit is visible to other connections (`PRAGMA data_version`
    /// polled every millisecond) to the first frame whose count includes every new quake, on the
    /// wall clock. The selection must still be the same quake. The month's rows are deleted
    /// after each run.
    func runMonth(n: Int) throws -> [Figure] {
        guard let monthFile, FileManager.default.fileExists(atPath: monthFile.path) else { return [] }
        let maxID = try ImportBench.maxID(store)
        var latencies: [Double] = [], commitSeconds: [Double] = []
        var problems: [String] = []
        for run in 0..<monthRuns {
            log("month import → browser frame N=\(n.formatted()) run \(run + 1)/\(monthRuns)")
            let container = try PersistentContainer(directory: store)
            defer { container.close() }
            let model = try Self.browserModel(scene: "live-month", container: container)
            defer { model.close() }
            let selected = try model.results.rows(in: 100..<101).first?.code
            try model.restore(selectedCode: selected, topCode: nil)
            let reader = LiveReader(model: model, container: container)
            let initialCount = model.results.count
            let observer = try StoreChangeObserver(container: container) { reader.storeChanged() }
            // When the commit becomes visible to other connections: `PRAGMA data_version` on a
            // connection of our own, polled every millisecond on a thread of its own.
            let visible = CommitWatch(container: container)
            visible.start()
            let m = try Measured.run([quaketui, "import", monthFile.path, "--state-dir", store.path])
            guard m.status == 0 else {
                observer.stop()
                throw BenchError("quaketui import of the month failed (exit \(m.status)): \(m.stdout.prefix(300))")
            }
            let added = Int(try container.viewContext.read { db in try db.scalar("SELECT count(*) FROM quake WHERE id > ?", [.integer(maxID)]).int64 ?? 0 })
            let committed = try container.viewContext.read { db in
                Double(try db.scalar("SELECT timestamp FROM history ORDER BY token DESC LIMIT 1").int64 ?? 0) / 1000
            }
            let deadline = monotonicNanoseconds() + 2_000_000_000
            while monotonicNanoseconds() < deadline, (reader.frames.last?.count ?? 0) < initialCount + added { usleep(5_000) }
            observer.stop()
            let visibleAt = visible.stop() ?? committed
            if let error = reader.error { throw error }
            if let frame = reader.frames.first(where: { $0.count >= initialCount + added }) {
                latencies.append(frame.wall - visibleAt)
                commitSeconds.append(visibleAt - committed)
            } else {
                problems.append("run \(run + 1): no frame showed the month within 2 s")
            }
            if model.state.selectedCode != selected || selected == nil {
                problems.append("run \(run + 1): selection \(selected ?? "none") became \(model.state.selectedCode ?? "none")")
            }
            try ImportBench.deleteRows(after: maxID, in: store)
        }
        return [
            Figure(name: "month import in another process → frame", n: n, ours: latencies.median, ourMax: latencies.maximum,
                   samples: latencies.count, unit: "s", target: "≤ 250 ms, selection kept",
                   met: problems.isEmpty && latencies.median <= 0.25,
                   note: (problems.isEmpty ? "selection kept" : problems.joined(separator: "; "))
                    + String(format: "; the commit itself (history timestamp → visible) took %.0f ms more", commitSeconds.median * 1000)),
        ]
    }

    /// The same writer, its commits 250 ms apart, beside the real `quaketui` on a pty (a scene
    /// of its own: the whole list in time order), whose frames the trace gives with their header rows: a commit's latency
    /// is the first frame at or after it whose header counts it, in the total and in `N new`
    /// (the browser holds a merge's frame until the arrivals read after it is in). Frames whose
    /// total and `N new` disagree are counted and reported.
    func runOnPTY(n: Int) throws -> [Figure] {
        log("live changes on a pty N=\(n.formatted()) ×\(commits)")
        let maxID = try ImportBench.maxID(store)
        defer { _ = try? ImportBench.deleteRows(after: maxID, in: store) }
        let browser = try TerminalBench.Browser(TerminalBench(store: store, quaketui: quaketui, runs: 1), scene: "live-pty")
        var quit = false
        defer { if !quit { try? browser.quit() } }
        /// The header's total and new quakes (0 without `N new`), from `… │ 1,000,040 quakes │ 3 new │ …`.
        func counts(_ header: String) -> (total: Int, new: Int)? {
            let segments = header.split(separator: "│").map { $0.trimmingCharacters(in: .whitespaces) }
            func number(_ suffix: String) -> Int? {
                segments.first { $0.hasSuffix(suffix) }.flatMap { Int($0.dropLast(suffix.count).replacingOccurrences(of: ",", with: "")) }
            }
            return number(" quakes").map { ($0, number(" new") ?? 0) }
        }
        // The launch's last frame, once the browser is idle: the store watched, the arrivals read.
        guard let launched = try browser.lastFrameBeforeIdle(), let initial = counts(launched.header) else {
            throw BenchError("the browser's launch drew no header with a count")
        }
        // Commits a quarter of a second apart: each after a quiet spell, merged at once (a stream
        // of them is merged once every 0.1 s at least, `MergePace`, which the rows above time).
        let writer = try Measured.run([quakebench, "--role", "writer", store.path, String(commits / 2), "250"])
        guard writer.status == 0 else { throw BenchError("writer failed (exit \(writer.status)): \(writer.stdout.prefix(300))") }
        let commitTimes = writer.stdout.split(separator: "\n").compactMap { line in line.split(separator: " ").last.flatMap { UInt64($0) } }
        var frames: [(time: UInt64, total: Int, new: Int)] = []
        let target = (total: initial.total + commitTimes.count, new: initial.new + commitTimes.count)
        while frames.last.map({ $0.total < target.total || $0.new < target.new }) ?? true {
            let frame = try browser.nextFrameWithHeader()
            guard let shown = counts(frame.header) else { continue }
            frames.append((frame.time, shown.total, shown.new))
        }
        try browser.quit()
        quit = true
        var latencies: [Double] = []
        for (index, committed) in commitTimes.enumerated() {
            if let frame = frames.first(where: { $0.time >= committed && $0.total >= initial.total + index + 1 && $0.new >= initial.new + index + 1 }) {
                latencies.append(Double(frame.time - committed) / 1e9)
            }
        }
        let lost = commitTimes.count - latencies.count
        let disagreeing = frames.filter { $0.total - initial.total != $0.new - initial.new }.count
        let note = "\(disagreeing) of \(frames.count) frames with a total and `N new` that disagree"
            + (lost > 0 ? "; \(lost) of \(commitTimes.count) commits never reached a frame" : "")
        return [
            Figure(name: "live change in another process → frame, real quaketui on a pty (marks read)", n: n,
                   ours: latencies.median, ourMax: latencies.maximum, samples: latencies.count, unit: "s",
                   target: "≤ 50 ms, totals and marks agree", met: lost == 0 && disagreeing == 0 && latencies.median <= 0.05,
                   note: note),
        ]
    }

    /// A browser model on the benchmark screen, at the top of the list.
    static func browserModel(scene: String, container: PersistentContainer) throws -> BrowserModel {
        let model = try BrowserModel(state: AppState(sceneID: scene, settings: AppSettings(timeZone: .utc),
                                                     columns: BenchScreen.size.columns, rows: BenchScreen.size.rows),
                                     container: container)
        do { try model.restore(selectedCode: nil, topCode: nil) } catch {
            model.close()
            throw error
        }
        return model
    }

    /// The writer role: COUNT single-quake commits `milliseconds` apart, each newer than
    /// everything stored; prints `CODE <CLOCK_MONOTONIC ns after the commit>` per commit.
    static func writer(store: URL, count: Int, milliseconds: Int = 40) throws {
        let container = try PersistentContainer(directory: store)
        defer { container.close() }
        let context = try container.newBackgroundContext(author: "quakebench")
        defer { context.close() }
        var output = ""
        let base: Int64 = 1_767_225_600_000 + 3_600_000
        for i in 0..<count {
            let code = "live\(UUID().uuidString.prefix(8))\(i)"
            _ = try context.performAndWait { tx in
                try tx.upsert(QuakeRecord(code: code, magnitude: 3, place: "Live, Bench", time: base + Int64(i) * 1000,
                                          updated: base, latitude: 0, longitude: 0))
            }
            output += "\(code) \(monotonicNanoseconds())\n"
            usleep(UInt32(milliseconds) * 1000)
        }
        print(output, terminator: "")
    }
}

/// The reader side: merges and renders on the observer's queue, logging each frame.
final class LiveReader: @unchecked Sendable {
    // @unchecked: the model is touched only from the observer's serial queue after `init`;
    // `log` and `failure` only under `lock`.
    private let model: BrowserModel
    private let container: PersistentContainer
    private let lock = NSLock()
    private var log: [(time: UInt64, count: Int, wall: Double)] = []
    private var failure: Error?

    init(model: BrowserModel, container: PersistentContainer) {
        self.model = model
        self.container = container
    }

    func storeChanged() {
        do {
            try model.send(.storeChanged)
            let screen = try BenchScreen.screenModel(model, container: container)
            _ = Screen.render(screen)
            let time = monotonicNanoseconds()
            lock.lock()
            log.append((time, screen.header.count, Date().timeIntervalSince1970))
            lock.unlock()
        } catch {
            lock.lock()
            failure = error
            lock.unlock()
        }
    }

    var frames: [(time: UInt64, count: Int, wall: Double)] { lock.lock(); defer { lock.unlock() }; return log }
    var error: Error? { lock.lock(); defer { lock.unlock() }; return failure }
}

/// Notes, on the wall clock, when another connection's commit first becomes visible.
final class CommitWatch: @unchecked Sendable {
    // @unchecked: `seen` and `running` only under `lock`.
    private let container: PersistentContainer
    private let lock = NSLock()
    private var seen: Double?
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(container: PersistentContainer) { self.container = container }

    func start() {
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            guard let context = try? container.newViewContext() else { return }
            defer { context.close() }
            let version = { try? context.read { db in try db.scalar("PRAGMA data_version").int64 } }
            let first = version()
            while isRunning {
                if version() != first {
                    lock.lock()
                    seen = Date().timeIntervalSince1970
                    lock.unlock()
                    return
                }
                usleep(1_000)
            }
        }
    }

    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }

    /// Stops watching; the wall-clock time of the first visible commit, if any.
    func stop() -> Double? {
        lock.lock()
        running = false
        lock.unlock()
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
