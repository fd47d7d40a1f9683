import Foundation
import QuakeModel

/// App-wide settings from app storage (`defaults.plist`), shared by every scene.
public struct AppSettings: Equatable, Sendable {
    public typealias TimeZoneChoice = DisplaySettings.TimeZoneChoice
    public typealias DistanceUnit = DisplaySettings.DistanceUnit

    public var minimumMagnitude: Double?
    public var timeZone: TimeZoneChoice
    public var distanceUnit: DistanceUnit
    public var refreshFeed: String
    /// `home` in app storage: where distances, the near-home filter and the distance sort measure from.
    public var home: GeoPoint?
    /// `home`'s `name` (`quaketui config home LAT,LON --name Aksaray`): what home is called
    /// everywhere it is named; nil: "home".
    public var homeName: String?
    /// `nearRadius` in app storage: km from home the near-home filter (`~`) keeps.
    public var nearRadius: Double = 300
    /// `autoRefreshInterval` in app storage (or `$QUAKETUI_AUTO_REFRESH_INTERVAL`): seconds
    /// between automatic refreshes; 0 turns them off, and the status line then says so.
    public var autoRefreshInterval: Double = 300
    /// The zone `local` means: the machine's (injected so tests do not depend on it, as
    /// `DisplaySettings.localTimeZone` is).
    public var localTimeZone: TimeZone = .current

    public init(minimumMagnitude: Double? = nil, timeZone: TimeZoneChoice = .local,
                distanceUnit: DistanceUnit = .km, refreshFeed: String = "all_month") {
        self.minimumMagnitude = minimumMagnitude
        self.timeZone = timeZone
        self.distanceUnit = distanceUnit
        self.refreshFeed = refreshFeed
    }

    public var resolvedTimeZone: TimeZone {
        timeZone == .utc ? TimeZone(identifier: "UTC")! : localTimeZone
    }

    /// The presets `m` cycles through.
    public static let magnitudePresets: [Double?] = [nil, 2.5, 4.5, 6]
}

/// An unsaved notes edit (`EditView.draft`): which quake, and the editor's text and cursor.
public struct NotesDraft: Equatable, Sendable {
    public var code: String
    public var editor: NotesEditor

    public init(code: String, text: String, cursor: Int) {
        self.code = code
        editor = NotesEditor(text: text, cursor: max(0, min(cursor, text.count)), isEditing: true)
    }

    /// The quake's notes in the store when editing began (nil: not known, a draft from an older
    /// scene file): a save finding other notes there asks before overwriting them.
    public var base: String?

    public var text: String { editor.text }
    public var cursor: Int { editor.cursor }
}

/// One quake read for the detail view: its code, and the stored row (nil when it is not in the store).
public struct LoadedQuake: Equatable, Sendable {
    public var code: String
    public var quake: StoredQuake?

    public init(code: String, quake: StoredQuake?) {
        self.code = code
        self.quake = quake
    }
}

