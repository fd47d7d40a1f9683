import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `quakebench --role sort-key STATE CODE [--repetitions N]`: the pty sequence's `s` → distance
/// in process, for a profiler (`valgrind --tool=callgrind --toggle-collect='*distanceKey*'`).
/// The browser starts in region order with `CODE` selected (the pty bench's `/alaska`, Enter,
/// Esc leaves the newest Alaska quake, `bench00000001`, selected: 5,600 km from home, Tokyo),
/// then `s` → distance is sent, read and rendered; after the background work settles, `s`
/// → time → magnitude → region again. Prints `sample <seconds>` per distance key with the
/// rows its first frame holds.
enum SortKeyRole {
    static func run(stateDirectory: String, code: String, repetitions: Int) throws {
        let container = try PersistentContainer(directory: URL(fileURLWithPath: stateDirectory))
        defer { container.close() }
        var settings = AppSettings(timeZone: .utc)
        settings.home = BrowserRole.home
        var state = AppState(sceneID: "sort-key", settings: settings)
        state.sort = QuakeSortDescriptor(.region)
        let results = try ResultsEngine(container: container, request: state.request, budget: nil)
        results.budget = .milliseconds(6)
        let counted = Mailbox<ResultsEngine.CountAnswer>()
        results.onCounted = { counted.post($0) }
        let model = try BrowserModel(state: state, source: results)
        defer { model.close() }
        _ = try model.send(.resize(columns: BenchScreen.size.columns, rows: BenchScreen.size.rows))
        try model.restore(selectedCode: code, topCode: nil)
        func settle() throws {
            while model.results.isProvisional {
                guard let answer = counted.take(timeout: 600) else { throw BenchError("never settled") }
                _ = try model.takeCount(answer)
            }
            _ = try BenchScreen.frame(model, container: container)
        }
        try settle()
        guard model.state.selectedCode == code else { throw BenchError("\(code) is not selected (\(model.state.selectedCode ?? "nothing"))") }
        var output = ""
        for _ in 0..<repetitions {
            while model.state.sort.order != .region {
                _ = try model.send(.nextSortOrder)
                try settle()
            }
            let start = monotonicNanoseconds()
            try distanceKey(model, container: container)
            let elapsed = Double(monotonicNanoseconds() - start) / 1e9
            output += "sample \(elapsed) rows \(model.results.count) provisional \(model.results.isProvisional) selected \(model.state.selectedCode ?? "none")\n"
            if output.split(separator: "\n").count == repetitions { break }  // the last: no wait for its background work
            try settle()
            _ = try model.send(.nextSortOrder)
            try settle()
        }
        print(output, terminator: "")
    }

    @inline(never)
    static func distanceKey(_ model: BrowserModel, container: PersistentContainer) throws {
        _ = try model.send(.nextSortOrder)
        _ = try BenchScreen.frame(model, container: container)
    }
}
