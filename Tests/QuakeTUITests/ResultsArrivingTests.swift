import Foundation
import QuakeStore
@testable import QuakeTUI
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

    @Test func aFailedCountPutsTheStateBackAsItWasBeforeTheRequest() throws {
        let (model, source, _) = try Self.makeModels()
        let before = model.state
        try model.send(.nextSortOrder)
        try model.send(.beginSearch)  // acts on the window at once
        try model.send(.last)  // held
        source.finishCount(failing: .init("disk I/O error"))
        #expect(throws: InMemoryResultsSource.Failure("disk I/O error")) { try model.send(.resultsSettled) }
        var expected = before
        expected.heldForCounts = [.last]  // applied after the next action (the runtime's failure message)
        #expect(model.state == expected)
        #expect(!model.results.isProvisional && model.results.request == before.request)
    }
}
