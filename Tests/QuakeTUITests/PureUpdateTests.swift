import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// The update on its own: states built by hand, results fed in as actions, no source and no
/// store. A request is an effect; keys wait for its answer; rows read for an older snapshot are
/// dropped; the answer places the selection on its line once its row is read, and then the
/// held keys act.
@Suite struct PureUpdateTests {
    static let time = Date(timeIntervalSince1970: 1_700_000_000)

    static func row(_ code: String) -> QuakeRow {
        QuakeRow(code: code, magnitude: 3, place: "place \(code)", time: 0, depth: 10, latitude: 0, longitude: 0,
                 hasNotes: false, source: "usgs", tsunami: false, alert: nil, type: "earthquake")
    }

    static func snapshot(_ request: SectionedFetchRequest, _ sections: [(String, [String])], generation: Int,
                         withRows: Bool = true) -> ResultsSnapshot {
        var snapshot = ResultsSnapshot(request: request, sections: sections.map { QuakeSection(id: $0.0, title: $0.0, count: $0.1.count) },
                                       generation: generation)
        if withRows { snapshot.rows = LoadedRows(start: 0, rows: sections.flatMap { $0.1.map(row) }) }
        return snapshot
    }

    /// Two days of two quakes, the first one selected (list line 1).
    static func start() -> BrowserState {
        let app = AppState(sceneID: "p", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12)
        var state = BrowserState(app: app, results: snapshot(app.request, [("day1", ["a1", "a2"]), ("day2", ["b1", "b2"])], generation: 1))
        _ = state.update(.moveDown, at: time)
        return state
    }

    @Test func aSortIsAnsweredAsAnActionAndTheKeysTypedMeanwhileWait() {
        var state = Self.start()
        #expect(state.selectedCode == "a1" && state.cursorLine == 1)
        let effects = state.update(.nextSortOrder, at: Self.time)
        let query = ResultsQuery(step: .configure(state.request), anchor: "a1", collapsed: [], purpose: .keepSelection(line: 1))
        #expect(effects == [.saveScene, .queryResults(query)])
        var expected = state
        #expect(state.update(.moveDown) == [])
        expected.heldForCounts = [.moveDown]
        #expect(state == expected)
        // Rows read for the results shown before arrive late: dropped.
        _ = state.update(.rowsRead(LoadedRows(start: 0, rows: [Self.row("zz")]), generation: 1 - 1))
        #expect(state == expected)

        // The answer: one magnitude section, a1 second in it; its rows not read yet.
        let sorted = Self.snapshot(state.request, [("M 3", ["b1", "a1", "a2", "b2"])], generation: 2, withRows: false)
        #expect(state.update(.resultsAnswered(ResultsAnswer(query: query, snapshot: sorted, anchor: 1)))
                == [.saveScene, .readRows([0..<4], generation: 2)])  // the selection moved
        expected.results = sorted
        expected.relayout()
        expected.cursorLine = 2  // a1's line, the list scrolled as far as it goes
        expected.topLine = 0
        expected.awaitedQuery = nil
        expected.awaitedFor = nil
        expected.pendingBase = nil  // exact results: nothing left to roll back to
        #expect(state == expected)  // the held key waits for the rows on screen

