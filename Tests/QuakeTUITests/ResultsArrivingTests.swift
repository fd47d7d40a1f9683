import Foundation
import QuakeModel
@testable import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Counts arriving as actions (`Action.resultsSettled`), on the real engine's provisional path
/// (`ResultsEngine.alwaysProvisional`; a count's answer is waited for as the value the engine
/// posts through `onCounted`, never a sleep): keys that need the whole list wait for the count,
/// and the settled state is the one a fresh exact fetch gives. Answers that come late, for a query superseded since, and failures,
/// are fed to the pure update (`BrowserState.update`): they change nothing, or put everything
/// back and say why. Whole `BrowserState` values are compared, the held keys and the rollback
/// base with them.
@Suite struct ResultsArrivingTests {
    /// A model on the real engine, about to answer every request provisionally, beside a model
    /// on exact results of the same store; both on f22.
    static func makeModels() throws -> (model: BrowserModel, counts: Counts, exact: BrowserModel, store: ModelStore) {
        let store = BrowserUpdateTests.makeSource()
        let state = AppState(sceneID: "t", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12)
        let (model, counts) = try store.provisionalModel(state)
        let exact = try BrowserModel(state: state, source: store)
        for each in [model, exact] {
            try each.restore(AppState.RestoredSelection())
            try each.send(.moveDown)  // f22
        }
        counts.goProvisional()
        return (model, counts, exact, store)
    }

    /// The first query `effects` ask for.
    static func query(_ effects: [Effect]) -> ResultsQuery? {
        for case .queryResults(let query) in effects { return query }
        return nil
    }

    @Test func keysThatNeedTheWholeListWaitForTheCountThenActAsOnAFreshFetch() throws {
        let (model, counts, exact, store) = try Self.makeModels()
        defer { store.close() }
        let before = model.state
        try model.send(.nextSortOrder)
        #expect(model.results.isProvisional && model.results.countedTotal == nil)
        #expect(model.state.pendingBase == before.app)
        #expect(model.state.keptSelectionLine == before.selectionLine)
        var expected = model.state
        #expect(try model.send(.last) == [])  // G needs the whole list: held
        expected.heldForCounts = [.last]
        #expect(model.state == expected)
        #expect(try model.send(.moveUp) == [])  // typed after a held key: held too
        expected.heldForCounts = [.last, .moveUp]
        #expect(model.state == expected)
        // An answer for an earlier count, arriving late: it changes nothing.
        var early = model.state
        let pending = try #require(early.results.pendingCount)
        let late = SettledResults(count: pending - 1, snapshot: exact.state.results, anchorCode: early.selectedCode, anchor: 0)
        #expect(early.update(.resultsSettled(late)) == [])
        #expect(early == expected)

        try counts.settle(model)
        for action in [Action.nextSortOrder, .last, .moveUp] { try exact.send(action) }
        #expect(!model.results.isProvisional)
        #expect(model.state == exact.state)
        // The same answer again, late: nothing left to take.
        let settled = model.state
        #expect(try model.takeCount(#require(counts.last)) == nil)
        #expect(model.state == settled)
    }

    /// A newer request supersedes the one being counted: the engine never takes the older count,
    /// and the update drops a late answer, failure or rows for the older query.
    @Test func aCountSupersededByANewerRequestIsNeverTaken() throws {
        let (model, counts, exact, store) = try Self.makeModels()
        defer { store.close() }
        let before = model.state
        // On the pure update: a search asked, then a commit elsewhere asks for a merge before the
        // search is answered; the search's answer, failure and rows then arrive late.
        var state = model.state
        _ = state.update(.beginSearch)
        let older = try #require(Self.query(state.update(.searchInput("a"))))
        let newer = try #require(Self.query(state.update(.storeChanged)))
        #expect(older != newer && state.awaitedQuery == newer)
        let waiting = state
        #expect(state.update(.resultsAnswered(ResultsAnswer(query: older, snapshot: model.results.snapshot(generation: 99)))) == [])
        #expect(state == waiting)
        #expect(state.update(.resultsFailed(older, reason: "interrupted")) == [])
        #expect(state == waiting)
        #expect(state.update(.rowsRead(LoadedRows(), generation: state.results.generation - 1)) == [])
        #expect(state == waiting)

        // On the engine: the same keys, the first count dropped, the second taken.
        try model.send(.nextSortOrder)
        try model.send(.reverseSortDirection)
        var expected = model.state
        #expect(expected.pendingBase == before.app)  // a failure still goes back before both
        try model.send(.first)
        expected.heldForCounts = [.first]
        #expect(model.state == expected)
        try counts.settle(model)
        for action in [Action.nextSortOrder, .reverseSortDirection, .first] { try exact.send(action) }
        #expect(model.state == exact.state)
    }

