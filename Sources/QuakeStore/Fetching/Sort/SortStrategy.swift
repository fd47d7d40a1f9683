/// One sort order's answers to everything the results ask of an order: the `FROM` and
/// `ORDER BY` of its rows and the keyset comparisons that rank a row (and their Swift twins).
/// Each order is one type in its own file (`TimeSort`, `MagnitudeSort`, `RegionSort`,
/// `DepthSort`, `DistanceSort`); `SectionedFetchRequest.strategy` is the one place that
/// chooses among them, so the readers, counters and the controller ask the strategy instead
/// of switching on the order.
///
/// The SQL and the Swift comparisons must agree exactly: the results controller mixes them
/// when it merges changes (`QueryPlanAgreementTests`).
protocol SortStrategy {
    var ascending: Bool { get }

    // MARK: Order

    /// The `FROM` of every row query (`quake`, or for a distance sort the distance table joined to it).
    var from: String { get }
    /// `ORDER BY` of the rows; a total order (ties broken by id), served by an index.
    var orderBy: String { get }
    /// Rows of the same section that sort before (`before`) or at or after a row with `keys`
    /// (and, for a distance sort, its distance `km`), as a range the sort index serves.
    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue])
    /// Swift's twin of `inSection(_:km:before: true)` for two rows of the same section.
    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool
    /// Whether section `a` comes before section `b` (both keys of this order).
    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool

    // MARK: Sections

    /// The section of a row with `keys` (and, for a distance sort, its distance `km`), its days
    /// in `days`' zone.
    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey
    /// The section of a row a window reads off the sort index, with its id and title
    /// (`regionTitle`: the title of the region being read, for a region sort).
    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel
    /// A section that a merge brought, with its id and title (its count, 0, is set from the merge's deltas).
    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection
}

/// A section as a reader labels a row: its key, stable id and title.
typealias SectionLabel = (key: SectionKey, id: String, title: String)

extension SortStrategy {
    var from: String { "quake" }

    /// The keyset comparison operator: before a row (`<`, or `>` reading descending), or at or after it.
    func keysetOperator(descending: Bool, before: Bool) -> String {
        before ? (descending ? ">" : "<") : (descending ? "<=" : ">=")
    }

    /// `(time, id)` in this direction: the order inside a day, an unknown magnitude or depth.
    func precedesByTime(_ a: RowKeys, _ b: RowKeys) -> Bool {
        ascending ? (a.time, a.id) < (b.time, b.id) : (a.time, a.id) > (b.time, b.id)
    }

    /// `(time, id)` as a keyset range (`op` from `keysetOperator`).
    static func timeKeyset(_ keys: RowKeys, _ op: String) -> (String, [SQLiteValue]) {
        ("(time, id) \(op) (?, ?)", [.integer(keys.time), .integer(keys.id)])
    }
}

extension SectionedFetchRequest {
    /// The strategy of this request's order (as given: a distance sort without a reference is
    /// not normalized here, see `normalized`).
    var strategy: any SortStrategy {
        let ascending = sortDescriptor.ascending
        switch sortDescriptor.order {
        case .time: return TimeSort(ascending: ascending)
        case .magnitude: return MagnitudeSort(ascending: ascending)
        case .region: return RegionSort(ascending: ascending)
        case .depth: return DepthSort(ascending: ascending)
        case .distance: return DistanceSort(ascending: ascending, reference: distanceReference)
        }
    }
}
