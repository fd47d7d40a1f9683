import Foundation
import QuakeModel
import QuakeScenes

/// What can happen to a scene: user intents (already decoded from keys or mouse), and results
/// from the outside world (store changes, settings, refresh progress, resize).
public enum Action: Equatable, Sendable {
    // Moving.
    case moveUp, moveDown, pageUp, pageDown, halfPageUp, halfPageDown, first, last
    /// `[` / `]`: the first quake of this (or the previous) section / of the next section.
    case previousSection, nextSection
    case scroll(lines: Int)
    /// A click on a display line (already hit-tested by the view).
    case selectLine(Int)
    // List.
    case toggleSection
    case nextSortOrder, reverseSortDirection
    /// `c`: the row of column headers above the list on / off (`ContentView.showsColumnHeaders`).
    case toggleColumnHeaders
    case cycleMinimumMagnitude
    // Home and distance (`@`, `~`).
    case setHomeToSelection, toggleNearHome
    // Search.
    case beginSearch, searchInput(String), commitSearch, cancelSearch
    /// An editing key in the search field (`KeyTable.lineEditing`): ← → Home End, Backspace,
    /// Delete, ctrl-w, ctrl-u.
    case searchEdit(LineEdit)
    // Detail.
    case openDetail, closeDetail, nextTab, previousTab, selectTab(DetailTab)
    // Notes.
    case beginEditing
    /// An editing key while the notes editor has focus (see `NotesEditor.apply`).
    case editorKey(Key)
    case saveNotes, cancelEditing
    // App.
    case refresh, handoff, toggleHelp, quit, closeScene, redraw
    /// `o` opens the selected quake's event page; `y` copies it (its code when it has none).
    case openInBrowser, copyLink
    case dismissOverlay
    /// A key the list binds to nothing (`h`, `w`, `ctrl-o`, named as help names keys): the status
    /// line says so in one line and points to `?`; never logged (issue 56.8).
    case unboundKey(String)
    /// `/` in the help or the message log: find (only the lines holding the text show); typed,
    /// Backspace, and the end of typing (`Enter` keeps the text, `Esc` clears it).
    case beginOverlayFind, overlayFindInput(String), overlayFindBackspace, endOverlayFind(keep: Bool)
    /// Scrolls the help overlay by entries on a terminal too short to show every key.
    case scrollHelp(Int)
    /// `:` opens the command line; keys edit it; `Enter` runs it (see `FilterCommand`); ↑↓ step
    /// through its history.
    case beginCommand, commandInput(String), commandBackspace, runCommand, cancelCommand, commandHistory(Int)
    /// An editing key in the `:` line other than Backspace (`KeyTable.lineEditing`).
    case commandEdit(LineEdit)
    /// Tab in the `:` line: completes the command's name (`FilterCommand.complete`).
    case completeCommand
    /// The result of `Effect.readStoredValues`: the values stored quakes have, for the `:type` or
    /// `:magtype` line `command`.
    case storedValuesRead(StoredValues, command: String, values: [String])
    /// The answer to the status line's question (`AppState.confirmation`).
    case answer(ConfirmationAnswer)
    /// A save found the quake's notes changed since editing began: `theirs` is what the store holds.
    case notesConflict(code: String, theirs: String)
    /// Text pasted in one piece (bracketed paste): whole into the field being edited (search,
    /// the `:` line, the notes), or, with none, ignored and said so. Never keys.
    case paste(String)
    /// `L`: the message log overlay; scrolled by lines while open.
    case toggleMessageLog, scrollMessageLog(Int)
    // From outside.
    case resize(columns: Int, rows: Int)
    case storeChanged
    case settingsChanged(AppSettings)
    case refreshProgress(fraction: Double?, label: String)
    /// `r`'s refresh ended: its message (the sentence, for the log), and for a failure its kind
    /// (nil when none is known), which decides the status line's few words.
    case refreshFinished(message: String, failed: Bool, at: Date, kind: FailureKind? = nil)
    case notesSaved(code: String)
    case continueActivity(code: String)
    case showMessage(String, isError: Bool)
    /// Notices from the background (files set aside, a save that failed), in order: shown before
    /// the message still on the status line, which they join rather than replace (no key has
    /// been pressed since, so it has not been read); one that message already says is left out.
    case showNotices([String])
    /// The store now holds (or no longer holds) the bundled sample.
    case sampleChanged(Bool)
    /// The result of `Effect.loadDetail`: the quake as stored (nil when it is not in the store).
    case detailLoaded(code: String, StoredQuake?)
    /// The result of `Effect.readQuake`: the quake as stored (nil when it is not in the store),
    /// and what it was read for.
    case quakeRead(code: String, StoredQuake?, for: QuakeUse)
    // Live monitor (issue 13): new-quake marks, the automatic refresh's status, alerts.
    /// `n` / `N`: the cursor to the next / previous quake marked new; `a`: mark every quake seen.
    case nextNewQuake, previousNewQuake, markAllSeen
    /// Quakes inserted into the store since the last read (also once at launch).
    case quakesArrived(QuakeArrivals)
    /// The pane gained (true) or lost focus: the terminal's focus reports (mode 1004, `ESC [I` /
    /// `ESC [O`; tmux sends them with `focus-events on`). Coming back after a while away says what
    /// arrived meanwhile (issue 55).
    case focusChanged(Bool)
    /// `refresh.plist` changed (any process's automatic refresh).
    case refreshStatusChanged(RefreshStatus)
    // Never wait on a key (issue 11): the background count of a provisional window answered,
    // with its results (`SettledResults`: exact, or a distance sort's whole counts first).
    case resultsSettled(SettledResults)
    /// The background count numbered `count` (`ResultsSnapshot.pendingCount`) failed: the
    /// engine is back on the request before it; the update puts its state back and says why.
    case countFailed(count: Int, reason: String)
    /// The answer to `Effect.queryResults`: the results after a configure, merge or locate.
    case resultsAnswered(ResultsAnswer)
    /// The answer to `Effect.queryResults` when the results could not be read: the source stays
    /// on the request it answered before. `reason` says why, as the status line says it
    /// (`BrowserModel.readFailure`); the update puts the state back and says what failed.
    case resultsFailed(ResultsQuery, reason: String)
    /// The answer to `Effect.readRows`: the rows, for the snapshot of `generation` (rows for an
    /// older snapshot are dropped).
    case rowsRead(LoadedRows, generation: Int)
    // The statistics view (issue 32).
    /// `=`: open or close the statistics of the list (`Esc` closes it too).
    case toggleStatistics
    /// The answer to `Effect.computeStatistics` of `generation` (a stale one is dropped).
    case statisticsComputed(generation: Int, CatalogueStatistics)
    /// The counts of `Effect.computeStatistics` of `generation`, before what needs the quakes one
    /// by one (magnitude types, moment): shown, still pending.
    case statisticsPartial(generation: Int, CatalogueStatistics)
    /// How much of the declustering of `Effect.computeStatistics` of `generation` is done
    /// (0…1): the view says `declustering 43 %` while it runs (issue 54).
    case statisticsProgress(generation: Int, fraction: Double)
    /// `Effect.computeStatistics` of `generation` failed: why, for the view.
    case statisticsFailed(generation: Int, message: String)
    /// `+` / `-`: the Map tab one scale in / out (world, region, local) around the selected quake.
    case zoomMap(Int)
    /// The answer to `Effect.computeDensity` of `generation` (a stale one is dropped).
    case densityComputed(generation: Int, DensityGrid)
    // The sequence view (issue 54).
    /// `A`: open the sequence of the selected quake, or close the view showing it.
    case toggleSequence
    /// `Esc` in the sequence view.
    case closeSequence
    /// The answer to `Effect.computeSequence` of `generation` (a stale one is dropped).
    case sequenceComputed(generation: Int, AftershockSequence)
    /// `Effect.computeSequence` of `generation` gave no sequence: why, for the view.
    case sequenceFailed(generation: Int, message: String)
    // The list declustered (issue 54).
    /// The answer to `Effect.declusterList` of `generation`: the background it keeps (a stale one is dropped).
    case listDeclustered(generation: Int, DeclusteredSet)
    /// How much of `Effect.declusterList` of `generation` is done (0…1): the header says `declustering 43 %`.
    case listDeclusteringProgress(generation: Int, fraction: Double)
    /// `Effect.declusterList` of `generation` failed: why.
    case listDeclusteringFailed(generation: Int, message: String)
}

