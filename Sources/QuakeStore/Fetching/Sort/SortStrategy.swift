import QuakeModel
import Foundation

/// One sort order's answers to everything the results ask of an order: the `FROM` and
/// `ORDER BY` of its rows and the keyset comparisons that rank a row (and their Swift twins).
/// Each order is one type in its own file (`TimeSort`, `RegionSort`, `DistanceSort`; the
/// magnitude and depth orders are one, `ColumnSort`, over the column's bands: `MagnitudeBands`,
/// `DepthBands`); `SectionedFetchRequest.strategy` is the one place that
/// chooses among them, so the readers, counters and the controller ask the strategy instead
/// of switching on the order.
///
/// The SQL and the Swift comparisons must agree exactly: the results controller mixes them
/// when it merges changes (`QueryPlanAgreementTests`).
protocol SortStrategy {
    var ascending: Bool { get }
    /// Whether the request can be sorted so (a distance sort needs a reference); if not, the
    /// controller sorts by time (`SectionedFetchRequest.normalized`).
    var canRun: Bool { get }
    /// How the request's rows are grouped (`SectionedFetchRequest.sectionIdentifier`).
    func sectionIdentifier(timeZone: TimeZone) -> SectionIdentifier

    // MARK: Order

    /// The `FROM` of every row query (`quake`, or for a distance sort the distance table joined to it).
    var from: String { get }
    /// `ORDER BY` of the rows; a total order (ties broken by id), served by an index.
    var orderBy: String { get }
    /// The schema version from which this order's index leads with the row's block (`IDBlocks`),
    /// its rows read as a merge of one run per block (`orderedRowsQuery`); nil: it leads with the
    /// order's key.
    var blockLedSince: Int? { get }
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

    // MARK: Counts

    /// The `quake_count` kind of the order's section buckets (`SectionCounts.bucketSQL`), for
    /// the scan that fills the match set to count by; nil for the orders whose buckets are not
    /// small integers (region, distance).
    var countingKind: Int? { get }
    /// The sections counted from buckets (see `SectionCounts`), or nil when the buckets cannot
    /// answer exactly (the caller then walks).
    func countedSections(_ db: Connection, days: DayCalendar, source: SectionCounts.Source) throws -> [QuakeSection]?
    /// The sections by walking the sort index with `plan`'s predicate; `countRows` counts the
    /// results' rows in a section.
    func walkedSections(_ db: Connection, plan: QueryPlan, days: DayCalendar,
                        countRows: (SectionKey) throws -> Int) throws -> [QuakeSection]
    /// The table that section counts, ranks and windows step on, with its `WHERE` term.
    func countedRows(_ plan: QueryPlan) -> (from: String, where: (String, [SQLiteValue]))
    /// The `limit` rows of section `key` (`range`) passing `predicate` in `orderBy` after the
    /// first `offset`, with the statement's arguments (the order's `table` may shorten the walk).
    func windowQuery(_ db: Connection, in key: SectionKey, range: (String, [SQLiteValue]), predicate: (String, [SQLiteValue]),
                     orderBy: String, limit: Int, offset: Int, table: SortTable) throws -> (String, [SQLiteValue])

    // MARK: Provisional window

