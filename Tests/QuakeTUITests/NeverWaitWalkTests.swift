import Dispatch
import Foundation
@testable import QuakeModel
@testable import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Never wait on a key (issue 11): keystrokes answered by provisional windows, counts that a
/// newer key supersedes or that settle in between, and commits from another writer merged
/// meanwhile, in seeded random order. After every walk the settled results equal a fresh
/// fetch, and the screen equals the one a model on a fresh exact fetch draws for the same state.
@Suite struct NeverWaitWalkTests {
    /// Results on `store` that take the provisional path on every request, with windows read
    /// within `windowLimit` (nil: whole, however loaded the machine; zero: cut short at once),
    /// and their counts' answers.
    static func provisionalResults(_ store: TestStore, windowLimit: Duration?,
                                   margin: Int? = nil) throws -> (ResultsEngine, CountAnswers) {
        let results = try ResultsEngine(container: store.container,
                                              request: SectionedFetchRequest(timeZone: TimeZone(identifier: "UTC")!))
        results.alwaysProvisional = true
        results.windowLimit = windowLimit
        if let margin { results.provisionalMargin = margin }
        return (results, CountAnswers(results))
    }

    static func settle(_ model: BrowserModel, _ settled: CountAnswers) throws {
        while model.results.isProvisional {
            let answer = try #require(settled.next(), "a count never settled")
            _ = try model.takeCount(answer).map { try model.performReads($0.effects) }
        }
    }

