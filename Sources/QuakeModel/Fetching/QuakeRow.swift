/// One row of the list: what the list shows, nothing more (detail reads `StoredQuake`).
public struct QuakeRow: Hashable, Sendable {
    public let code: String
    public let magnitude: Double?
    public let place: String
    /// ms since the epoch.
    public let time: Int64
    public let depth: Double?
    public let latitude: Double
    public let longitude: Double
    public let hasNotes: Bool
    /// The agency the quake comes from (`usgs`, `emsc`, …; `usgs` for rows stored before it was kept).
    public let source: String
    /// The feed's tsunami flag (1: the event was in an oceanic region large enough to warn).
    public let tsunami: Bool
    /// The PAGER alert level (`green`, `yellow`, `orange`, `red`), as the feed spells it.
    public let alert: String?
    /// The event type (`earthquake`, `quarry blast`, `explosion`, …), as the feed spells it.
    public let type: String?
    /// The magnitude's type (`Mww`, `mb`, `ml`, …), as the feed spells it (issue 53: `5.4 Mww`).
    public let magType: String?
    /// How many agencies reported the event (`quake.agencies`: 1 for one agency's report alone).
    public let agencies: Int

    public init(code: String, magnitude: Double?, place: String, time: Int64, depth: Double?, latitude: Double,
                longitude: Double, hasNotes: Bool, source: String = "usgs", tsunami: Bool = false, alert: String? = nil,
                type: String? = nil, magType: String? = nil, agencies: Int = 1) {
        self.code = code
        self.magnitude = magnitude
        self.place = place
        self.time = time
        self.depth = depth
        self.latitude = latitude
        self.longitude = longitude
        self.hasNotes = hasNotes
        self.source = source
        self.tsunami = tsunami
        self.alert = alert
        self.type = type
        self.magType = magType
        self.agencies = agencies
    }
}

/// What one merge changed, in flat row offsets (see `FetchedResultsController.indexPath(forOffset:)`).
///
/// Apply in this order to the old rows to get the new ones: remove `deleted` and the `from` of
/// `moved` (old offsets, highest first); insert `inserted` and the `to` of `moved` (new offsets,
/// lowest first); then refresh the rows at the `to` of `updated`.
public struct ResultChanges: Sendable, Equatable {
    public struct Move: Sendable, Equatable, Hashable {
        public let from: Int
        public let to: Int

        package init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Too much changed to list (a bulk import or delete, or purged history): refetch what you show.
    public var reloaded = false
    /// Old section indexes that disappeared, and new ones that appeared.
    public var sectionsDeleted: [Int] = []
    public var sectionsInserted: [Int] = []
    public var deleted: [Int] = []
    public var inserted: [Int] = []
    public var moved: [Move] = []
    public var updated: [Move] = []
    /// The codes whose rows changed (for a detail view showing one of them).
    public var codes: Set<String> = []

    public init(reloaded: Bool = false, codes: Set<String> = []) {
        self.reloaded = reloaded
        self.codes = codes
    }

    public var isEmpty: Bool {
        !reloaded && sectionsDeleted.isEmpty && sectionsInserted.isEmpty && deleted.isEmpty && inserted.isEmpty
            && moved.isEmpty && updated.isEmpty
    }
}
