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

    static let columns = """
        code, magnitude, place, time, depth, latitude, longitude, notes IS NOT NULL, coalesce(source, 'usgs'), \
        coalesce(tsunami, 0) != 0, alert, type
        """
    /// How many columns `columns` names (a query reading more after them starts here).
    static let columnCount: Int32 = 12

    init(_ s: Statement) {
        code = s.text(at: 0)
        magnitude = s.optionalDouble(at: 1)
        place = s.text(at: 2)
        time = s.int64(at: 3)
        depth = s.optionalDouble(at: 4)
        latitude = s.double(at: 5)
        longitude = s.double(at: 6)
        hasNotes = s.int64(at: 7) != 0
        source = s.text(at: 8)
        tsunami = s.int64(at: 9) != 0
        alert = s.optionalText(at: 10)
        type = s.optionalText(at: 11)
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