    /// A screen with its counts and scrollbar blanked (`(…)`, `(1,234)`, `… quakes`, `12 quakes`,
    /// `┃`) and the padding they move collapsed.
    static func withoutCounts(_ screen: String) -> String {
        screen.replacingOccurrences(of: #"\((…|[0-9,]+)\)"#, with: "(#)", options: .regularExpression)
            .replacingOccurrences(of: #"(…|[0-9,]+) quakes?"#, with: "# quakes", options: .regularExpression)
            .replacingOccurrences(of: "┃", with: " ")
            // The count's width moves the header's rule and the scene label: collapse the padding.
            .replacingOccurrences(of: #"[─ ]{2,}"#, with: " ", options: .regularExpression)
    }

    /// The screen a model on a fresh exact fetch draws in `live`'s state: the same selection on
    /// the same line, at `size`, its reads done.
    static func exactScreen(of live: BrowserModel, _ store: TestStore, size: Size) throws -> String {
        let exact = try BrowserModel(state: live.state.app, container: store.container)
        defer { exact.close() }
        try exact.restore(AppState.RestoredSelection(selectedCode: live.state.selectedCode,
                                                     selectedSection: live.state.selectedSection,
                                                     selectionLine: live.state.selectionLine), size: size)
        _ = try exact.performReads(exact.pendingReads)
        return try RestoreWalkTests.screen(exact)
    }

    /// A store of `times.count` quakes at those times, epicentres all over the globe, magnitudes
    /// and places drawn from `generator`.
    static func storeAllOverTheGlobe(times: [Int64], using generator: inout SeededGenerator) throws -> TestStore {
        let store = try TestStore()
        let places = ["5 km N of Hilo, Hawaii", "40 km SW of Anchorage, Alaska", "Off the coast of Chile", "12 km E of Tokyo, Japan"]
        try store.upsert(times.enumerated().map { index, time in
            var record = QuakeRecord.fixture("g\(1000 + index)", magnitude: Double(Int.random(in: 0...70, using: &generator)) / 10,
                                             place: places.randomElement(using: &generator)!, time: time)
            record.latitude = Double.random(in: -80...80, using: &generator)
            record.longitude = Double.random(in: -180...180, using: &generator)
            return record
        })
        return store
    }

    /// A model with `home` on provisional results over `store` (whole windows of `margin` rows),
    /// restored at `size` with its first count settled.
    static func settledModel(_ store: TestStore, scene: String, home: GeoPoint, size: Size,
                             margin: Int) throws -> (BrowserModel, CountAnswers) {
        var settings = AppSettings(timeZone: .utc)
        settings.home = home
        let (results, settled) = try provisionalResults(store, windowLimit: nil, margin: margin)
        let live = try BrowserModel(state: AppState(sceneID: scene, settings: settings), source: results)
        do {
            try live.restore(AppState.RestoredSelection(), size: size)
            try settle(live, settled)
        } catch {
            live.close()
            throw error
        }
        return (live, settled)
    }

    @Test func walksWithPendingCountsAndCommitsEndOnAFreshFetch() throws {
        var failures: [String] = []
        for seed in UInt64(1)...10 {
            let store = try RestoreWalkTests.makeStore()
            defer { store.remove() }
            var generator = SeededGenerator(seed: seed)
            let size = RestoreWalkTests.sizes[Int(seed % 3)]
            let (results, settled) = try Self.provisionalResults(store, windowLimit: nil,
                                                                 margin: size.rows + Int.random(in: 2...20, using: &generator))
            let live = try BrowserModel(state: AppState(sceneID: "w\(seed)", settings: AppSettings(timeZone: .utc)), source: results)
            defer { live.close() }
            try live.restore(AppState.RestoredSelection(), size: size)
            for step in 0..<40 {
                switch Int.random(in: 0..<8, using: &generator) {
                case 0:
                    try MergeWalkTests.commit(store, selected: live.state.selectedCode, step: step, using: &generator)
                    _ = try live.performReads(live.send(.storeChanged))
                case 1:
                    try Self.settle(live, settled)
                default:
                    _ = try live.performReads(live.send(MergeWalkTests.actions.randomElement(using: &generator)!))
                }
                // A provisional frame already shows what the settled one will: the same rows on
                // the same lines, only the counts (and the scrollbar) still to come.
                // (With nothing found yet, it says it is still looking instead.)
                if live.results.isProvisional, live.results.count == 0 {
                    let screen = try RestoreWalkTests.screen(live)
                    if !screen.contains("Looking for matching quakes…") { failures.append("seed \(seed) step \(step): \(screen)") }
                } else if live.results.isProvisional {
                    let (pending, settled) = (Self.withoutCounts(try RestoreWalkTests.screen(live)),
                                              Self.withoutCounts(try Self.exactScreen(of: live, store, size: size)))
                    if pending != settled {
                        failures.append("seed \(seed) step \(step) at \(size.columns)x\(size.rows):\npending:\n\(pending)\nsettled:\n\(settled)")
                    }
                }
            }
            try Self.settle(live, settled)
            _ = try live.performReads(live.send(.storeChanged))
            if let difference = try MergeWalkTests.differenceFromAFreshFetch(live, store) {
                failures.append("seed \(seed): \(difference)")
                continue
            }
            // A model on an exact fetch, put in the same state, draws the same screen.
            let (before, after) = (try RestoreWalkTests.screen(live), try Self.exactScreen(of: live, store, size: size))
            if before != after { failures.append("seed \(seed) at \(size.columns)x\(size.rows):\nlive:\n\(before)\nexact:\n\(after)") }
            // A relaunch whose request is still being counted: its provisional first frame, and
            // the settled one, are the screen the walk left.
            let (relaunchResults, relaunchSettled) = try Self.provisionalResults(store, windowLimit: nil, margin: size.rows + 2)
            let relaunched = try BrowserModel(state: live.state.app, source: relaunchResults)
            defer { relaunched.close() }
            try relaunched.restore(AppState.RestoredSelection(selectedCode: live.state.selectedCode,
                                                              selectedSection: live.state.selectedSection,
                                                              selectionLine: live.state.selectionLine), size: size)
            _ = try relaunched.performReads(relaunched.pendingReads)
            let first = try RestoreWalkTests.screen(relaunched)
            if relaunched.results.count == 0 ? !first.contains("Looking for matching quakes…")
                : Self.withoutCounts(first) != Self.withoutCounts(after) {
                failures.append("seed \(seed) relaunch, first frame:\n\(first)\nexact:\n\(after)")
            }
            try Self.settle(relaunched, relaunchSettled)
            let settledScreen = try RestoreWalkTests.screen(relaunched)
            if settledScreen != after { failures.append("seed \(seed) relaunch, settled:\n\(settledScreen)\nexact:\n\(after)") }
            // A relaunch on a loaded machine, whose window is cut short before it reaches the
            // rows past the selection: once counted, it is still the screen the walk left.
            let (cutResults, cutSettled) = try Self.provisionalResults(store, windowLimit: .zero)
            let cut = try BrowserModel(state: live.state.app, source: cutResults)
            defer { cut.close() }
            try cut.restore(AppState.RestoredSelection(selectedCode: live.state.selectedCode,
                                                       selectedSection: live.state.selectedSection,
                                                       selectionLine: live.state.selectionLine), size: size)
            _ = try cut.performReads(cut.pendingReads)
            try Self.settle(cut, cutSettled)
            let cutScreen = try RestoreWalkTests.screen(cut)
            if cutScreen != after { failures.append("seed \(seed) relaunch cut short, settled:\n\(cutScreen)\nexact:\n\(after)") }
        }
        #expect(failures.isEmpty, "\(failures.count) walks differ:\n\(failures.joined(separator: "\n\n"))")
    }

    /// A distance sort that builds its table shows its band counts before its order (a second
    /// at 1,000,000 quakes): the frame drawn then is already the settled screen, counts, total
    /// and all, but for the scrollbar, which waits for the order. Seeded walks over quakes all
    /// over the globe, with a home, so that sorts reach the distance order from every state.
    @Test func distanceSortsShowTheirExactCountsBeforeTheirOrder() throws {
        var failures: [String] = []
        var countedFirst = 0
        for seed in UInt64(1)...16 {
            var generator = SeededGenerator(seed: seed)
            let store = try Self.storeAllOverTheGlobe(times: (0..<300).map { RestoreWalkTests.now - Int64($0) * 2_700_000 },
                                                      using: &generator)
            defer { store.remove() }
            let size = RestoreWalkTests.sizes[Int(seed % 3)]
            let home = GeoPoint(latitude: Double.random(in: -60...60, using: &generator),
                                longitude: Double.random(in: -180...180, using: &generator))
            let (live, settled) = try Self.settledModel(store, scene: "d\(seed)", home: home, size: size,
                                                        margin: size.rows + Int.random(in: 2...20, using: &generator))
            defer { live.close() }
            let actions = MergeWalkTests.actions + [.nextSortOrder, .nextSortOrder, .nextSortOrder]
            for step in 0..<40 {
                _ = try live.performReads(live.send(actions.randomElement(using: &generator)!))
                // One settle at a time, to see the frame between the counts and the order.
                while live.results.isProvisional {
                    let answer = try #require(settled.next(), "a count never settled")
                    _ = try live.takeCount(answer).map { try live.performReads($0.effects) }
                    guard live.results.isProvisional, live.results.countedTotal != nil else { continue }
                    countedFirst += 1
                    let withoutScrollbar = { (screen: String) in screen.replacingOccurrences(of: "┃", with: " ") }
                    let (counted, expected) = (withoutScrollbar(try RestoreWalkTests.screen(live)),
                                               withoutScrollbar(try Self.exactScreen(of: live, store, size: size)))
                    if counted != expected {
                        failures.append("seed \(seed) step \(step) at \(size.columns)x\(size.rows):\ncounted:\n\(counted)\nexact:\n\(expected)")
                    }
                }
            }
        }
        #expect(countedFirst >= 16, "only \(countedFirst) distance sorts were counted before their order")
        #expect(failures.isEmpty, "\(failures.count) frames differ:\n\(failures.joined(separator: "\n\n"))")
    }

    /// A collapsed section longer than a provisional window: the window reads one row of it
    /// (for its header) and goes on past it, so the frame drawn before the count shows the
    /// sections beyond, as the settled one does. Days of 120 quakes between days of 3, windows
    /// of a screen and two rows, seeded walks that fold sections and then change the request.
    @Test func collapsedSectionsLongerThanTheWindowDoNotHideTheirNeighbours() throws {
        var failures: [String] = []
        var compared = 0
        for seed in UInt64(1)...12 {
            var generator = SeededGenerator(seed: seed)
            var times: [Int64] = []
            for day in Int64(0)..<10 {
                for index in Int64(0)..<(day % 2 == 0 ? 120 : 3) { times.append(RestoreWalkTests.now - day * 86_400_000 - index * 600_000) }
            }
            let store = try Self.storeAllOverTheGlobe(times: times, using: &generator)
            defer { store.remove() }
            let size = RestoreWalkTests.sizes[Int(seed % 3)]
            let (live, settled) = try Self.settledModel(store, scene: "c\(seed)", home: GeoPoint(latitude: 35.68, longitude: 139.69),
                                                        size: size, margin: size.rows + 2)
            defer { live.close() }
            let actions: [Action] = [.toggleSection, .toggleSection, .toggleSection, .moveDown, .pageDown, .pageDown, .pageUp,
                                     .nextSortOrder, .reverseSortDirection, .cycleMinimumMagnitude, .beginSearch,
                                     .searchInput("a"), .searchEdit(.backspace), .cancelSearch]
            for step in 0..<40 {
                _ = try live.performReads(live.send(actions.randomElement(using: &generator)!))
                if live.results.isProvisional, !live.state.collapsedSections.isEmpty, live.results.count > 0 {
                    compared += 1
                    let (pending, expected) = (Self.withoutCounts(try RestoreWalkTests.screen(live)),
                                               Self.withoutCounts(try Self.exactScreen(of: live, store, size: size)))
                    if pending != expected {
                        failures.append("seed \(seed) step \(step) at \(size.columns)x\(size.rows):\npending:\n\(pending)\nsettled:\n\(expected)")
                    }
                }
                try Self.settle(live, settled)
            }
        }
        #expect(compared >= 20, "only \(compared) provisional frames with folded sections")
        #expect(failures.isEmpty, "\(failures.count) frames differ:\n\(failures.joined(separator: "\n\n"))")
    }

    /// On a loaded machine a window may be cut short by its time limit, holding only the
    /// selection and what was read in time. Once counted, every key must still end on the
    /// screen an idle machine draws (an exact fetch at once): the selection on its line.
    @Test func keysAnsweredByWindowsCutShortSettleOnTheExactScreen() throws {
        var failures: [String] = []
        for seed in UInt64(1)...12 {
            let store = try RestoreWalkTests.makeStore()
            defer { store.remove() }
            var generator = SeededGenerator(seed: seed)
            let size = RestoreWalkTests.sizes[Int(seed % 3)]
            let (results, settled) = try Self.provisionalResults(store, windowLimit: .zero)
            let state = AppState(sceneID: "c\(seed)", settings: AppSettings(timeZone: .utc))
            let cut = try BrowserModel(state: state, source: results)
            defer { cut.close() }
            let exact = try BrowserModel(state: state, container: store.container)
            defer { exact.close() }
            try Self.settle(cut, settled)
            try cut.restore(AppState.RestoredSelection(), size: size)
            try exact.restore(AppState.RestoredSelection(), size: size)
            var keys: [Action] = []
            for _ in 0..<30 {
                let action = MergeWalkTests.actions.randomElement(using: &generator)!
                keys.append(action)
                _ = try cut.performReads(cut.send(action))
                try Self.settle(cut, settled)
                _ = try exact.performReads(exact.send(action))
                let (after, expected) = (try RestoreWalkTests.screen(cut), try RestoreWalkTests.screen(exact))
                if after != expected {
                    failures.append("seed \(seed) at \(size.columns)x\(size.rows) after \(keys):\ncut short:\n\(after)\nexact:\n\(expected)")
                    break
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) walks differ:\n\(failures.joined(separator: "\n\n"))")
    }
}
