import Foundation
import QuakeStore

/// What can happen to a scene: user intents (already decoded from keys or mouse), and results
/// from the outside world (store changes, settings, refresh progress, resize).
public enum Action: Equatable, Sendable {
    // Moving.
    case moveUp, moveDown, pageUp, pageDown, halfPageUp, halfPageDown, first, last
    case scroll(lines: Int)
    /// A click on a display line (already hit-tested by the view).
    case selectLine(Int)
    // List.
    case toggleSection
    case nextSortOrder, reverseSortDirection
    case cycleMinimumMagnitude
    // Home and distance (`@`, `~`).
    case setHomeToSelection, toggleNearHome
    // Search.
    case beginSearch, searchInput(String), searchBackspace, clearSearchText, commitSearch, cancelSearch
    // Detail.
    case openDetail, closeDetail, nextTab, previousTab, selectTab(DetailTab)
    // Notes.
    case beginEditing
    /// An editing key while the notes editor has focus (see `NotesEditor.apply`).
    case editorKey(Key)
    case saveNotes, cancelEditing
    // App.
    case refresh, handoff, toggleHelp, quit, closeScene, redraw
    case dismissOverlay
    /// Scrolls the help overlay by entries on a terminal too short to show every key.
    case scrollHelp(Int)
    // From outside.
    case resize(columns: Int, rows: Int)
    case storeChanged
    case settingsChanged(AppSettings)
    case refreshProgress(fraction: Double?, label: String)
    case refreshFinished(message: String, failed: Bool, at: Date)
    case notesSaved(code: String)
    case continueActivity(code: String)
    case showMessage(String, isError: Bool)
    /// The store now holds (or no longer holds) the bundled sample.
    case sampleChanged(Bool)
}

/// Work the runtime does for the model, feeding results back as actions.
public enum Effect: Equatable, Sendable {
    /// Scene-storage keys changed: write them (coalesced, on disk within 250 ms).
    case saveScene
    case saveNotes(code: String, text: String)
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
    case quit
    /// Quit and delete this scene's state.
    case closeScene
}