        _ = state.update(.rowsRead(LoadedRows(start: 0, rows: ["b1", "a1", "a2", "b2"].map(Self.row)), generation: 2))
        #expect(state.heldForCounts.isEmpty)
        #expect(state.selectedCode == "a2" && state.cursorLine == 3)  // then j moved on from a1
        #expect(state.pendingBase == nil)
    }

    @Test func aSettledCountKeepsTheSelectionOnItsLineAndAFailureGoesBackBeforeTheRequest() {
        var state = Self.start()
        let before = state.app
        let effects = state.update(.nextSortOrder, at: Self.time)
        guard case .queryResults(let query)? = effects.last else { Issue.record("no query: \(effects)"); return }
        // A provisional window: a1 and its neighbour, counts pending.
        var window = Self.snapshot(state.request, [("M 3", ["a1", "a2"])], generation: 2)
        window.isProvisional = true
        window.countedTotal = nil
        window.pendingCount = 7  // the engine's count 7
        _ = state.update(.resultsAnswered(ResultsAnswer(query: query, snapshot: window, anchor: 0)))
        #expect(state.selectedCode == "a1" && state.cursorLine == 1)
        #expect(state.pendingBase == before)  // where a failed count goes back to
        #expect(state.keptSelectionLine == 1)
        #expect(state.update(.last) == [])  // G needs the whole list
        #expect(state.heldForCounts == [.last])

        // The count is done: its answer carries the results (no query follows), and puts G through.
        let exact = Self.snapshot(state.request, [("M 3", ["b1", "a1", "a2", "b2"])], generation: 3)
        let settle = state.update(.resultsSettled(SettledResults(count: 7, snapshot: exact, anchorCode: "a1", anchor: 1)))
        #expect(!settle.contains { if case .queryResults = $0 { true } else { false } })
        #expect(state.heldForCounts.isEmpty && state.keptSelectionLine == nil && state.pendingBase == nil)
        #expect(state.selectedCode == "b2" && state.cursorLine == 4)

        // A count that fails arrives as an action: the update goes back to the state before the
        // request, says what failed, and asks for that request's results again; a key held for
        // the list that never came is dropped.
        var failing = Self.start()
        _ = failing.update(.nextSortOrder, at: Self.time)
        _ = failing.update(.resultsAnswered(ResultsAnswer(query: query, snapshot: window, anchor: 0)))
        _ = failing.update(.last)
        let reason = "Could not read the store: disk I/O error."
        let resume = failing.update(.countFailed(count: 7, reason: reason))
        var expected = before
        expected.status.message = "The list could not be counted (it shows what it showed before): \(reason)"
        expected.status.isError = true
        expected.messageLog = failing.messageLog
        #expect(failing.app == expected)
        #expect(failing.messageLog.entries.last?.text == expected.status.message)
        #expect(resume == [.saveScene, .queryResults(ResultsQuery(step: .resume(before.request), anchor: "a1", collapsed: [],
                                                     purpose: .keepSelection(line: 1)))])
        #expect(failing.heldForCounts.isEmpty && failing.pendingBase?.sort == before.sort)
        // The answer of an older query fails late: dropped.
        let late = failing
        _ = failing.update(.resultsFailed(query, reason: reason))
        #expect(failing == late)
        // The resume answered: the list of the request before, the selection where it was.
        guard case .queryResults(let resumed)? = resume.last else { return }
        let again = Self.snapshot(before.request, [("day1", ["a1", "a2"]), ("day2", ["b1", "b2"])], generation: 4)
        _ = failing.update(.resultsAnswered(ResultsAnswer(query: resumed, snapshot: again, anchor: 0)))
        #expect(failing.pendingBase == nil && failing.selectedCode == "a1" && failing.status.message == expected.status.message)
        // A resume that fails too asks nothing more.
        var twice = Self.start()
        _ = twice.update(.nextSortOrder, at: Self.time)
        guard case .queryResults(let sortQuery)? = twice.update(.resultsFailed(query, reason: reason)).last else {
            Issue.record("no resume")
            return
        }
        #expect(twice.update(.resultsFailed(sortQuery, reason: reason)) == [])
        #expect(twice.status.message == "The list could not be read again: \(reason)" && twice.sort == before.sort)
        #expect(twice.messageLog.entries.map(\.text) == ["The list could not be sorted: \(reason)", twice.status.message])
    }

    /// The query among `effects`.
    static func query(_ effects: [Effect]) -> ResultsQuery? {
        effects.lazy.compactMap { effect -> ResultsQuery? in
            if case .queryResults(let query) = effect { query } else { nil }
        }.first
    }

    /// A provisional window for count `count`: a1 and its neighbour, counts pending.
    static func window(_ request: SectionedFetchRequest, count: Int, generation: Int) -> ResultsSnapshot {
        var window = snapshot(request, [("M 3", ["a1", "a2"])], generation: generation)
        window.isProvisional = true
        window.countedTotal = nil
        window.pendingCount = count
        return window
    }

    /// Counts' answers are events with their values, numbered by the count they answer: those
    /// for an older count, those arriving while a newer request is unanswered, and those after
    /// the results are exact change nothing (whole states compared); a distance sort's band
    /// counts come first and keep the window provisional for the same count; a failure of an
    /// older count changes nothing, the current one's goes back before the request.
    @Test func countsAnswerOnlyTheCountTheResultsWaitFor() throws {
        var state = Self.start()
        let sort = try #require(Self.query(state.update(.nextSortOrder, at: Self.time)))
        _ = state.update(.resultsAnswered(ResultsAnswer(query: sort, snapshot: Self.window(state.request, count: 4, generation: 2), anchor: 0)))
        // The user reverses the order before the count: a newer request, count 5, asked.
        let reverse = try #require(Self.query(state.update(.reverseSortDirection)))
        let exact = Self.snapshot(state.request, [("M 3", ["b1", "a1", "a2", "b2"])], generation: 9)
        let asked = state
        // Count 4's answer and failure arrive while count 5's request is unanswered: dropped.
        #expect(state.update(.resultsSettled(SettledResults(count: 4, snapshot: exact, anchorCode: "a1", anchor: 1))) == [])
        #expect(state == asked)
        #expect(state.update(.countFailed(count: 4, reason: "interrupted")) == [])
        #expect(state == asked)
        _ = state.update(.resultsAnswered(ResultsAnswer(query: reverse, snapshot: Self.window(state.request, count: 5, generation: 3), anchor: 0)))
        let waiting = state
        #expect(waiting.results.pendingCount == 5 && waiting.pendingBase?.sort == Self.start().sort)
        // Count 4's answer, late (out of order): dropped; so is its failure.
        _ = state.update(.resultsSettled(SettledResults(count: 4, snapshot: exact, anchorCode: "a1", anchor: 1)))
        #expect(state == waiting)
        _ = state.update(.countFailed(count: 4, reason: "interrupted"))
        #expect(state == waiting)
        // Count 5's band counts (a distance sort's, before its order): the window with whole
        // counts, still provisional for count 5.
        var counted = Self.window(state.request, count: 5, generation: 4)
        counted.sections[0].totalCount = 4
        counted.countedTotal = 4
        _ = state.update(.resultsSettled(SettledResults(count: 5, snapshot: counted, anchorCode: "a1", anchor: 0)))
        var expected = waiting
        expected.results = counted
        expected.relayout()
        #expect(state == expected)
        // Count 5's exact answer: taken whole, the selection on its line, nothing left to roll back.
        let settled = Self.snapshot(state.request, [("M 3", ["b1", "a1", "a2", "b2"])], generation: 5)
        _ = state.update(.resultsSettled(SettledResults(count: 5, snapshot: settled, anchorCode: "a1", anchor: 1)))
        #expect(state.results == settled && !state.results.isProvisional)
        #expect(state.selectedCode == "a1" && state.cursorLine == 2 && state.pendingBase == nil && state.keptSelectionLine == nil)
        // The same answer again, and a late failure of count 5: the results are exact, nothing changes.
        let done = state
        _ = state.update(.resultsSettled(SettledResults(count: 5, snapshot: exact, anchorCode: "a1", anchor: 2)))
        #expect(state == done)
        _ = state.update(.countFailed(count: 5, reason: "interrupted"))
        #expect(state == done)
    }

    /// A merge over its budget is answered with the results as they were, exact as of the
    /// commits before it, waiting for the count that catches up (`pendingCount`, not a window):
    /// keys act on them at once, none is held; the count's answer replaces them with the
    /// selected quake on the line it has then. A failure of that count says so and asks for the
    /// request's results again; an answer to another count is dropped.
    @Test func aMergeOverItsBudgetWaitsForItsCountWithTheResultsAsTheyWere() throws {
        var state = Self.start()
        let merge = try #require(Self.query(state.update(.storeChanged, at: Self.time)))
        #expect(merge.step == .merge)
        var catchingUp = state.results
        catchingUp.pendingCount = 6
        catchingUp.generation = 2
        _ = state.update(.resultsAnswered(ResultsAnswer(query: merge, snapshot: catchingUp, anchor: 0)))
        #expect(state.results == catchingUp && !state.awaitsResults && state.cursorLine == 1)
        // A key that needs the whole list's sections is not held: they are whole.
        _ = state.update(.last)
        #expect(state.heldForCounts.isEmpty && state.selectedCode == "b2")
        _ = state.update(.moveUp)
        let line = state.cursorLine - state.topLine
        // `n` needs the new quakes in the list: held until the count comes.
        #expect(state.update(.nextNewQuake) == [] && state.heldForCounts == [.nextNewQuake])
        // An answer to another count changes nothing.
        let waiting = state
        let other = Self.snapshot(state.request, [("day0", ["n1"]), ("day1", ["a1", "a2"]), ("day2", ["b1", "b2"])], generation: 3)
        _ = state.update(.resultsSettled(SettledResults(count: 5, snapshot: other, anchorCode: "b1", anchor: 3)))
        #expect(state == waiting)
        // Count 6: a new day with a quake above; the selection stays on b1, two list lines down
        // (the list is shorter than the screen, so it is drawn from the top).
        _ = state.update(.resultsSettled(SettledResults(count: 6, snapshot: other, anchorCode: "b1", anchor: 3)))
        #expect(state.results == other && state.pendingBase == nil && state.heldForCounts.isEmpty)
        #expect(state.status.message == "No new quakes; they are marked ● here as they arrive")
        #expect(state.selectedCode == "b1" && state.cursorLine == line + 2 && state.topLine == 0)
        // Its failure instead: said, and the request's results asked for again.
        var failing = waiting
        let effects = failing.update(.countFailed(count: 6, reason: "disk I/O error"))
        #expect(Self.query(effects)?.step == .resume(failing.request))
        #expect(failing.status.message?.contains("disk I/O error") == true)
    }

    /// Whether the engine tries a request exactly before its window is the state's to say
    /// (`ExactAttempts`, asked as `ResultsQuery.triesExactly`), learnt from the answers: a
    /// provisional answer marks the request's shape slow, a count settled within the budget
    /// clears it; a dropped answer teaches nothing.
    @Test func whetherARequestIsTriedExactlyIsLearntFromTheAnswersInTheState() throws {
        var state = Self.start()
        let sort = try #require(Self.query(state.update(.nextSortOrder, at: Self.time)))
        #expect(sort.triesExactly && state.exactAttempts == ExactAttempts())
        var expected = state
        _ = state.update(.resultsAnswered(ResultsAnswer(query: sort, snapshot: Self.window(state.request, count: 7, generation: 2), anchor: 0)))
        expected.exactAttempts.record(expected.request, withinBudget: false)
        expected.results = Self.window(expected.request, count: 7, generation: 2)
        expected.relayout()
        expected.awaitedQuery = nil
        expected.awaitedFor = nil
        expected.keptSelectionLine = 1
        expected.heldForCounts = []
        #expect(state == expected)
        // The same shape again (the direction is not part of it): its window at once.
        let reverse = try #require(Self.query(state.update(.reverseSortDirection)))
        #expect(!reverse.triesExactly)
        _ = state.update(.resultsAnswered(ResultsAnswer(query: reverse, snapshot: Self.window(state.request, count: 8, generation: 3), anchor: 0)))
        // A distance sort's band counts (still provisional) and a late answer of count 7 teach nothing.
        let waiting = state
        _ = state.update(.resultsSettled(SettledResults(count: 7, snapshot: Self.snapshot(state.request, [("M 3", ["a1"])], generation: 9),
                                                        anchorCode: "a1", anchor: 0, withinBudget: true)))
        #expect(state == waiting)
        var counted = Self.window(state.request, count: 8, generation: 4)
        counted.countedTotal = 4
        _ = state.update(.resultsSettled(SettledResults(count: 8, snapshot: counted, anchorCode: "a1", anchor: 0)))
        #expect(state.exactAttempts == waiting.exactAttempts)
        // Count 8 took no longer than the budget: the shape is tried exactly again.
        let exact = Self.snapshot(state.request, [("M 3", ["b1", "a1", "a2", "b2"])], generation: 5)
        _ = state.update(.resultsSettled(SettledResults(count: 8, snapshot: exact, anchorCode: "a1", anchor: 1, withinBudget: true)))
        #expect(state.exactAttempts == ExactAttempts() && !state.results.isProvisional)
        let again = try #require(Self.query(state.update(.reverseSortDirection)))
        #expect(again.triesExactly)
    }

    @Test func anAnswerToAQueryANewerOneSupersededIsDropped() throws {
        var state = Self.start()
        let first = try #require(Self.query(state.update(.nextSortOrder, at: Self.time)))
        // A setting arrives before the answer (what comes from outside is never held): a newer query.
        var settings = state.settings
        settings.minimumMagnitude = 3
        let second = try #require(Self.query(state.update(.settingsChanged(settings))))
        #expect(second != first && second.step == .configure(state.request))
        let expected = state
        let old = Self.snapshot(try #require(first.request), [("M 3", ["b1", "a1", "a2", "b2"])], generation: 2)
        #expect(state.update(.resultsAnswered(ResultsAnswer(query: first, snapshot: old, anchor: 1))) == [])
        #expect(state == expected)  // still waiting for the newer answer
        let new = Self.snapshot(state.request, [("M 3", ["b1", "a1"])], generation: 3)
        _ = state.update(.resultsAnswered(ResultsAnswer(query: second, snapshot: new, anchor: 1)))
        #expect(state.results == new && !state.awaitsResults)
        #expect(state.selectedCode == "a1" && state.cursorLine == 2)
    }

    /// Reads of one snapshot are answered in the order they were asked for, so the rows of a
    /// screen the list has left may come after the rows of the screen it shows (seed 414 of the
    /// tmux restore walks: `G` then a scroll while a count settled drew thirty rows of nothing).
    /// A late answer adds its rows and takes none away; a row still not read is drawn as a dim
    /// `…`, never as a quake of 1970 at an unknown place.
    @Test func aLateReadOfTheSameResultsTakesNoRowAwayAndAnUnreadRowIsDrawnAsSuch() {
        let codes = (0..<40).map { "q\($0)" }
        let app = AppState(sceneID: "p", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12)
        var state = BrowserState(app: app, results: Self.snapshot(app.request, [("day1", codes)], generation: 1, withRows: false))
        let top = state.update(.rowsRead(LoadedRows(start: 0, rows: codes[0..<20].map(Self.row)), generation: 1))
        #expect(top == [.saveScene])  // the top row is read: saved
        // `G`: the last screen is asked for; the first screen's rows, asked for before, come last.
        guard case .readRows(let runs, 1)? = state.update(.last, at: Self.time).last, let end = runs.last?.upperBound else {
            Issue.record("G read nothing")
            return
        }
        #expect(end == 40)
        let lastScreen = LoadedRows(start: runs[0].lowerBound, rows: codes[runs[0]].map(Self.row))
        #expect(state.update(.rowsRead(lastScreen, generation: 1)) == [.saveScene])  // q39 selected
        let shown = state
        #expect(state.update(.rowsRead(LoadedRows(start: 0, rows: codes[0..<20].map(Self.row)), generation: 1)) == [])
        #expect(state == shown)
        #expect(state.selectedCode == "q39")
        #expect(state.visibleLines().allSatisfy { $0.row != nil || { if case .header = $0.line { true } else { false } }($0) })

        // A row the store could not give stays unread, and says so.
        var unread = BrowserState(app: app, results: Self.snapshot(app.request, [("day1", codes)], generation: 1, withRows: false))
        _ = unread.update(.rowsRead(LoadedRows(start: 0, rows: codes[0..<3].map(Self.row)), generation: 1))
        let lines = Screen.render(unread.screenModel(FrameContext(now: 0, isLive: false, localTimeZone: .gmt))).lines
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "…" })
        #expect(!lines.contains { $0.contains("1970") || $0.contains("unknown place") })
    }
}

extension ResultsQuery {
    /// The request a configure asks for (nil for the other steps).
    var request: SectionedFetchRequest? {
        if case .configure(let request) = step { request } else { nil }
    }

}

/// The status line under a question: the question's keys have the line, not the list's hints.
@Suite struct QuestionStatusLineTests {
    @Test func aQuestionIsShownWholeWithoutHintsOfKeysThatDoNothingThere() throws {
        var state = PureUpdateTests.start()
        _ = state.update(.resize(columns: 100, rows: 30))
        _ = state.update(.closeScene)
        let lines = Screen.render(state.screenModel(FrameContext(now: 0, isLive: false))).lines
        let status = lines.last ?? ""
        #expect(status.contains("Close this scene and delete its saved state? y closes it, n or Esc keeps it"), "\(status)")
        #expect(!status.contains("L whole message") && !status.contains("? help"), "\(status)")
    }

}