    /// A failed count arrives as an event (`Action.countFailed`, numbered by the count): the update puts
    /// the state back as it was before the request and says so; the key held for the list that
    /// never came is dropped; the list asked for again is the one before. The whole state is then
    /// that of a model that never asked, but for the message and what the window taught of the
    /// sort's cost (`ExactAttempts`).
    @Test func aFailedCountPutsTheStateBackAsItWasBeforeTheRequest() throws {
        let (model, _, exact, store) = try Self.makeModels()
        defer { store.close() }
        let before = model.state
        try model.send(.nextSortOrder)
        try model.send(.beginSearch)  // acts on the window at once
        try model.send(.last)  // held
        #expect(model.state.heldForCounts == [.last])
        var state = model.state
        let count = try #require(state.results.pendingCount)
        let reason = BrowserModel.readFailure(BrowserUpdateTests.DiskError())
        let resume = try #require(Self.query(state.update(.countFailed(count: count, reason: reason))))
        #expect(resume.step == .resume(before.request))
        let message = "The list could not be counted (it shows what it showed before): " + reason
        #expect(state.status.message == message && state.status.isError)
        #expect(state.heldForCounts.isEmpty)
        // The runtime's answer to the resume: the results of the request before, as a model that
        // never asked has them.
        let anchor = try exact.results.anchor(code: try #require(before.selectedCode))
        _ = state.update(.resultsAnswered(ResultsAnswer(query: resume, snapshot: exact.state.results, anchor: anchor)))
        #expect(state.messageLog.entries.last?.text == message)
        var expected = exact.state
        expected.status = state.status
        expected.messageLog = state.messageLog
        // What the provisional answer taught stays: the magnitude sort's shape missed the budget.
        expected.exactAttempts.record(model.state.request, withinBudget: false)
        #expect(state == expected)
    }

    /// "Provisional then settled equals a fresh fetch", on the real engine: seeded walks of keys
    /// while counts run, settle, or are superseded by a newer key (a notice then arrives for a
    /// count no longer wanted). Whenever nothing is pending, the whole state equals that of a
    /// model on exact results put on the same selection and line, and so does the screen.
    @Test(arguments: UInt64(1)...12)
    func seededWalksWithCountsArrivingEndAsOnAnExactFetch(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let size = RestoreWalkTests.sizes[Int(seed % 3)]
        let store = ModelStore(RestoreWalkTests.records())
        defer { store.close() }
        let (live, counts) = try store.provisionalModel(AppState(sceneID: "w\(seed)", settings: AppSettings(timeZone: .utc)))
        try live.restore(AppState.RestoredSelection(), size: size)
        counts.goProvisional()
        var superseded = 0
        for step in 0..<40 {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0 where superseded > 0:
                // The notice of a count a newer key made obsolete: the engine takes only the
                // newest request's count, and only once it is done.
                try counts.actOnCount(live)
            case 0, 1:
                if live.results.isProvisional {
                    #expect(try counts.actOnCount(live, waiting: true), "a count never settled")
                }
            default:
                let pending = live.results.isProvisional ? live.results.request : nil
                try live.act(MergeWalkTests.actions.randomElement(using: &generator)!)
                if let pending, live.results.request != pending { superseded += 1 }
            }
            if !live.results.isProvisional {
                try Self.expectExact(live, store, size: size, "seed \(seed) step \(step)")
            }
        }
        try counts.settle(live)
        try counts.settle(live)
        #expect(live.state.heldForCounts.isEmpty)
        try Self.expectExact(live, store, size: size, "seed \(seed), settled")
    }

    /// The same, in lockstep: with windows that hold every row, a walk whose keys wait for
    /// counts, and whose counts settle late or superseded, ends each settled stretch in the very
    /// state a model on exact results reaches with the same keys at once.
    @Test(arguments: UInt64(1)...12)
    func seededWalksWithHeldKeysEndAsTheSameKeysOnAnExactSource(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let size = RestoreWalkTests.sizes[Int(seed % 3)]
        let store = ModelStore(RestoreWalkTests.records())
        defer { store.close() }
        let state = AppState(sceneID: "w\(seed)", settings: AppSettings(timeZone: .utc))
        let (live, counts) = try store.provisionalModel(state)
        let exact = try BrowserModel(state: state, source: store)
        for model in [live, exact] { try model.restore(AppState.RestoredSelection(), size: size) }
        counts.goProvisional(margin: 100_000)
        var superseded = 0, held = 0
        for step in 0..<60 {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0 where superseded > 0:
                try counts.actOnCount(live)
            case 0, 1:
                if live.results.isProvisional {
                    #expect(try counts.actOnCount(live, waiting: true), "a count never settled")
                }
            default:
                let action = MergeWalkTests.actions.randomElement(using: &generator)!
                let pending = live.results.isProvisional ? live.results.request : nil
                try live.act(action)
                try exact.act(action)
                if let pending, live.results.request != pending { superseded += 1 }
                held = max(held, live.state.heldForCounts.count)
            }
            if !live.results.isProvisional {
                #expect(live.state == Self.learnt(exact.state, from: live.state), "seed \(seed) step \(step)")
            }
        }
        try counts.settle(live)
        #expect(live.state == Self.learnt(exact.state, from: live.state), "seed \(seed), settled")
        #expect(try RestoreWalkTests.screen(live) == RestoreWalkTests.screen(exact), "seed \(seed)")
        #expect(held > 0, "seed \(seed): no key waited for a count")
    }

    /// `exact`'s state with the request shapes `live` learnt miss the budget (`ExactAttempts`):
    /// a model on an exact source is never answered by a window, so it learns none.
    static func learnt(_ exact: BrowserState, from live: BrowserState) -> BrowserState {
        var expected = exact
        expected.exactAttempts = live.exactAttempts
        return expected
    }

    /// `live`'s whole state and screen equal those of a model on an exact fetch of the same
    /// store, restored on `live`'s selection and line (its restored placement aside, which only
    /// a key ends).
    static func expectExact(_ live: BrowserModel, _ store: ModelStore, size: Size, _ context: String) throws {
        let exact = try BrowserModel(state: live.state.app, source: store)
        defer { exact.close() }
        try exact.restore(AppState.RestoredSelection(selectedCode: live.state.selectedCode,
                                                     selectedSection: live.state.selectedSection,
                                                     selectionLine: live.state.selectionLine), size: size)
        _ = try exact.performReads(exact.pendingReads)
        var expected = learnt(exact.state, from: live.state)
        expected.restoredPlacement = live.state.restoredPlacement
        #expect(live.state == expected, "\(context)")
        #expect(try RestoreWalkTests.screen(live) == RestoreWalkTests.screen(exact), "\(context)")
    }
}
