import Foundation
import QuakeModel

/// Everything the browser knows (issue 27): the scene state (`AppState`, what scene storage
/// saves), the results it shows (a `ResultsSnapshot`, handed in by the runtime), the display
/// lines it lays them out in, and the bookkeeping of a request still being counted and of a
/// screen just restored. One value, so a whole-state comparison sees all of it; the update
/// (`BrowserState.update`) is a function of it and an action.
///
/// The scene state's properties read as the browser state's own (`state.cursorLine` is
/// `state.app.cursorLine`); its methods are called on `app` (`state.app.save(to:)`).
@dynamicMemberLookup
public struct BrowserState: Equatable, Sendable {
    /// The scene state: what scene storage saves and restores (`AppState+SceneStorage`).
    public var app: AppState
    /// The results the list shows: sections, counts and the rows read for the screen, as the
    /// runtime last answered (`Action.resultsAnswered`, `Action.rowsRead`).
    public package(set) var results: ResultsSnapshot
    /// The newest `ResultsQuery` asked, while it is not answered: actions wait
    /// (`heldForCounts`), as they would act on results about to be replaced, and the answer to
    /// another query (an older one) is dropped: the newer one's answer holds all it changed.
    var awaitedQuery: ResultsQuery?
    var awaitsResults: Bool { awaitedQuery != nil }
    /// The action that asked for `awaitedQuery` (the one a user would name: an answer's follow-up
    /// query keeps it): what the status line says could not be done if the query fails.
    var awaitedFor: Action?
    /// The results changed under the detail's copy of the selected quake (a merge, a settle):
    /// it is read again once the selection is known.
    var detailIsStale = false
    /// The display lines (headers and rows) of `results`, with the collapsed sections folded.
    public internal(set) var layout = DisplayLayout(sections: [], sectionStarts: [], collapsed: [])
    /// The scene state before the first action whose request is still being counted (a
    /// provisional window): where a count that fails puts everything back.
    var pendingBase: AppState?
    /// Actions waiting for a pending count or an unanswered query (see `BrowserState.update`).
    var heldForCounts: [Action] = []
    /// The screen `restore` placed, placed again by resizes until the first key (`RestoredPlacement`).
    var restoredPlacement: RestoredPlacement?
    /// While a request is counted: the list line the selection had when it was made (or was
    /// restored to). A provisional window cut short by its time limit may hold too few rows
    /// above the selection for that line; the settled results put the selection back on it.
    /// Until the next key, which moves the selection from where the user sees it.
    var keptSelectionLine: Int?
    /// Which request shapes the engine tries exactly within its budget, learnt from the answers
    /// (`ResultsAnswer`: provisional or not; `SettledResults.withinBudget`) and asked with each
    /// query (`ResultsQuery.triesExactly`): the memory that decides the path is part of the state.
    public internal(set) var exactAttempts = ExactAttempts()
    /// The time of the action being applied, read by the runtime once per action
    /// (`BrowserModel.send(_:at:)`): messages are logged with it, `:since` filters count back
    /// from it. The update reads no clock.
    public internal(set) var now = Date(timeIntervalSince1970: 0)

    public init(app: AppState, results: ResultsSnapshot? = nil) {
        self.app = app
        self.results = results ?? ResultsSnapshot(request: app.request)
        relayout()
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<AppState, Value>) -> Value {
        get { app[keyPath: keyPath] }
        _modify { yield &app[keyPath: keyPath] }
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<AppState, Value>) -> Value {
        app[keyPath: keyPath]
    }
}

extension BrowserState {
    /// Whether a view on screen waits for its background answer, drawn meanwhile with ` …`: the
    /// map's density, the statistics, the sequence. The runtime's trace says `idle` only without
    /// one (tests take the screen then).
    public var awaitsBackgroundAnswer: Bool { self.map.isPending || self.statistics.isPending || self.sequence.isPending }

    /// What narrows the list, as a user would name it: the search, the near-home radius, the `:`
    /// filters and the minimum magnitude, each as a clause of "quakes that …" and what undoes it.
    var narrowing: [(clause: String, undo: String)] {
        var parts: [(clause: String, undo: String)] = []
        if !self.searchText.isEmpty { parts.append(("match “\(self.searchText)”", "Esc clears the search")) }
        if self.isNearHomeActive {
            parts.append(("lie \(withinNearRadius)", "~ shows them all"))
        }
        if !self.filters.isEmpty { parts.append(("pass :\(self.filters.joined(separator: " · "))", ":clear removes the filters")) }
        if let minimum = self.settings.minimumMagnitude { parts.append(("have magnitude \(MagnitudeBin.threshold(minimum)) or more", "m changes the minimum")) }
        return parts
    }
}
