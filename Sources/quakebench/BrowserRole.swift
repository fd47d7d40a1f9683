import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `quakebench --role browser STATE SCENE [--first-frame-only]`: a browser without a terminal.
///
/// It launches the way the browser does — open the store, open the scene's storage, build the
/// state from it, `BrowserModel` + `restore`, render the first frame — and prints
/// `first-frame <CLOCK_MONOTONIC ns>` so the parent can measure from before `posix_spawn`
/// (process start included). Then, unless `--first-frame-only`, it plays key presses and prints
/// one `sample <kind> <seconds>` per key: `BrowserModel.send` + reading the visible rows +
/// `Screen.render`. Its peak RSS is the "browser RSS" figure.
enum BrowserRole {
    /// The typed search, one key at a time, and how many times each key sequence is repeated.
    static let searchWord = "alaska"
    /// Two letters that no place holds (the issue's "1–2 letter string that matches nothing"),
    /// typed after one that many hold.
    static let noMatchWord = "xq"
    /// Home for the near-home filter and the distance sort (Tokyo; the generated quakes are real
    /// epicentres, so some hundreds of thousands of a 1M store lie within a few thousand km).
    static let home = GeoPoint(latitude: 35.68, longitude: 139.69)

    static func run(stateDirectory: String, scene: String, firstFrameOnly: Bool, repetitions: Int) throws {
        BrowserProcess.limitMallocArenas()  // as quaketui's browser does
        let launchedAt = monotonicNanoseconds()
        let container = try PersistentContainer(directory: URL(fileURLWithPath: stateDirectory))
        defer { container.close() }
        let storage = try SceneStorage(state: StateDirectory(path: stateDirectory), scene: SceneID(validating: scene))
        // The browser's own restore path: every scene key, then the screen for this size.
        var settings = AppSettings(timeZone: .utc)
        settings.home = home
        var state = AppState(sceneID: scene, settings: settings)
        let restored = state.restore(from: storage, now: Int64(Date().timeIntervalSince1970 * 1000))
        let selected = restored.selectedCode ?? ""
        // The browser's results source: a slow request answers with a provisional window first.
        let results = try ResultsEngine(container: container, request: state.request)
        let counted = Mailbox<ResultsEngine.CountAnswer>()
        results.onCounted = { counted.post($0) }
        let model = try BrowserModel(state: state, source: results)
        defer { model.close() }
        try model.restore(restored, size: BenchScreen.size)
        let first = try BenchScreen.frame(model, container: container)
        let drawnAt = monotonicNanoseconds()
        storage.markFirstFrameDrawn()
        results.keepSnapshot()  // as the browser does after its first frame
        guard model.state.selectedCode == selected, first.size == BenchScreen.size else {
            throw BenchError("restore did not come back to \(selected) (got \(model.state.selectedCode ?? "nothing"))")
        }
        var output = "first-frame \(drawnAt)\nrestore-start \(launchedAt)\n"
        if !firstFrameOnly {
            var samples: [(String, Double)] = []
            /// `QUAKEBENCH_ONLY=search,near` plays only those groups of keys (for profiling one).
            let only = ProcessInfo.processInfo.environment["QUAKEBENCH_ONLY"].map { Set($0.split(separator: ",").map(String.init)) }
            func plays(_ group: String) -> Bool { only?.contains(group) ?? true }
            /// Key → first frame (`kind`), key → the frame with complete counts (`counted-kind`),
            /// and key → the frame with the whole order (`ordered-kind`): all the same frame when
            /// the request was exact at once; a distance sort that builds its table counts first.
            /// The statistics view's background computation, as the runtime runs it (issue 32): the
            /// same call as `BrowserApp.computeStatistics`, the counts first (`statisticsPartial`),
            /// then the whole view (composition, moments, b-positive), kept.
            let statisticsReader = try LatestReader(container: container)
            defer { statisticsReader.close() }
            let statisticsCache = StatisticsCache()
            let computed = Mailbox<Action>()
            func key(_ kind: String, _ action: Action) throws {
                let start = monotonicNanoseconds()
                let effects = try model.send(action)
                // The runtime starts the statistics before it draws; the frame does not wait.
                var waiting = false
                for case .computeStatistics(let request, let declustering, let generation) in effects {
                    waiting = true
                    statisticsReader.submit(generation: generation, { db in
                        try db.catalogueStatistics(of: request, declustering: declustering, keptIn: statisticsCache, partial: { counts in
                            computed.post(.statisticsPartial(generation: generation, counts))
                        })
                    }) { generation, result in
                        switch result {
                        case .success(let statistics): computed.post(.statisticsComputed(generation: generation, statistics))
                        case .failure(let error): computed.post(.statisticsFailed(generation: generation, message: "\(error)"))
                        }
                    }
                }
                _ = try BenchScreen.frame(model, container: container)
                samples.append((kind, Double(monotonicNanoseconds() - start) / 1e9))
                func settle(until done: () -> Bool, _ name: String) throws {
                    while !done() {
                        guard let answer = counted.take(timeout: 600) else { throw BenchError("the count of \(kind) never settled") }
                        _ = try model.takeCount(answer)
                    }
                    _ = try BenchScreen.frame(model, container: container)
                    samples.append((name + kind, Double(monotonicNanoseconds() - start) / 1e9))
                }
                try settle(until: { model.results.countedTotal != nil }, "counted-")
                // A mark for the report: this key's counts came before its order.
                if model.results.isProvisional { samples.append(("counted-first-" + kind, 0)) }
                try settle(until: { !model.results.isProvisional }, "ordered-")
                // Key → the frame with the list's counts (`stats-first-kind`, when they come
                // before the rest), and → the frame with the complete statistics (`stats-kind`).
                while waiting {
                    guard let answer = computed.take(timeout: 600) else { throw BenchError("the statistics of \(kind) never came") }
                    try model.send(answer)
                    _ = try BenchScreen.frame(model, container: container)
                    let elapsed = Double(monotonicNanoseconds() - start) / 1e9
                    if case .statisticsPartial = answer {
                        samples.append(("stats-first-" + kind, elapsed))
                    } else {
                        samples.append(("stats-" + kind, elapsed))
                        waiting = false
                    }
                }
            }
            for _ in 0..<repetitions where plays("scroll") {
                for _ in 0..<4 { try key("scroll-line", .moveDown) }
                try key("scroll-page", .pageDown)
            }
            for _ in 0..<repetitions where plays("search") {
                try key("search-begin", .beginSearch)
                var typed = ""
                for character in searchWord {
                    typed.append(character)
                    try key("search-\(typed)", .searchInput(String(character)))
                }
                try key("search-esc", .cancelSearch)
            }
            for _ in 0..<repetitions where plays("near") {
                try key("near-on", .toggleNearHome)
                try key("near-off", .toggleNearHome)
            }
            for _ in 0..<repetitions where plays("sort") {
                // With a home: magnitude → region → depth → distance → intensity → time.
                for _ in QuakeSortOrder.allCases {
                    let next = model.state.sort.order.next(hasHome: true)
                    try key("sort-\(next.rawValue)", .nextSortOrder)
                }
            }
            for _ in 0..<repetitions where plays("keys") {
                // The rest of SPEC §8's keys, in time order: fold and unfold the selection's day,
                // reverse the order and back, every minimum magnitude and back to all, the last
                // quake and the first, and a search that matches nothing after one letter.
                for _ in 0..<2 { try key("collapse", .toggleSection) }
                for _ in 0..<2 { try key("reverse", .reverseSortDirection) }
                for _ in AppSettings.magnitudePresets { try key("min-magnitude", .cycleMinimumMagnitude) }
                try key("last", .last)
                try key("first", .first)
                try key("search-begin", .beginSearch)
                for (index, character) in noMatchWord.enumerated() {
                    try key("search-\(noMatchWord.prefix(index + 1))", .searchInput(String(character)))
                }
                try key("search-esc", .cancelSearch)
            }
            for _ in 0..<repetitions where plays("statsview") {
                // The statistics view open (issue 32): opening it, a search letter, a sort
                // (nothing to recompute), each minimum magnitude, closing it.
                try key("statsview-open", .toggleStatistics)
                try key("search-begin", .beginSearch)
                try key("statsview-search", .searchInput("a"))
                try key("statsview-search-esc", .cancelSearch)
                for _ in QuakeSortOrder.allCases { try key("statsview-sort", .nextSortOrder) }
                for _ in AppSettings.magnitudePresets { try key("statsview-min-magnitude", .cycleMinimumMagnitude) }
                try key("statsview-close", .toggleStatistics)
            }
            output += samples.map { "sample \($0.0) \($0.1)" }.joined(separator: "\n") + "\n"
            output += "rows-materialized \(model.results.rowsMaterialized)\n"
        }
        try storage.close()
        print(output, terminator: "")
    }
}

/// Answers from a background queue to the bench's thread, in order: the statistics reader's
/// actions, the results engine's count answers.
final class Mailbox<Message>: @unchecked Sendable {
    // @unchecked: `messages` is guarded by `lock`.
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var messages: [Message] = []

    func post(_ message: Message) {
        lock.withLock { messages.append(message) }
        ready.signal()
    }

    /// The oldest message not taken, waiting up to `seconds` for one (nil: none came).
    func take(timeout seconds: Double) -> Message? {
        guard ready.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { messages.removeFirst() }
    }
}