/// The status line's transient parts.
public struct StatusState: Equatable, Sendable {
    /// A one-shot message, cleared by the next key press.
    public var message: String?
    public var isError = false
    /// The `:` filters' report last put on the status line (`BrowserState.reportFilters`): while
    /// the status line still says it, every answer of the results says it again, so that its count
    /// is the header's (pending while the list is counted, then exact).
    public var filterReport: String?
    /// `n`'s `New quake 3 of 12` last put on the status line: new quakes arriving or deleted
    /// while it is still there take it away (it counted the new quakes of then).
    public var newQuakeReport: String?
    /// Unread notices from the background (a failed save, a file set aside), newest first:
    /// shown before `message`, which a refresh's result or an alert replaces without touching
    /// them; the next key press clears them with the message.
    public var notices: [String] = []
    /// What the status line says: the unread notices, then the message (nil: neither).
    public var shown: String? {
        let parts = notices + [message].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
    /// Whether the status line shows an error: any unread notice is one.
    public var showsError: Bool { !notices.isEmpty || isError }
    /// Import or refresh progress: 0…1, or nil for unknown, with a label.
    public var progress: Double?
    public var progressLabel: String?
    public var isRefreshing = false
    public var lastRefresh: Date?
    /// Set when the last refresh failed and the bundled sample is what is shown.
    public var offline = false

    public init() {}
}

/// Everything one scene (one tmux pane) shows. Restored from scene storage on launch.
public struct AppState: Equatable, Sendable {
    public var sceneID: String
    public var sort: QuakeSortDescriptor
    /// The search field's text and cursor (the text is `ContentView.searchText`; the cursor is
    /// not scene state: a restored search has it at the end).
    public var search: LineEditor
    /// The search field has focus: typed characters go into `search` at its cursor.
    public var isSearching = false
    public var collapsedSections: Set<String> = []
    /// The cursor: a display line (a section header or a quake row).
    public var cursorLine = 0
    /// The first display line on screen.
    public var topLine = 0
    /// `ContentView.selectedQuake`: the code under the cursor, or the last one if the cursor is on a header.
    public var selectedCode: String?
    /// `ContentView.selectedSection`: the section whose header is under the cursor, nil on a quake row.
    public var selectedSection: String?
    /// `ContentView.topQuake`: the first quake on screen, to restore the scroll position.
    public var topCode: String?
    public var detailPresented = false
    public var detailTab: DetailTab = .detail
    public var editor: NotesDraft?
    public var settings: AppSettings
    public var helpVisible = false
    /// The first help entry shown when the help does not fit the terminal.
    public var helpOffset = 0
    public var status = StatusState()
    /// Terminal size in cells.
    public var columns: Int
    public var rows: Int
    /// The store holds the bundled sample, not real data.
    public var isSample = false
    /// The selected quake as last read for the detail view (`Effect.loadDetail` → `Action.detailLoaded`);
    /// nil while the detail is closed.
    public var detail: LoadedQuake?
    /// `beginEditing` waits for this quake's stored notes before it opens a draft.
    public var notesRequest: String?
    /// Every one-shot message of the session (`L` shows them); the newest are scene state
    /// (`ContentView.messageLog`).
    public var messageLog = MessageLog()
    /// `ContentView.filters`: the `:` command line's active filters, in canonical text
    /// (`depth 0-70`, `since 24h` …), and the row filters they stand for.
    public var filters: [String] = []
    public var rowFilters: [RowFilter] = []
    /// `ContentView.commandLine`: the `:` command line (text and cursor) while it has focus.
    public var commandLine: CommandPrompt?
    /// `ContentView.commandHistory`: command lines run, oldest first (↑ recalls them).
    public var commandHistory: [String] = []
    /// A question on the status line that the next key answers (discard a draft, close the
    /// scene, a notes conflict).
    public var confirmation: Confirmation?
    /// `ContentView.isMessageLogPresented`, `ContentView.messageLogOffset`: the message log
    /// overlay is open, scrolled `logOffset` lines down from the newest.
    public var logVisible = false
    /// `/` in the help or the message log: the text only the lines holding it show for
    /// (`ContentView.overlayFind`), and whether it is being typed (`ContentView.isOverlayFinding`).
    /// Cleared when the overlay closes.
    public var overlayFind = ""
    public var isOverlayFinding = false
    public var logOffset = 0
    /// New-quake marks and the automatic refresh's status (issue 13).
    public var live = LiveState()
    /// `ContentView.nearHome`: only quakes within `settings.nearRadius` of home (`~`); inert without a home.
    public var nearHome = false
    /// `ContentView.showsColumnHeaders`: the row naming the list's columns, as the user set it
    /// with `c`; nil until then (see `showsColumnHeaders`).
    public var columnHeaders: Bool?
    /// The statistics view (`=`): open or not, and the statistics it shows (issue 32).
    public var statistics = StatisticsState()
    /// The Map tab's scale and the density of the list it draws (issue 32).
    public var map = MapDensityState()
    /// The sequence view (`A`): the mainshock it shows and its sequence (issue 54).
    public var sequence = SequenceState()
    /// The list declustered (`:decluster gk`): the method and the background it keeps (issue 54).
    public var decluster = DeclusterState()

    public init(sceneID: String, sort: QuakeSortDescriptor = QuakeSortDescriptor(.time), searchText: String = "",
                settings: AppSettings = AppSettings(), columns: Int = 80, rows: Int = 24) {
        self.sceneID = sceneID
        self.sort = sort
        search = LineEditor(text: searchText)
        self.settings = settings
        self.columns = columns
        self.rows = rows
    }

    /// `ContentView.searchText`: the search field's text; setting it puts the cursor at its end.
    public var searchText: String {
        get { search.text }
        set { search = LineEditor(text: newValue) }
    }

    /// `ContentView.selectionLine`: the cursor's line in the list pane.
    public var selectionLine: Int { cursorLine - topLine }

    /// Whether the list has its row of column headers: as set with `c`, else from
    /// `AppState.columnHeadersMinimumRows` rows up (a short terminal keeps its lines for quakes).
    public var showsColumnHeaders: Bool { columnHeaders ?? (rows >= Self.columnHeadersMinimumRows) }
    public static let columnHeadersMinimumRows = 20

    /// The notes editor has focus: keys edit the draft.
    public var isEditing: Bool { editor != nil && detailPresented && detailTab == .notes }

    /// The fetch request this state asks for: `listRequest`, filtered to the background when
    /// the list is declustered and its declustering is computed (`DeclusterState.appliedSet`).
    public var request: SectionedFetchRequest {
        var request = listRequest
        if let kept = decluster.appliedSet(for: request) { request.predicate.rowFilters.append(.declustered(kept)) }
        return request
    }

    /// The fetch request of the list before any declustering: what `:decluster` declusters.
    public var listRequest: SectionedFetchRequest {
        var request = SectionedFetchRequest(
            predicate: QuakePredicate(searchText: searchText, minimumMagnitude: settings.minimumMagnitude,
                                      rowFilters: rowFilters),
            sortDescriptor: sort, timeZone: settings.resolvedTimeZone)
        addDistance(to: &request)
        return request
    }
}
