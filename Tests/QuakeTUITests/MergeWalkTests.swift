import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Keystrokes interleaved with commits from another connection (inserts, moves across sections,
/// deletes of the selected quake, a bulk delete that forces a reload), merged as the browser
/// merges them: after every walk, the live model's results equal a fresh fetch of the same
/// request, and a fresh model restored from the live scene draws the same screen.
@Suite struct MergeWalkTests {
    static let actions: [Action] = [
        .moveDown, .moveDown, .moveUp, .pageDown, .pageUp, .last, .first, .nextSortOrder, .reverseSortDirection,
        .cycleMinimumMagnitude, .beginSearch, .searchInput("a"), .searchInput("l"), .searchInput("o"), .searchEdit(.backspace),
        .cancelSearch, .toggleSection, .openDetail, .closeDetail,
    ]

    /// One commit by another writer, chosen by `generator`, touching the selected quake half the time.
    static func commit(_ store: TestStore, selected: String?, step: Int, using generator: inout SeededGenerator) throws {
        let writer = try store.container.newBackgroundContext(author: "other")
        defer { writer.close() }
        let time = RestoreWalkTests.now - Int64.random(in: 0..<(8 * 86_400_000), using: &generator)
        let magnitude = Double(Int.random(in: 0...70, using: &generator)) / 10
        let places = ["1 km S of Hilo, Hawaii", "Near Anchorage, Alaska", "Off the coast of Chile", "Tonga"]
        let place = places.randomElement(using: &generator)!
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<4:  // new quakes
            try writer.performAndWait { tx in
                for index in 0..<Int.random(in: 1...3, using: &generator) {
                    _ = try tx.upsert(.fixture("n\(step)-\(index)", magnitude: magnitude, place: place,
                                               time: time + Int64(index) * 1_000))
                }
            }
        case 4..<7:  // the selected quake (or another) moves: new time, magnitude and place
            let code = selected ?? "w\(1000 + Int.random(in: 0..<260, using: &generator))"
            try writer.performAndWait { tx in
                _ = try tx.upsert(.fixture(code, magnitude: magnitude, place: place, time: time,
                                           updated: RestoreWalkTests.now + Int64(step) * 1_000))
            }
        case 7..<9:  // the selected quake is deleted
            if let selected { try writer.performAndWait { tx in _ = try tx.deleteQuake(code: selected) } }
        default:  // a bulk delete: the merge reloads
            let prefix = "w\(1000 + 10 * Int.random(in: 0..<26, using: &generator))".dropLast()
            try writer.performAndWait { tx in _ = try tx.deleteQuakes(codePrefix: String(prefix)) }
        }
    }

    /// How `model`'s results differ from a fresh fetch of its request on `store` (nil: they do not).
    static func differenceFromAFreshFetch(_ model: BrowserModel, _ store: TestStore) throws -> String? {
        let fresh = try FetchedResultsController(container: store.container, request: model.state.request)
        defer { fresh.close() }
        let liveRows = try model.results.rows(in: 0..<model.results.count).map(\.code)
        let freshRows = try fresh.rows(in: 0..<fresh.count).map(\.code)
        guard model.results.sections != fresh.sections || liveRows != freshRows else { return nil }
        return "results differ from a fresh fetch (\(liveRows.count) vs \(freshRows.count) rows)"
    }

    @Test func walksWithCommitsFromAnotherWriterEndOnAFreshFetch() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let stateDirectory = try StateDirectory(path: dir.path).prepared()
        var failures: [String] = []
        for seed in UInt64(1)...12 {
            let store = try RestoreWalkTests.makeStore()
            defer { store.remove() }
            var generator = SeededGenerator(seed: seed)
            let size = RestoreWalkTests.sizes[Int(seed % 3)]
            let live = try BrowserModel(state: AppState(sceneID: "m\(seed)", settings: AppSettings(timeZone: .utc)),
                                        container: store.container)
            defer { live.close() }
            try live.restore(AppState.RestoredSelection(), size: size)
            for step in 0..<40 {
                if Int.random(in: 0..<3, using: &generator) == 0 {
                    try Self.commit(store, selected: live.state.selectedCode, step: step, using: &generator)
                    _ = try live.performReads(live.send(.storeChanged))
                } else {
                    _ = try live.performReads(live.send(Self.actions.randomElement(using: &generator)!))
                }
            }
            // The live results equal a fresh fetch of the same request.
            if let difference = try Self.differenceFromAFreshFetch(live, store) {
                failures.append("seed \(seed): \(difference)")
                continue
            }
            // And a fresh model restored from the scene draws the same screen.
            let scene = try SceneID(validating: "m\(seed)")
            let storage = try SceneStorage(state: stateDirectory, scene: scene)
            try live.state.app.save(to: storage)
            try storage.close()
            var state = AppState(sceneID: scene.rawValue, settings: live.state.settings)
            let selection = state.restore(from: try SceneStorage(state: stateDirectory, scene: scene), now: relaunchNow)
            let relaunched = try BrowserModel(state: state, container: store.container)
            defer { relaunched.close() }
            try relaunched.restore(selection, size: size)
            _ = try relaunched.performReads(relaunched.pendingReads)
            let (before, after) = (try RestoreWalkTests.screen(live), try RestoreWalkTests.screen(relaunched))
            if before != after { failures.append("seed \(seed) at \(size.columns)x\(size.rows):\nlive:\n\(before)\nfresh:\n\(after)") }
        }
        #expect(failures.isEmpty, "\(failures.count) walks differ:\n\(failures.joined(separator: "\n\n"))")
    }
}
