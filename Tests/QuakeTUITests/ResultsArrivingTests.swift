import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Counts arriving as actions (`Action.resultsSettled`), against the in-memory source in its
/// provisional mode: keys that need the whole list wait for the count, a count that was
/// superseded or arrives twice changes nothing, and a failed one puts everything back. Whole
/// `BrowserState` values are compared, the held keys and the rollback base with them.
@Suite struct ResultsArrivingTests {
    /// A model on a source that answers every later request with a window of 2 rows either
    /// side of the selection, beside a model on an exact source given the same keys.
    static func makeModels() throws -> (model: BrowserModel, source: InMemoryResultsSource, exact: BrowserModel) {
        let source = BrowserUpdateTests.makeSource()
        let model = try BrowserUpdateTests.makeModel(source)
        let exact = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        for each in [model, exact] { try each.send(.moveDown) }  // f22
        source.provisionalMargin = 2
        return (model, source, exact)
    }

    @Test func keysThatNeedTheWholeListWaitForTheCountThenActAsOnAFreshFetch() throws {
        let (model, source, exact) = try Self.makeModels()
        let before = model.state
        try model.send(.nextSortOrder)
        #expect(model.results.isProvisional && model.results.count == 5)  // f22 and 2 rows either side
        #expect(model.state.pendingBase == before.app)
        #expect(model.state.keptSelectionLine == before.selectionLine)
        var expected = model.state
        #expect(try model.send(.last) == [])  // G needs the whole list: held
        expected.heldForCounts = [.last]
        #expect(model.state == expected)
        #expect(try model.send(.moveUp) == [])  // typed after a held key: held too
        expected.heldForCounts = [.last, .moveUp]
        #expect(model.state == expected)
        // A notice with no count finished behind it (posted for an earlier one) changes nothing.
        try model.send(.resultsSettled)
        #expect(model.state == expected)

        source.finishCount()
        try model.send(.resultsSettled)
        for action in [Action.nextSortOrder, .last, .moveUp] { try exact.send(action) }
        #expect(!model.results.isProvisional)
        #expect(model.state == exact.state)
        // The same notice again, late: nothing left to settle.
        let settled = model.state
        #expect(try model.send(.resultsSettled) == [])
        #expect(model.state == settled)
    }

    @Test func aCountSupersededByANewerRequestIsNeverTaken() throws {
        let (model, source, exact) = try Self.makeModels()
        let before = model.state
        try model.send(.nextSortOrder)
        let first = source.generation
        try model.send(.reverseSortDirection)  // a newer request: the first count is dropped
        var expected = model.state
        #expect(expected.pendingBase == before.app)  // a failure still goes back before both
        source.finishCount(generation: first)
        try model.send(.resultsSettled)
        #expect(model.state == expected)
        try model.send(.first)
        expected.heldForCounts = [.first]
        #expect(model.state == expected)

        source.finishCount()
        try model.send(.resultsSettled)
        for action in [Action.nextSortOrder, .reverseSortDirection, .first] { try exact.send(action) }
        #expect(model.state == exact.state)
    }

    /// A failed count arrives as an action (`Action.resultsFailed`): the update puts the state
    /// back as it was before the request and says so; the key held for the list that never came
    /// is dropped. The whole state is then that of a model that never asked, but for the message.
    @Test func aFailedCountPutsTheStateBackAsItWasBeforeTheRequest() throws {
        let (model, source, exact) = try Self.makeModels()
        let before = model.state
        try model.send(.nextSortOrder)
        try model.send(.beginSearch)  // acts on the window at once
        try model.send(.last)  // held
        source.finishCount(failing: .init("disk I/O error"))
        try model.send(.resultsSettled)
        let message = "The list could not be counted (it shows what it showed before): "
            + BrowserModel.readFailure(InMemoryResultsSource.Failure("disk I/O error"))
        #expect(model.state.status.message == message && model.state.status.isError)
        #expect(model.state.messageLog.entries.last?.text == message)
        #expect(!model.results.isProvisional && model.results.request == before.request)
        var expected = exact.state
        expected.status = model.state.status
        expected.messageLog = model.state.messageLog
        expected.results.generation = model.state.results.generation
        #expect(model.state == expected)
    }