    /// Appends to `result`, until it holds `limit` rows, the rows strictly past `anchor` going
    /// `forward` in display order (from the first without one), read straight off the indexes
    /// with `reader`'s predicate per row (`bounded`: under a time limit).
    func readProvisional(_ db: Connection, reader: ProvisionalReader, from anchor: RowKeys?, forward: Bool,
                         limit: Int, bounded: Bool, into result: inout [ProvisionalReader.Row]) throws
    /// The row of `keys` with its section, if it matches the request.
    func provisionalRow(_ db: Connection, _ keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalReader.Row?

    // MARK: Reading, merging and finding (through a table of its own, or the index)

    /// Whether configuring `plan` (of this order) builds the order's table anew over `table`
    /// (none built, or built for another origin or other matches): a load and a sort of every
    /// candidate row. False for an order without a table.
    func rebuilds(_ table: SortTable, for plan: QueryPlan) -> Bool
    /// Makes `plan`'s rows ready to read, rank and count in the read's transaction at `token`:
    /// nothing for an order served by an index; the distance order catches its kept table up
    /// (through `host`) or builds it (`rebuild`: always), first calling `onBandsCounted` (if
    /// given) with the exact sections counted without it. Under a deadline (`underDeadline`) a
    /// big table is not emptied: it throws "interrupted" at once.
    func prepareRows(_ db: Connection, plan: QueryPlan, table: inout SortTable, token: HistoryToken, rebuild: Bool,
                     underDeadline: Bool, host: some SortHost, onBandsCounted: (([QuakeSection]) -> Void)?) throws
    /// Merges the changed rows (with the keys they had `before`) up to `latest`: listed row by
    /// row by keys, or (the distance order) moved in its table and recounted, a reload.
    func merge(_ db: Connection, before: [String: RowKeys?], table: inout SortTable, through latest: HistoryToken,
               host: some SortHost) throws -> ResultChanges
    /// The next of `codes` from `place` (see `FetchedResultsController.next(among:from:forward:)`):
    /// by keys compared in Swift, or (the distance order, whose rows its table orders) by ranking each.
    func next(among codes: [String], from place: ListPlace, forward: Bool, host: some SortHost) throws -> FoundAmong?
    /// The query of up to `limit` rows passing `where` in `orderBy`, read by keys off the sort
    /// index (a window around a row, a window read on); nil when the order's rows are not read
    /// by keys (a distance sort's window comes by offset through its table).
    func keyedRowsQuery(_ db: Connection, where condition: (String, [SQLiteValue]), orderBy: String,
                        limit: Int) throws -> (String, [SQLiteValue])?
    /// The distance a row with `keys` ranks by (`km`: what the table held for a row that has left it).
    func rankDistance(_ db: Connection, _ keys: RowKeys, km: Double?) throws -> Double?
    /// A row with `keys` in section `key`, as the digest counts the rows before it
    /// (`Connection.digestCountBefore`); nil for an order the digest does not count (`DigestAnchor`).
    func digestAnchor(_ keys: RowKeys, in key: SectionKey) -> DigestAnchor?
    /// How many of the results' rows section `key` holds (before the row `before`, when given:
    /// its keys and the distance it ranks by), from what the order keeps with its `table`
    /// (`SortTable.ranks`); nil: counted by a walk of the order's index.
    func countFromTable(_ db: Connection, in key: SectionKey, before: (keys: RowKeys, km: Double?)?,
                        plan: QueryPlan, table: SortTable) throws -> Int?
}

/// A section as a reader labels a row: its key, stable id and title.
typealias SectionLabel = (key: SectionKey, id: String, title: String)

extension SortStrategy {
    var canRun: Bool { true }
    var from: String { "quake" }

    // The stored orders have no table of their own: their rows are `quake`'s, served by its
    // indexes, read by keys and compared in Swift.
    func rebuilds(_ table: SortTable, for plan: QueryPlan) -> Bool { false }
    func prepareRows(_ db: Connection, plan: QueryPlan, table: inout SortTable, token: HistoryToken, rebuild: Bool,
                     underDeadline: Bool, host: some SortHost, onBandsCounted: (([QuakeSection]) -> Void)?) throws {}
    func merge(_ db: Connection, before: [String: RowKeys?], table: inout SortTable, through latest: HistoryToken,
               host: some SortHost) throws -> ResultChanges {
        try host.mergeListing(db, before: before)
    }
    func next(among codes: [String], from place: ListPlace, forward: Bool, host: some SortHost) throws -> FoundAmong? {
        try host.nextByKeys(among: codes, from: place, forward: forward)
    }
    func keyedRowsQuery(_ db: Connection, where condition: (String, [SQLiteValue]), orderBy: String,
                        limit: Int) throws -> (String, [SQLiteValue])? {
        try orderedRowsQuery(db, select: QuakeRow.columns, where: condition, orderBy: orderBy, tail: (" LIMIT ?", [.integer(Int64(limit))]))
    }
    func rankDistance(_ db: Connection, _ keys: RowKeys, km: Double?) throws -> Double? { km }
    func digestAnchor(_ keys: RowKeys, in key: SectionKey) -> DigestAnchor? { nil }
    func countFromTable(_ db: Connection, in key: SectionKey, before: (keys: RowKeys, km: Double?)?,
                        plan: QueryPlan, table: SortTable) throws -> Int? { nil }

    func countedRows(_ plan: QueryPlan) -> (from: String, where: (String, [SQLiteValue])) { (from, plan.matchedWhere) }

    func windowQuery(_ db: Connection, in key: SectionKey, range: (String, [SQLiteValue]), predicate: (String, [SQLiteValue]),
                     orderBy: String, limit: Int, offset: Int, table: SortTable) throws -> (String, [SQLiteValue]) {
        try orderedRowsQuery(db, select: QuakeRow.columns, where: ("\(range.0) AND \(predicate.0)", range.1 + predicate.1),
                             orderBy: orderBy, tail: (" LIMIT ? OFFSET ?", [.integer(Int64(limit)), .integer(Int64(offset))]))
    }

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
        case .magnitude: return ColumnSort<MagnitudeBands>(ascending: ascending)
        case .region: return RegionSort(ascending: ascending)
        case .depth: return ColumnSort<DepthBands>(ascending: ascending)
        case .distance: return DistanceSort(ascending: ascending, reference: distanceReference)
        case .intensity: return DistanceSort(ascending: ascending, reference: distanceReference, measure: .intensity)
        }
    }
}
