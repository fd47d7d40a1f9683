import Foundation
import QuakeModel

/// Everything one frame shows, as plain values: the app builds it from its state, and
/// `Screen.render` draws it. Nothing here touches the store or the terminal.
public struct ScreenModel: Sendable, Equatable {
    /// The terminal size the frame is drawn for.
    public var size: Size
    public var header: HeaderModel
    public var list: ListModel
    /// The detail view, nil when it is closed.
    public var detail: DetailModel?
    /// The statistics view (`=`), nil when it is closed; drawn in the detail's pane instead of it.
    public var statistics: StatisticsModel?
    /// The sequence view (`A`), nil when it is closed; drawn in the detail's pane instead of it.
    public var sequence: SequenceModel?
    /// The mode that has the keys (`KeyMap.modes`), whose hints the status line shows; nil in a
    /// frame built without a browser state.
    public var keyMode: KeyMode?
    public var status: StatusModel
    /// The help overlay, drawn over everything.
    public var showsHelp: Bool
    /// The first help entry shown when the help does not fit (see `Screen.maximumHelpOffset`).
    public var helpOffset: Int = 0
    /// What `/` finds in the help or the message log, and whether it is being typed.
    public var overlayFind = ""
    public var isOverlayFinding = false
    /// Time zone, distance unit and the clock for relative times.
    public var display: DisplaySettings
    /// The message log overlay (`L`), newest last, when open; drawn over everything.
    public var messageLog: [MessageLog.Entry]?
    /// Lines the log is scrolled down from the newest.
    public var messageLogOffset = 0
    /// The `:` command line's text while it has focus (drawn on the status line).
    public var commandPrompt: String?
    /// Where the `:` line's cursor is, in characters of `commandPrompt` (nil: at its end).
    public var commandCursor: Int?
    /// What the `:` line says of its own input, in place of its hints (`CommandPrompt.notice`).
    public var commandNotice: String?
    /// A row above the list naming its columns, the sort column marked (`ContentView.showsColumnHeaders`).
    public var showsColumnHeaders = false

    public init(size: Size, header: HeaderModel = HeaderModel(), list: ListModel = ListModel(),
                detail: DetailModel? = nil, status: StatusModel = StatusModel(), showsHelp: Bool = false,
                display: DisplaySettings = DisplaySettings(now: 0)) {
        self.size = size
        self.header = header
        self.list = list
        self.detail = detail
        self.status = status
        self.showsHelp = showsHelp
        self.display = display
    }
}

/// How times and distances are shown, and what "now" is for relative times.
public struct DisplaySettings: Sendable, Equatable {
    public enum TimeZoneChoice: String, Sendable, Equatable { case utc, local }
    public enum DistanceUnit: String, Sendable, Equatable { case km, mi }

    /// ms since the epoch.
    public var now: Int64
    public var timeZone: TimeZoneChoice
    /// The zone `local` means (injected so snapshots do not depend on the machine).
    public var localTimeZone: TimeZone
    public var distanceUnit: DistanceUnit
    /// Home (app storage `home`): the list's distance column and the detail's distance and bearing.
    public var home: GeoPoint?
    /// What home is called (app storage `home`'s `name`); nil: "home".
    public var homeName: String?

    /// Home as the screen names it: its name (sanitised, on one line), else `home`.
    public var homeLabel: String { QuakeFormat.homeLabel(homeName) }

    public init(now: Int64, timeZone: TimeZoneChoice = .utc, localTimeZone: TimeZone = .current,
                distanceUnit: DistanceUnit = .km) {
        self.now = now
        self.timeZone = timeZone
        self.localTimeZone = localTimeZone
        self.distanceUnit = distanceUnit
    }

    /// The zone times are shown in.
    public var zone: TimeZone { timeZone == .utc ? TimeZone(identifier: "UTC")! : localTimeZone }
}

/// The header row: title, count, sort, search, filter, scene.
public struct HeaderModel: Sendable, Equatable {
    public var title: String
    /// Quakes matching the current search and filter.
    public var count: Int
    public var sortOrder: QuakeSortOrder
    public var ascending: Bool
    public var searchText: String
    /// Whether the search field has focus (typing edits it).
    public var isSearching: Bool
    /// Where typing inserts in the search field, in characters (nil: at the end).
    public var searchCursor: Int?
    public var minimumMagnitude: Double?
    public var sceneID: String
    /// A label such as `sample data`, shown when the store holds the bundled sample.
    public var sampleLabel: String?
    /// The last refresh failed: an `offline` badge.
    public var isOffline = false
    /// The `:` command line's active filters (`depth 0-70`, `felt` …).
    public var filters: [String] = []
    /// Quakes that arrived since the scene last looked and are still stored (`N new`).
    public var newCount = 0
    /// The near-home filter's label (`near home ≤ 300 km`), nil when it is off.
    public var nearHome: String?
    /// The list's declustering (`declustered (Gardner–Knopoff 1974): 8,412 of 12,569`, or
    /// `declustering 43 %` while it is computed), nil when it is off (`DeclusterState.label`).
    public var declustering: String?
    /// The total is still being counted (a provisional window): drawn as `… quakes`.
    public var isCountPending = false