    /// "Provisional then settled equals a fresh fetch", on the pure update with the counts fed
    /// in: seeded walks of keys while counts run, finish, or finish after a newer request
    /// superseded them. Whenever nothing is pending, the whole state equals that of a model on
    /// an exact source put on the same selection and line, and so does the screen.
    @Test(arguments: UInt64(1)...12)
    func seededWalksWithCountsArrivingEndAsOnAnExactFetch(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let size = RestoreWalkTests.sizes[Int(seed % 3)]
        let source = InMemoryResultsSource(RestoreWalkTests.records())
        let live = try BrowserModel(state: AppState(sceneID: "w\(seed)", settings: AppSettings(timeZone: .utc)), source: source)
        try live.restore(AppState.RestoredSelection(), size: size)
        source.provisionalMargin = size.rows + Int.random(in: 2...20, using: &generator)
        var superseded: [Int] = []
        for step in 0..<40 {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0 where !superseded.isEmpty:
                // A count the user's next key made obsolete finishes late: never taken.
                try Self.deliverCount(source, to: live, generation: superseded.randomElement(using: &generator)!)
            case 0, 1:
                try Self.deliverCount(source, to: live)
            default:
                let pending = live.results.isProvisional ? source.generation : nil
                _ = try live.performReads(live.send(MergeWalkTests.actions.randomElement(using: &generator)!))
                if let pending, source.generation != pending { superseded.append(pending) }
            }
            if !live.results.isProvisional {
                try Self.expectExact(live, size: size, "seed \(seed) step \(step)")
            }
        }
        try Self.settleEveryCount(source, of: live)
        #expect(live.state.heldForCounts.isEmpty)
        try Self.expectExact(live, size: size, "seed \(seed), settled")
    }

    /// The same, in lockstep: with windows that hold every row, a walk whose keys wait for
    /// counts, and whose counts finish late or superseded, ends each settled stretch in the very
    /// state a model on an exact source reaches with the same keys at once.
    @Test(arguments: UInt64(1)...12)
    func seededWalksWithHeldKeysEndAsTheSameKeysOnAnExactSource(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let size = RestoreWalkTests.sizes[Int(seed % 3)]
        let source = InMemoryResultsSource(RestoreWalkTests.records())
        let live = try BrowserModel(state: AppState(sceneID: "w\(seed)", settings: AppSettings(timeZone: .utc)), source: source)
        let exact = try BrowserModel(state: AppState(sceneID: "w\(seed)", settings: AppSettings(timeZone: .utc)),
                                     source: InMemoryResultsSource(RestoreWalkTests.records()))
        for model in [live, exact] { try model.restore(AppState.RestoredSelection(), size: size) }
        source.provisionalMargin = 100_000
        var superseded: [Int] = [], held = 0
        for step in 0..<60 {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0 where !superseded.isEmpty:
                try Self.deliverCount(source, to: live, generation: superseded.randomElement(using: &generator)!)
            case 0, 1:
                try Self.deliverCount(source, to: live)
            default:
                let action = MergeWalkTests.actions.randomElement(using: &generator)!
                let pending = live.results.isProvisional ? source.generation : nil
                _ = try live.performReads(live.send(action))
                _ = try exact.performReads(exact.send(action))
                if let pending, source.generation != pending { superseded.append(pending) }
                held = max(held, live.state.heldForCounts.count)
            }
            if !live.results.isProvisional {
                #expect(live.state == exact.state, "seed \(seed) step \(step)")
            }
        }
        try Self.settleEveryCount(source, of: live)
        #expect(live.state == exact.state, "seed \(seed), settled")
        #expect(try RestoreWalkTests.screen(live) == RestoreWalkTests.screen(exact), "seed \(seed)")
        #expect(held > 0, "seed \(seed): no key waited for a count")
    }

    /// A count finishing (the newest, or a superseded `generation`) and its action arriving, as the
    /// runtime delivers it.
    static func deliverCount(_ source: InMemoryResultsSource, to live: BrowserModel, generation: Int? = nil) throws {
        source.finishCount(generation: generation)
        _ = try live.performReads(live.send(.resultsSettled))
    }

    /// Held keys applied on a count may ask for another: counts delivered until none is pending.
    static func settleEveryCount(_ source: InMemoryResultsSource, of live: BrowserModel) throws {
        while live.results.isProvisional { try deliverCount(source, to: live) }
    }

    /// `live`'s whole state and screen equal those of a model on an exact fetch of the same
    /// quakes, restored on `live`'s selection and line (its restored placement aside, which only
    /// a key ends).
    static func expectExact(_ live: BrowserModel, size: Size, _ context: String) throws {
        let exact = try BrowserModel(state: live.state.app, source: InMemoryResultsSource(RestoreWalkTests.records()))
        try exact.restore(AppState.RestoredSelection(selectedCode: live.state.selectedCode,
                                                     selectedSection: live.state.selectedSection,
                                                     selectionLine: live.state.selectionLine), size: size)
        _ = try exact.performReads(exact.pendingReads)
        var expected = exact.state
        expected.restoredPlacement = live.state.restoredPlacement
        #expect(live.state == expected, "\(context)")
        #expect(try RestoreWalkTests.screen(live) == RestoreWalkTests.screen(exact), "\(context)")
    }
}
