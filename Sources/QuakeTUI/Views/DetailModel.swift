import QuakeModel

/// The detail view of one quake: which tab, the record and the notes editor.
public struct DetailModel: Sendable, Equatable {
    public var tab: DetailTab
    /// The quake, nil while it loads or after it was deleted.
    public var record: QuakeRecord?
    public var notes: NotesEditor
    /// The Map tab's scale and the density of the list it draws.
    public var map = MapDensityModel()
    /// The Reports tab's solutions, the preferred first; empty: the record is the only one.
    public var reports: [QuakeRecord] = []
    /// The kept versions of those reports (issue 53), shown in the Reports tab.
    public var revisions: [ReportRevision] = []

    public init(tab: DetailTab = .detail, record: QuakeRecord?, notes: NotesEditor = NotesEditor()) {
        self.tab = tab
        self.record = record
        self.notes = notes
    }
}

extension DetailModel {
    /// The detail of a stored quake, its saved notes in a (not editing) editor.
    public init(tab: DetailTab = .detail, quake: StoredQuake) {
        let notes = quake.notes ?? ""
        self.init(tab: tab, record: quake.record, notes: NotesEditor(text: notes, cursor: notes.count))
        reports = quake.reports
        revisions = quake.revisions
    }
}

/// What the Map tab draws besides the quake: its scale, and the list counted per cell of the
/// window it shows (nil until counted: the map then shows coastlines and the quake alone);
/// `isPending` while a newer count runs (the grid drawn is then the one before it, or none).
public struct MapDensityModel: Sendable, Equatable {
    public var zoom: MapZoom
    public var grid: DensityGrid?
    public var isPending: Bool

    public init(zoom: MapZoom = .world, grid: DensityGrid? = nil, isPending: Bool = false) {
        self.zoom = zoom
        self.grid = grid
        self.isPending = isPending
    }
}

/// The detail view's tabs, in order (`1 2 3 4`, `Tab`/`shift-Tab`).
public enum DetailTab: String, CaseIterable, Sendable, Equatable {
    case detail, map, notes, reports

    /// The tab's label.
    public var title: String {
        switch self {
        case .detail: "Detail"
        case .map: "Map"
        case .notes: "Notes"
        case .reports: "Reports"
        }
    }
}

/// The notes text and, while editing, the cursor.
public struct NotesEditor: Sendable, Equatable {
    public var text: String
    /// Cursor position in Characters from the start of `text`.
    public var cursor: Int
    public var isEditing: Bool
    /// Whether the text differs from what is saved.
    public var isDirty: Bool

    public init(text: String = "", cursor: Int = 0, isEditing: Bool = false, isDirty: Bool = false) {
        self.text = text
        self.cursor = cursor
        self.isEditing = isEditing
        self.isDirty = isDirty
    }
}

/// The status line: key hints, live indicator, import progress, last refresh, a message.
public struct StatusModel: Sendable, Equatable {
    /// Whether the store is being watched for changes from other processes.
    public var isLive: Bool
    public var progress: StatusProgress?
    /// ms since the epoch of the last completed refresh.
    public var lastRefresh: Int64?
    /// A one-shot message, shown until the app clears it.
    public var message: StatusMessage?
    /// The automatic refresh's last outcome and next try (`refresh.plist`); wins over `lastRefresh`.
    public var autoRefresh: StatusRefresh?

    public init(isLive: Bool = false, progress: StatusProgress? = nil, lastRefresh: Int64? = nil,
                message: StatusMessage? = nil) {
        self.isLive = isLive
        self.progress = progress
        self.lastRefresh = lastRefresh
        self.message = message
    }
}

/// Progress of a background import or refresh, as the status line shows it.
public struct StatusProgress: Sendable, Equatable {
    /// 0…1; nil when the total is unknown.
    public var fraction: Double?
    public var label: String

    public init(fraction: Double?, label: String) {
        self.fraction = fraction
        self.label = label
    }
}

/// A one-shot status message.
public struct StatusMessage: Sendable, Equatable {
    public var text: String
    public var isError: Bool

    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}

/// A key and what it does, for the status line: `j/k move`.
public struct KeyHint: Sendable, Equatable {
    public var keys: String
    public var action: String

    public init(_ keys: String, _ action: String) {
        self.keys = keys
        self.action = action
    }
}

extension QuakeRecord {
    /// The agency the detail view names as the source: `USGS` (also for rows imported before
    /// the store kept a source), `EMSC`, `IRIS`, `INGV`, `GEOFON`, or the stored name as is.
    public var sourceName: String {
        switch source ?? "usgs" {
        case "usgs", "emsc", "iris", "ingv", "geofon", "isc": (source ?? "usgs").uppercased()
        case let other: other
        }
    }
}