    /// Badges that win over the scene ID when the header is short: `sample data`, `offline`.
    public var badges: [String] { (sampleLabel.map { [$0] } ?? []) + (isOffline ? ["offline"] : []) }

    public init(title: String = "quaketui", count: Int = 0, sortOrder: QuakeSortOrder = .time,
                ascending: Bool = false, searchText: String = "", isSearching: Bool = false,
                minimumMagnitude: Double? = nil, sceneID: String = "main", sampleLabel: String? = nil) {
        self.title = title
        self.count = count
        self.sortOrder = sortOrder
        self.ascending = ascending
        self.searchText = searchText
        self.isSearching = isSearching
        self.minimumMagnitude = minimumMagnitude
        self.sceneID = sceneID
        self.sampleLabel = sampleLabel
    }
}

/// The visible window of the list: section headers and quake rows, already scrolled.
public struct ListModel: Sendable, Equatable {
    /// The lines that fit, from the top of the list pane (`Screen.layout(for:).listRows` of them).
    public var lines: [ListLine]
    /// Index into `lines` of the selected line, nil when it is scrolled out or the list is empty.
    public var selectedIndex: Int?
    /// The flat index of `lines[0]` among all lines, and how many lines there are (for the
    /// position indicator).
    public var firstLineIndex: Int
    public var totalLines: Int
    /// Only a window around the selection is known yet (counts pending): no scrollbar, since
    /// where the window stands in the whole list is not known.
    public var isCountPending = false
    /// Shown in place of rows when the list is empty ("No quakes match …").
    public var emptyMessage: String
    /// When `lines[0]` is the sticky header (the top row's section, its own header scrolled
    /// away): that header's display line, which a click on it selects.
    public var stickyHeaderLine: Int?

    public init(lines: [ListLine] = [], selectedIndex: Int? = nil, firstLineIndex: Int = 0,
                totalLines: Int? = nil, emptyMessage: String = "No quakes.") {
        self.lines = lines
        self.selectedIndex = selectedIndex
        self.firstLineIndex = firstLineIndex
        self.totalLines = totalLines ?? lines.count
        self.emptyMessage = emptyMessage
    }
}

/// One line of the list.
public enum ListLine: Sendable, Equatable {
    case section(SectionLine)
    case quake(QuakeLine)
    /// A quake row not read yet (a read that failed, or rows the store could not give): drawn
    /// as a dim `…`, never as a quake it is not.
    case unread
}

/// A section header: `▾ Monday, 6 May 2024  (42)`.
public struct SectionLine: Sendable, Equatable {
    public var id: String
    public var title: String
    public var count: Int
    public var isCollapsed: Bool
    /// The count is still being computed (a provisional window): drawn as `…`.
    public var isCountPending = false

    public init(id: String, title: String, count: Int, isCollapsed: Bool = false) {
        self.id = id
        self.title = title
        self.count = count
        self.isCollapsed = isCollapsed
    }

    /// The line for a section of a fetch.
    public init(_ section: QuakeSection, isCollapsed: Bool) {
        // A provisional window's section counted before its order shows the whole count.
        self.init(id: section.id, title: section.title, count: section.totalCount ?? section.count, isCollapsed: isCollapsed)
        isCountPending = section.isCountPending
    }
}

/// A quake row: what the list shows of one quake.
public struct QuakeLine: Sendable, Equatable {
    public var code: String
    public var magnitude: Double?
    public var place: String
    /// ms since the epoch.
    public var time: Int64
    public var depth: Double?
    public var hasNotes: Bool
    /// The epicentre, for the location column of wide panes.
    public var latitude: Double?
    public var longitude: Double?
    /// Arrived since the scene last looked: marked `●` (issue 13).
    public var isNew = false
    /// A report of it was revised since the scene's `seen` mark: marked `◆` (issue 53), unless new.
    public var isRevised = false
    /// The feed's tsunami flag, PAGER alert level and event type, for the row's mark (`QuakeMark`).
    public var tsunami = false
    public var alert: String?
    public var eventType: String?
    /// The magnitude's type (`Mww`) and how many agencies reported the event, for the list's
    /// `5.4 Mww` and `3 ag` (issue 53; `ListView.Columns`).
    public var magType: String?
    public var agencies = 1

    public init(code: String, magnitude: Double?, place: String, time: Int64, depth: Double? = nil,
                hasNotes: Bool = false, latitude: Double? = nil, longitude: Double? = nil) {
        self.code = code
        self.magnitude = magnitude
        self.place = place
        self.time = time
        self.depth = depth
        self.hasNotes = hasNotes
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The line for a fetched row.
    public init(_ row: QuakeRow) {
        self.init(code: row.code, magnitude: row.magnitude, place: row.place, time: row.time,
                  depth: row.depth, hasNotes: row.hasNotes, latitude: row.latitude, longitude: row.longitude)
        tsunami = row.tsunami
        alert = row.alert
        eventType = row.type
        magType = row.magType
        agencies = row.agencies
    }
}