/// What a quake is read for (`Effect.readQuake` → `Action.quakeRead`).
public enum QuakeUse: Equatable, Sendable {
    /// `o`: open its event page.
    case openPage
    /// `y`: copy its event page (its code when it has none).
    case copyPage
    /// `@`: home becomes its epicentre.
    case setHome
    /// `quaketui open CODE` found it hidden: say whether the minimum magnitude hides it.
    case explainHidden
}

/// Work the runtime does for the model, feeding results back as actions.
public enum Effect: Equatable, Sendable {
    /// Scene-storage keys changed: write them (coalesced, on disk within 250 ms).
    case saveScene
    case saveNotes(code: String, text: String)
    /// Save the notes only if the store still holds `expected` (what it held when editing
    /// began); otherwise report `Action.notesConflict`.
    case saveNotesIfUnchanged(code: String, text: String, expected: String?)
    /// Persist a changed app setting (e.g. minimum magnitude) to `defaults.plist`.
    case saveSettings(AppSettings)
    /// Persist a new `home` to `defaults.plist` (every pane picks it up).
    case saveHome(GeoPoint)
    case startRefresh(feed: String)
    /// The detail view shows this quake: advertise `quaketui.showQuake` for handoff.
    case advertise(code: String)
    /// Continue the most recent activity of another scene.
    case continueHandoff
    case redraw
    /// Open this http(s) URL in the user's browser (`$BROWSER`, else `xdg-open`).
    case openURL(String)
    /// Put this text on the clipboard through the terminal (OSC 52).
    case copyToClipboard(String)
    /// Read one quake as stored for a key that acts on it (`o`, `y`, `@`) or a message that
    /// explains it; the runtime answers with `Action.quakeRead` (`BrowserModel.performReads`).
    case readQuake(code: String, for: QuakeUse)
    case quit
    /// Quit and delete this scene's state.
    case closeScene
    /// Read one quake with everything stored about it (the detail view, the notes editor's
    /// starting text); the runtime answers with `Action.detailLoaded`.
    case loadDetail(code: String)
    /// Read the values stored quakes have (event types, magnitude types), before running the
    /// `:type` or `:magtype` line `command`; the runtime answers with `Action.storedValuesRead`.
    case readStoredValues(StoredValues, command: String)
    /// A new quake meets the alert rule: claim it in `alerts.plist` and, if no pane or process
    /// had, ring the terminal bell and run app storage's `alertCommand` with the quake as JSON.
    case alert(AlertRule.Alert)
    /// Compute the statistics of the quakes `request` matches in the background, interrupting
    /// any older computation; the runtime answers with `Action.statisticsComputed` (or
    /// `statisticsFailed`) carrying `generation`.
    /// With `declustering`, the statistics are of the background it keeps (issue 54).
    case computeStatistics(SectionedFetchRequest, declustering: Declustering? = nil, generation: Int)
    /// Count the quakes `request` matches per cell of `window` in the background (the Map tab's
    /// density), interrupting any older count; answered by `Action.densityComputed`.
    case computeDensity(SectionedFetchRequest, window: GridWindow, generation: Int)
    /// Stop the statistics computation running: the view closed before its answer.
    case cancelStatistics
    /// Stop the density count running: the Map tab closed before its answer.
    case cancelDensity
    /// Read the sequence after the quake `code` (`Connection.aftershockSequence`) with its
    /// forecast from `now` (ms since the epoch) in the background, interrupting any older
    /// computation; answered by `Action.sequenceComputed` (or `sequenceFailed`) with `generation`.
    case computeSequence(code: String, now: Int64, generation: Int)
    /// Stop the sequence computation running: the view closed before its answer.
    case cancelSequence
    /// Decluster the quakes `request` holds by `method` in the background (the list's
    /// `:decluster`, issue 54), interrupting any older declustering; answered by
    /// `Action.listDeclustered` (with `listDeclusteringProgress` on the way, or
    /// `listDeclusteringFailed`) carrying `generation`.
    case declusterList(SectionedFetchRequest, method: Declustering, generation: Int)
    /// Stop the list's declustering: `:decluster off` before its answer.
    case cancelListDeclustering
    /// Ask the results source (`ResultsQuery`); the runtime answers with `Action.resultsAnswered`
    /// before it draws.
    case queryResults(ResultsQuery)
    /// Read the rows at flat offsets `ranges` of the snapshot of `generation` (the rows the list
    /// shows, and a margin); the runtime answers with `Action.rowsRead` before it draws.
    case readRows([Range<Int>], generation: Int)
}

extension Action {
    /// What the status line says when the background count failed (`countFailed`).
    public static let countFailure = "The list could not be counted (it shows what it showed before)"

    /// What the status line says could not be done when this action's reads failed: the first
    /// half of "The search could not be applied: Could not read the store …".
    public var whatFailed: String {
        switch self {
        case .searchInput, .searchEdit, .cancelSearch: "The search could not be applied"
        case .nextSortOrder, .reverseSortDirection: "The list could not be sorted"
        case .cycleMinimumMagnitude, .settingsChanged: "The magnitude filter could not be applied"
        case .storeChanged: "New changes could not be merged (the list shows the earlier data)"
        case .resultsSettled: Self.countFailure
        case .continueActivity(let code): "Quake \(code) could not be shown"
        case .detailLoaded, .beginEditing, .openDetail: "The quake could not be read"
        case .runCommand: "The filters could not be applied"
        case .nextNewQuake, .previousNewQuake: "The new quakes could not be found"
        case .resultsFailed, .countFailed: "The list could not be read again"
        case .toggleNearHome: "The near-home filter could not be applied"
        default: "That did not work"
        }
    }
}
