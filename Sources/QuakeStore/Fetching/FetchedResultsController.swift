import QuakeModel
import Foundation

/// A lazy, live, sectioned result set over the store, like Core Data's
/// `NSFetchedResultsController`.
///
/// It holds the section index (identifier, title, count) and a small window of rows near what
/// is shown — never every row: rows are read on demand with indexed queries per section. It
/// merges the persistent history (any process's commits) into exact changes.
///
/// It orchestrates parts with one job each: `SectionIndex` (the sections, their offsets and
/// how a merge moves them), `RowWindow` (the rows held and how they are read), `QueryPlan`
/// (the request compiled: which rows match, in SQL and in Swift; its `SortStrategy` the order:
/// its SQL, sections, counts and, for a distance sort, its table), `ResultMatches`
/// (the search and filter matches), `SectionCounts` (section indexes from counts per bucket)
/// and `ChangeDiff` (from the changed rows' places to `ResultChanges`). The controller itself
/// holds the request and history token, counts and ranks rows in SQL, and chooses between a
/// reload and a listed merge.
///
/// ```swift
/// let controller = try FetchedResultsController(container: container, request: request)
/// let visible = try controller.rows(in: 0..<40)
/// if let changes = try controller.merge() { … }
/// ```
///
/// Not thread-safe: use it from one thread (the UI's).
public final class FetchedResultsController: SortHost {
    /// Merges listing more changes than this reload instead (cheaper than per-row ranks).
    public static let maxListedChanges = 2_000
    /// A match set under 1/8 of the rows is counted by reading its rows by id (about 1.5 µs a
    /// row); a bigger one by walking the sort index and testing each row (about 0.2 µs a row).
    static let sparseMatchDivisor = 8
    /// The most distance rows a deadline-bound configuration empties (see `configure`), or
    /// loads (`ResultsEngine` answers a bigger build with a provisional window at once).
    static let distanceRowsWithinADeadline = 20_000

    let context: ViewContext
    public private(set) var request: SectionedFetchRequest
    public var sections: [QuakeSection] { index.sections }
    /// Rows in all sections.
    public var count: Int { index.count }
    /// The history token the results reflect.
    public private(set) var token: HistoryToken = .zero
    /// How many rows were read from SQLite so far (the laziness counter tests assert on).
    public var rowsMaterialized: Int { window.rowsMaterialized }
    /// Rows read around a requested range, so scrolling by a line does not query.
    public var windowMargin: Int {
        get { window.margin }
        set { window.margin = newValue }
    }
    /// Whether unfiltered section indexes come from the store's kept counts (tests turn it off
    /// to compare with the walk).
    var usesStoredCounts = true
    /// The smallest section whose rows before a row the digest counts (`countBeforeFromDigest`):
    /// below it the walk of the order's index takes a few milliseconds at most (0: every section
    /// the digest can count, whatever the store's size; tests compare the two).
    var digestCountedSection = 50_000

    /// Set while `merge(withinNanoseconds:)` runs: a row's place that a pass over the digest would
    /// count (in a section of a quarter of the store or more) stops the merge at once, as its
    /// deadline would, rather than spend the budget first.
    private var mergesUnderDeadline = false
    /// Where a listed merge put the rows the window held (`ChangeDiff.places`), for the window
    /// to keep once the merge is done.
    private var placesAfterMerge: [String: Int] = [:]

    private var index = SectionIndex()
    private var window = RowWindow()
    private var days: DayCalendar
    /// The request compiled: every decision about which rows match and their order.
    private var plan: QueryPlan
    /// Keys of rows deleted by the last merge, so `anchor(code:)` can place a vanished selection.
    private var vanishedKeys: [String: RowKeys] = [:]
    /// The order's own table in the file attached to this connection (`fetch_distance`),
    /// kept across configurations; the order that owns it builds, catches up and reads it
    /// (`SortTable`). It moves to another controller with the results that read it (`tradeTables`).
    private var table = SortTable()
    /// Reloads so far: a merge that reloaded keeps the reload's table, not its own copy.
    private var reloads = 0
    /// How many times the order's table was built (for tests).
    var tableBuilds: Int { table.builds }
    /// From how many rows a distance table keeps ranks, and how far apart (`DistanceRanks`; tests).
    var distanceRankSampling: (minimumRows: Int, spacing: Int) {
        get { table.rankSampling }
        set { table.rankSampling = newValue }
    }
    /// Whether the distance table keeps ranks now (tests).
    var keepsDistanceRanks: Bool { table.ranks != nil }
    /// The rows matching the search and filters (see `ResultMatches`).
    private let matchSet = MatchSet()

    /// Opens on `request`, counting its sections, or for the plain list (`isPlain`) starting
    /// from `snapshot` when it fits this store and zone and merging what was committed since.
    public init(container: PersistentContainer, request: SectionedFetchRequest = SectionedFetchRequest(),
                resuming snapshot: SectionSnapshot? = nil) throws {
        context = try container.newViewContext(queryOnly: false)
        let request = request.normalized
        self.request = request
        days = DayCalendar(timeZone: request.timeZone)
        plan = QueryPlan(request)
        do {
            try context.read { db in try matchSet.register(on: db) }
            try prepareTable(for: request)
            // A snapshot that cannot be taken, for whatever reason, is a count like any other.
            if let snapshot, (try? resume(snapshot)) == true { return }
            try reload(rebuildTable: true)
        } catch {
            close()
            throw error
        }
    }

    /// Whether the request is the plain list: every quake, newest first, its sections from the
    /// store's kept counts (what a `SectionSnapshot` holds).
    var isPlain: Bool {
        usesStoredCounts && request == SectionedFetchRequest(timeZone: request.timeZone).normalized
    }

    /// Whether the sections came from a snapshot rather than a count (for tests).
    private(set) var resumedFromSnapshot = false

    /// Takes the plain list's sections from `snapshot` and merges the commits since; false
    /// (nothing changed) when it does not fit, or when the merged total is not the store's.
    private func resume(_ snapshot: SectionSnapshot) throws -> Bool {
        guard isPlain, try context.read({ db in try snapshot.fits(db, days: days) }) else { return false }
        index = SectionIndex(snapshot.sections)
        token = snapshot.token
        let reloaded = try addInsertedRows() ? false : try merge()?.reloaded ?? false
        let stored = try context.read { db in try db.keptQuakeCount() }
        guard stored == count else { return false }
        resumedFromSnapshot = !reloaded
        return true
    }

    /// The most rows inserted since a snapshot that a launch counts by grouping them
    /// (`addInsertedRows`): 100,000 take about as long as reading the 166,669 buckets of
    /// 5,000,000 quakes over five years.
    static let maxGroupedArrivals = 100_000

    /// Adds the rows committed since `token` to the plain list's day sections when the commits
    /// only inserted, more rows than a merge lists and at most `maxGroupedArrivals` (an import
    /// of a month, a `fetch`): one `GROUP BY` over the newest ids instead of reading every kept
    /// bucket. False, with nothing changed, otherwise.
    private func addInsertedRows() throws -> Bool {
        try context.read { db in
            guard let inserted = try db.rowsOnlyInserted(after: token),
                  inserted > Self.maxListedChanges, inserted <= Self.maxGroupedArrivals else { return false }
            let newest = "id >= (SELECT id FROM quake ORDER BY id DESC LIMIT 1 OFFSET ?)"
            guard let added = try plan.strategy.countedSections(db, days: days, source: .matching(newest, [.integer(Int64(inserted - 1))])),
                  let sections = Self.addingDays(added, to: index.sections) else { return false }
            setSections(sections)
            token = try db.currentHistoryToken()
            window.invalidate()
            return true
        }
    }

    /// The plain list's day sections with `added`'s counts added, newest first: a day in both
    /// gains the added count, a new day goes in its place. nil if a section is not a day.
    private static func addingDays(_ added: [QuakeSection], to sections: [QuakeSection]) -> [QuakeSection]? {
        var byStart: [Int64: QuakeSection] = [:]
        for section in sections + added {
            guard case .day(let start, _) = section.key else { return nil }
            if byStart[start] != nil { byStart[start]!.count += section.count } else { byStart[start] = section }
        }
        return byStart.keys.sorted(by: >).map { byStart[$0]! }
    }

    /// The plain list's sections as a snapshot to keep; nil for any other request, or when the
    /// history no longer holds the commit they reflect.
    public func snapshot() throws -> SectionSnapshot? {
        guard isPlain, !index.sections.isEmpty else { return nil }
        guard let commit = try context.read({ db in try SectionSnapshot.commit(db, token: token) }) else { return nil }
        let zone = days.calendar.timeZone
        return SectionSnapshot(timeZone: zone.identifier, rules: SectionSnapshot.rulesFingerprint(zone), token: token,
                               committedAt: commit.time, origin: commit.origin, sections: index.sections)
    }

    /// Closes the connection and deletes the table file it holds.
    public func close() {
        context.close()
        table.file?.remove()
    }

    /// Applies a new predicate, sort and section identifier together and refetches the section index.
    ///
    /// A `distance` sort without a `distanceReference` is applied as a `time` sort (`request`
    /// then reads back as `time`).
    /// - Throws: what SQLite reported; the controller then keeps its previous request and sections
    ///   (the read's transaction rolls the match set back).
    public func configure(_ request: SectionedFetchRequest) throws {
        _ = try configure(request, anchoring: nil, withinNanoseconds: nil)
    }

    /// Applies a new request and places a selection anchored on `code` (see `anchor(code:)`),
    /// in one read transaction, all or nothing; returns the anchor's offset.
    ///
    /// - Parameter withinNanoseconds: stop and throw (`SQLiteError.isInterrupted`) past this
    ///   long, leaving the controller on its previous request (the provisional path of
    ///   `ResultsEngine` then answers); nil: no limit.
    /// - Parameter isCancelled: asked every 1,000 SQLite steps; true stops the read as a deadline
    ///   does (`Connection.withCancellation`: unlike `interrupt`, never lost between statements).
    /// - Parameter onBandsCounted: for a distance sort that builds its table, called with the
    ///   exact sections (counted in one pass, in the same read) before the table is built, so
    ///   that a provisional window can show them before the rows' order is known (0.18 s
    ///   against 0.9 s at 1,000,000 quakes).
    public func configure(_ request: SectionedFetchRequest, anchoring code: String?,
                          withinNanoseconds limit: UInt64?, isCancelled: (() -> Bool)? = nil,
                          onBandsCounted: (([QuakeSection]) -> Void)? = nil) throws -> Int? {
        let request = request.normalized
        let newPlan = QueryPlan(request)
        let matchesChanged = newPlan.matchesDiffer(from: plan)
        try prepareTable(for: request)
        return try context.withDeadline(nanoseconds: limit) { try keepingStateOnFailure {
            self.request = request
            if request.timeZone != days.calendar.timeZone { days = DayCalendar(timeZone: request.timeZone) }
            plan = newPlan
            window.invalidate()
            return try context.read { db -> Int? in
                func reloadAndAnchor() throws -> Int? {
                    // A distance table left behind stays (`table`): emptying a million rows cost
                    // the key that left the sort 0.2 s (one SQLite step, which no deadline can
                    // stop), it lives in its file, not in memory, and the sort may come back.
                    try reload(in: db, rebuildMatches: matchesChanged, underDeadline: limit != nil,
                               onBandsCounted: onBandsCounted)
                    guard let code else { return nil }
                    return try anchor(in: db, code: code)
                }
                // A deadline's progress handler stays theirs: only a count with a cancellation check replaces it.
                guard let isCancelled else { return try reloadAndAnchor() }
                return try db.withCancellation(isCancelled, reloadAndAnchor)
            }
        } }
    }

    /// Whether configuring `request` would build the distance table anew: a distance sort
    /// other than the one this controller holds (another order before it, another origin,
    /// other matches). Such a configuration loads and sorts every candidate row.
    public func rebuildsDistances(for request: SectionedFetchRequest) -> Bool {
        let plan = QueryPlan(request.normalized)
        return plan.strategy.rebuilds(table, for: plan)
    }

    /// Attaches a table file when `request`'s order reads one and this controller holds none: the
    /// first distance or intensity sort, not every controller opened (outside the read, where
    /// SQLite attaches). A connection that cannot write (a read-only store) keeps its table as a
    /// temporary table.
    private func prepareTable(for request: SectionedFetchRequest) throws {
        guard table.file == nil, Self.readsTable(request) else { return }
        let file = context.outsideTransaction { db in db.isReadOnly } ? SortTableFile.temporary : SortTableFile()
        try context.outsideTransaction { db in try file.attach(db) }
        table.file = file
    }

    /// Whether `request`'s order reads a table of its own (a distance sort's), which moves with
    /// the results (`tradeTables(with:)`).
    public static func readsTable(_ request: SectionedFetchRequest) -> Bool {
        let plan = QueryPlan(request.normalized)
        return plan.strategy.rebuilds(SortTable(), for: plan)
    }

    /// The file this controller's table lives in (nil: it never sorted by distance, or its table
    /// is a temporary table; tests).
    var tablePath: String? { table.file?.path }

    /// The history the table this controller holds has seen (nil: none built).
    public var tableToken: HistoryToken? { table.built?.token }

    /// Whether the results read a table this controller does not hold (lent to a count:
    /// `tradeTables(with:)`): until it comes back they are neither read nor merged.
    public var lacksItsTable: Bool { plan.strategy.rebuilds(table, for: plan) }

    /// Whether configuring `request` builds a distance table too big to fit a deadline: the
    /// store holds more rows (the most a table can load) than `distanceRowsWithinADeadline`.
    public func rebuildsLargeDistanceTable(for request: SectionedFetchRequest) throws -> Bool {
        guard rebuildsDistances(for: request) else { return false }
        let rows = try context.read { db in
            try db.keptQuakeCount()
        }
        return rows > Self.distanceRowsWithinADeadline
    }

    // MARK: Handing results over

    /// Results a controller counted, as a value another controller takes in (`adopt(_:)`): what
    /// the results engine's background count answers with (`ResultsEngine.CountAnswer`).
    public struct Counted: @unchecked Sendable {
        // @unchecked: made by the count on its queue and handed over whole; nothing in it is
        // shared with the controller that made it (the match set is a copy).
        fileprivate let request: SectionedFetchRequest
        fileprivate let days: DayCalendar
        fileprivate let plan: QueryPlan
        fileprivate let index: SectionIndex
        fileprivate let token: HistoryToken
        fileprivate let vanishedKeys: [String: RowKeys]
        fileprivate let matches: MatchSet?
        /// The rows the count read around its anchor, which the screen shows next.
        fileprivate let rows: (start: Int, rows: [QuakeRow])?
    }

    /// The results as they stand, for another controller to `adopt(_:)` (the match set copied
    /// when the plan reads one).
    public func counted() throws -> Counted {
        var matches: MatchSet?
        if plan.usesMatchSet {
            let copy = MatchSet()
            try copy.assign(matchSet)
            matches = copy
        }
        return Counted(request: request, days: days, plan: plan, index: index, token: token, vanishedKeys: vanishedKeys,
                       matches: matches, rows: window.cache)
    }

    /// Takes in results another controller counted (`counted()`): this one then reads rows,
    /// ranks and merges as that one would. An order with its own table reads the one this
    /// controller holds: trade tables first when the other holds it (`tradeTables(with:)`).
    public func adopt(_ counted: Counted) throws {
        if let matches = counted.matches { try matchSet.assign(matches) }
        (request, days, plan, index, token, vanishedKeys) =
            (counted.request, counted.days, counted.plan, counted.index, counted.token, counted.vanishedKeys)
        reloads &+= 1
        window.hold(counted.rows)
    }

    /// Trades table files with `other`, each attaching the other's: the table moves to the
    /// controller whose results read it. Call with both idle (no read running on either).
    /// False, with nothing changed, when either table lives where it cannot move (`SortTableFile.path`).
    /// A controller that holds none (it never sorted by distance) takes the other's and gives none.
    @discardableResult
    public func tradeTables(with other: FetchedResultsController) throws -> Bool {
        let (mine, theirs) = (table.file, other.table.file)
        guard mine?.path != nil || mine == nil, theirs?.path != nil || theirs == nil else { return false }
        try context.outsideTransaction { db in try mine?.detach(db) }
        do {
            try other.context.outsideTransaction { db in try theirs?.detach(db) }
        } catch {
            try? context.outsideTransaction { db in try mine?.attach(db) }
            throw error
        }
        swap(&table, &other.table)
        window.invalidate()
        other.window.invalidate()
        try context.outsideTransaction { db in try theirs?.attach(db) }
        try other.context.outsideTransaction { db in try mine?.attach(db) }
        return true
    }

    /// Stops the `configure` or read running on another thread (a superseded request): it
    /// throws `SQLiteError.isInterrupted` and the controller keeps its previous state.
    public func interrupt() { context.interrupt() }

    /// Runs `body`; if it throws, puts the request, section index, token, match set and the rows
    /// held back as they were (a merge over its budget leaves the selection placed without a
    /// count). (The distance table needs no care: it changes only inside a read, whose
    /// transaction rolls back.)
    private func keepingStateOnFailure<T>(_ body: () throws -> T) throws -> T {
        let saved = (request: request, days: days, plan: plan, index: index, token: token, vanished: vanishedKeys)
        let savedTable = table
        let savedWindow = window
        // Only a set in use is worth keeping: a request without one rebuilds it before using it.
        let savedMatches = plan.usesMatchSet ? MatchSet() : nil
        try savedMatches?.assign(matchSet)
        do {
            return try body()
        } catch {
            if let savedMatches { try? matchSet.assign(savedMatches) }  // cannot fail: the set only grows, so its earlier copy fits
            table.restore(savedTable)
            (request, days, plan, index, token, vanishedKeys) = (saved.request, saved.days, saved.plan, saved.index, saved.token, saved.vanished)
            window.restore(savedWindow)
            throw error
        }
    }

    // MARK: Reading

    /// The rows at flat offsets `range` (clamped to `count`).
    ///
    /// Rows are values; the controller keeps only a window of them.
    public func rows(in range: Range<Int>) throws -> [QuakeRow] {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return [] }
        if let rows = window.cached(range) { return rows }
        return try context.read { db in try window.read(db, range, index: index, plan: plan, table: table) }
    }

    /// The section and row within it of a flat offset.
    public func indexPath(forOffset offset: Int) -> (section: Int, row: Int) { index.indexPath(forOffset: offset) }

    /// The flat offset of the first row of a section.
    public func offset(ofSection section: Int) -> Int { index.offset(ofSection: section) }

    /// The flat offset of the quake with `code`, or nil when it is not in the results.
    public func offset(ofCode code: String) throws -> Int? {
        try context.read { db in
            guard let keys = try rowKeys(db, code: code), try isMatch(db, keys) else { return nil }
            return try locate(db, keys, code: code)
        }
    }

    /// `next(among:from:forward:)` by locating each quake (`offset(ofCode:)`): how the distance
    /// order finds the next (its rows are ordered by its table, not by keys Swift compares).
    public func locatingEach(_ codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong? {
        FoundAmong.among(offsets: try codes.compactMap { try offset(ofCode: $0) }, from: place, forward: forward)
    }

    /// `n` / `N`: the next of `codes` from `place`, found as the order says
    /// (`SortStrategy.next(among:from:forward:host:)`).
    public func next(among codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong? {
        try plan.strategy.next(among: codes, from: place, forward: forward, host: self)
    }

    /// `next(among:from:forward:)` without ranking every quake: their keys read by code, sorted
    /// in Swift in the list's order, and only the one found ranked (ranking each cost a count per
    /// quake: seconds for a few thousand new quakes in a large section).
    func nextByKeys(among codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong? {
        try context.read { db in
            var keys: [RowKeys] = []
            for code in codes {
                if let found = try rowKeys(db, code: code), try isMatch(db, found) { keys.append(found) }
            }
            let plan = plan
            let section = { (keys: RowKeys) in self.sectionKey(of: keys) }
            let precedes = { (a: RowKeys, b: RowKeys) -> Bool in
                let (first, second) = (section(a), section(b))
                return first == second ? plan.precedesInSection(a, b) : plan.sectionPrecedes(first, second)
            }
            keys.sort(by: precedes)
            var before: (RowKeys) -> Bool = { _ in false }
            var after: (RowKeys) -> Bool = { _ in true }
            switch place {
            case .row(_, let code):
                if let here = try rowKeys(db, code: code) {
                    before = { precedes($0, here) }
                    after = { precedes(here, $0) }
                }
            case .header(let index, _):
                let header = self.index.sections[index].key
                before = { plan.sectionPrecedes(section($0), header) }
                after = { !plan.sectionPrecedes(section($0), header) }
            case .top: break
            }
            guard let found = FoundAmong.pick(keys, forward: forward, before: before, after: after) else { return nil }
            return FoundAmong(offset: try rank(db, keys[found]), position: found + 1, count: keys.count)
        }
    }

    /// The code of the event row `code` names (`Connection.eventCode(naming:)`), on this
    /// controller's connection.
    public func eventCode(naming code: String) throws -> String? {
        try context.read { db in try db.eventCode(naming: code) }
    }

    /// One quake with everything stored about it (for a detail view), read on this controller's connection.
    public func quake(code: String) throws -> StoredQuake? {
        try context.read { db in
            guard var quake = try db.quake(code: code) else { return nil }
            let reports = try db.reports(ofEvent: code)
            if reports.count > 1 { quake.reports = reports }
            quake.revisions = try db.revisions(ofReports: reports.isEmpty ? [quake.record.code] : reports.map(\.code))
            return quake
        }
    }

    /// The values of `values` stored quakes have (`Connection.storedValues`).
    public func storedValues(_ values: StoredValues) throws -> [String] {
        try context.read { try $0.storedValues(values) }
    }

    /// Where a selection anchored on `code` lands: its own offset if it still matches, else its
    /// nearest neighbour (the row that now stands where it would sort), else nil for no rows.
    public func anchor(code: String) throws -> Int? {
        try context.read { db in try anchor(in: db, code: code) }
    }

    /// `anchor(code:)` in the caller's read of `db`.
    private func anchor(in db: Connection, code: String) throws -> Int? {
        guard count > 0, let keys = try rowKeys(db, code: code) ?? vanishedKeys[code] else { return nil }
        return min(try locate(db, keys, code: code, km: table.vanished[keys.id]), count - 1)
    }

    /// The flat offset of the row `code` with `keys`, with the rows around it in the window: where
    /// the window holds it, or the last merge placed it (`ChangeDiff.places`), else by `rank` (in
    /// a magnitude or depth band of millions of rows a long walk or a pass over the digest, and
    /// the selection is placed again after every merge and settle).
    private func locate(_ db: Connection, _ keys: RowKeys, code: String, km: Double? = nil) throws -> Int {
        if let held = window.heldOffset(ofCode: code) { return held }
        let offset = try window.placedOffset(ofCode: code) ?? rank(db, keys, km: km)
        // The rows around it, read by keys (a distance sort's window comes by offset instead:
        // `SortStrategy.keyedRowsQuery`).
        try loadRows(db, around: keys, at: offset)
        return offset
    }

    /// Reads the rows around the place of a row with `keys` (flat offset `offset`) into the
    /// window (see `RowWindow.readAround`).
    private func loadRows(_ db: Connection, around keys: RowKeys, at offset: Int) throws {
        try window.readAround(db, keys: keys, in: sectionKey(of: keys), at: offset, index: index, plan: plan)
    }

    // MARK: Merging

    /// Merges what was committed since `token`, by any process, and reports it; nil when nothing
    /// changed the results.
    ///
    /// - Throws: what SQLite reported; the controller then keeps its sections and token, so the
    ///   next merge retries the same changes.
    public func merge() throws -> ResultChanges? {
        placesAfterMerge = [:]
        let changes = try keepingStateOnFailure { try context.read { db -> ResultChanges? in
            // Past the limit the changes are not even decoded: the reload reads what it needs.
            let fetch = try db.history(after: token, listingAtMost: Self.maxListedChanges)
            guard case .transactions(let transactions, let latest) = fetch else {
                try reload(in: db, rebuildMatches: true, rebuildTable: true)
                return ResultChanges(reloaded: true)
            }
            guard !transactions.isEmpty else {
                token = latest
                return nil
            }
            guard let before = Self.keysBefore(transactions) else {
                try reload(in: db, rebuildMatches: true, rebuildTable: true)
                return ResultChanges(reloaded: true, codes: Set(transactions.flatMap { $0.changes.map(\.code) }))
            }
            // The order merges into a copy of the table: the host it is lent may reload, which
            // prepares `table` itself (two writes to one property at once). A reload's table wins.
            var merged = table
            let reloadsBefore = reloads
            let result = try plan.strategy.merge(db, before: before, table: &merged, through: latest, host: self)
            if reloads == reloadsBefore { table = merged }
            token = latest
            return result
        } }
        if changes != nil { window.invalidate(keeping: placesAfterMerge) }
        return changes
    }

    /// `merge()` within `limit` nanoseconds (nil: no limit); past it, or where a row's place would
    /// be counted in a pass over the digest (at 5,000,000 quakes ~0.1 s: a depth band holding half
    /// the store), it throws `SQLiteError.isInterrupted` and the controller keeps its sections and
    /// token, as a failed merge does.
    public func merge(withinNanoseconds limit: UInt64?) throws -> ResultChanges? {
        guard let limit else { return try merge() }
        mergesUnderDeadline = true
        defer { mergesUnderDeadline = false }
        return try context.withDeadline(nanoseconds: limit) { try merge() }
    }

    /// What merging the commits since `token` would take.
    public enum PendingMerge: Sendable, Equatable {
        /// Nothing was committed since.
        case none
        /// The changes are listed: `merge()` moves each row it changed.
        case byChanges
        /// The history cannot list them (more than `maxListedChanges`, purged, a bulk write, a
        /// change without its previous keys): `merge()` would reload, reading every row.
        case reload
    }

    /// What `merge()` would do now, without doing it (the same history read it makes).
    public func pendingMerge() throws -> PendingMerge {
        try context.read { db -> PendingMerge in
            guard case .transactions(let transactions, _) = try db.history(after: token, listingAtMost: Self.maxListedChanges) else {
                return .reload
            }
            if transactions.isEmpty { return .none }
            return Self.keysBefore(transactions) == nil ? .reload : .byChanges
        }
    }

    /// The keys each changed code had before the first of `transactions` touched it (nil: it
    /// was inserted); nil when a change is not listed or lacks its previous keys, whose old
    /// place is then unknown: reload rather than guess.
    private static func keysBefore(_ transactions: [HistoryTransaction]) -> [String: RowKeys?]? {
        guard transactions.allSatisfy(\.isListed),
              !transactions.contains(where: { $0.changes.contains { $0.kind != .insert && $0.old == nil } }) else { return nil }
        var before: [String: RowKeys?] = [:]
        for change in transactions.flatMap(\.changes) where before[change.code] == nil {
            before[change.code] = change.kind == .insert ? .some(nil) : .some(change.old)
        }
        return before
    }

    // MARK: Fetching

    private func reload(rebuildMatches: Bool = true, rebuildTable: Bool = false) throws {
        try context.read { db in try reload(in: db, rebuildMatches: rebuildMatches, rebuildTable: rebuildTable) }
        window.invalidate()
    }

    /// `reload(rebuildMatches:rebuildTable:)` in the caller's read of `db`, calling `onBandsCounted`
    /// as `configure` says. The order makes its rows ready (`SortStrategy.prepareRows`: the
    /// distance order builds its table when `rebuildTable` says so or the kept one cannot be
    /// caught up; under a deadline, a big one is not: it throws "interrupted").
    private func reload(in db: Connection, rebuildMatches: Bool, rebuildTable: Bool = false, underDeadline: Bool = false,
                        onBandsCounted: (([QuakeSection]) -> Void)? = nil) throws {
        reloads &+= 1
        let previous = token
        token = try db.currentHistoryToken()
        // A match set kept for the same search and filters catches up with the commits not merged
        // yet (a key between a commit and its merge), or its rows would miss them for good.
        let caughtUpMatches = try !rebuildMatches && (!plan.usesMatchSet || previous == token || catchUpMatches(db, since: previous))
        let counted = caughtUpMatches ? false : try matches.rebuild(db, countingKind: usesStoredCounts ? plan.strategy.countingKind : nil)
        try plan.strategy.prepareRows(db, plan: plan, table: &table, token: token, rebuild: rebuildTable,
                                      underDeadline: underDeadline, host: self, onBandsCounted: onBandsCounted)
        setSections(try buildSections(db, countedByMatches: counted))
        matchSet.forgetBucketCounts()
        window.invalidate()
    }

    private func setSections(_ new: [QuakeSection]) { index = SectionIndex(new) }

    /// Whether a row with `keys` is a candidate of the results: in the match set, when there
    /// is one (call with the set up to date).
    func isCandidate(_ keys: RowKeys) -> Bool { !plan.usesMatchSet || matches.contains(id: keys.id) }

    /// The rows committed after `since` up to `token`, each as it was before the first of those
    /// commits and as it is now; nil when the history cannot list them (too many changes, purged,
    /// a change without its previous keys).
    func rowsChanged(_ db: Connection, since: HistoryToken) throws -> [(old: RowKeys?, new: RowKeys?)]? {
        guard case .transactions(let transactions, _) = try db.history(after: since, listingAtMost: Self.maxListedChanges),
              let before = Self.keysBefore(transactions) else { return nil }
        return try before.map { code, old in (old, try rowKeys(db, code: code)) }
    }

    /// Moves the rows committed since `previous` in the match set, as a merge moves them; false
    /// when it cannot (`rowsChanged`): rebuild it.
    private func catchUpMatches(_ db: Connection, since previous: HistoryToken) throws -> Bool {
        guard let changed = try rowsChanged(db, since: previous) else { return false }
        for row in changed { try matches.update(db, oldID: row.old?.id, new: row.new) }
        return true
    }

    /// - Parameter countedByMatches: the match set's rebuild counted its rows per section bucket.
    private func buildSections(_ db: Connection, countedByMatches: Bool = false) throws -> [QuakeSection] {
        guard usesStoredCounts else { return try walkSections(db) }
        // Unfiltered: the counts the store keeps answer without walking the rows.
        if plan.minimumMagnitude == nil, !plan.usesMatchSet,
           let stored = try plan.strategy.countedSections(db, days: days, source: .kept) {
            return stored
        }
        // Searched or filtered by a scan of the table: the scan counted the sections too.
        if countedByMatches, plan.usesMatchSet, matchSet.hasBucketCounts,
           let counted = try plan.strategy.countedSections(db, days: days, source: .counted(matchSet)) {
            return counted
        }
        // Filtered to a small part of the rows: group the matching rows (read by their ids, or
        // through the magnitude index) rather than walk every row of the sort index testing each.
        if plan.usesMatchSet {
            let rows = try db.keptQuakeCount()
            if matchSet.count * Self.sparseMatchDivisor < rows,
               let grouped = try plan.strategy.countedSections(db, days: days, source: .matchSet(matchSet, plan.magnitudeTerm)) {
                return grouped
            }
        } else if let (term, arguments) = plan.indexedMagnitudeTerm {
            // A broad minimum magnitude: one pass over the digest counts it, where the magnitude
            // index would fetch a third of the table row by row (M ≥ 2.5 at 1M quakes: 0.3–0.4 s
            // by the index, ~20 ms by the digest). A selective one is grouped through the index.
            if try !Self.isSelective(db, minimum: plan.minimumMagnitude), let kind = plan.strategy.countingKind,
               let scan = try SearchDigest.countedBuckets(db, plan: plan, countingKind: kind),
               let counted = try plan.strategy.countedSections(db, days: days, source: .counted(scan)) {
                return counted
            }
            if let grouped = try plan.strategy.countedSections(db, days: days, source: .matching(term, arguments)) {
                return grouped
            }
        }
        return try walkSections(db)
    }

    /// Whether at most a sixteenth of the store passes `minimum`, as the store's kept magnitude
    /// counts bound it from above (whole-magnitude buckets from the one `minimum` falls in): such
    /// a minimum is read through the magnitude index, a broader one by a pass over every row.
    private static func isSelective(_ db: Connection, minimum: Double?) throws(SQLiteError) -> Bool {
        guard let minimum else { return false }
        let total = try db.keptQuakeCount()
        let bucket = Int64(SectionKey.bucket(of: minimum) ?? -1)
        let atMost = try db.scalar("SELECT coalesce(sum(count), 0) FROM quake_count WHERE kind = 1 AND bucket >= ?",
                                   [.integer(bucket)]).int64 ?? 0
        return atMost * 16 <= Int64(total)
    }

    /// The section index as the walk finds it, on this controller's connection (for tests that
    /// compare it with the counted one).
    func walkedSections() throws -> [QuakeSection] { try context.read { try walkSections($0) } }

    /// The section index by walking the sort index: a seek per section and a count over its range
    /// (on `table`, a merge's copy of the order's table, when given).
    private func walkSections(_ db: Connection, table: SortTable? = nil) throws -> [QuakeSection] {
        try plan.strategy.walkedSections(db, plan: plan, days: days) { key in try countRows(db, in: key, table: table) }
    }

    private func countRows(_ db: Connection, in key: SectionKey, before keys: RowKeys? = nil, km: Double? = nil,
                           table: SortTable? = nil) throws -> Int {
        if let counted = try plan.strategy.countFromTable(db, in: key, before: keys.map { ($0, km) }, plan: plan, table: table ?? self.table) {
            return counted
        }
        let (range, rangeArgs) = key.rangeSQL
        let (from, (predicate, predicateArgs)) = plan.strategy.countedRows(plan)
        var where_ = "\(range) AND \(predicate)" + (plan.strategy.countingTerm.map { " AND \($0)" } ?? "")
        var args = rangeArgs + predicateArgs
        if let keys {
            if let before = try countBeforeFromDigest(db, in: key, before: keys) { return before }
            let (before, beforeArgs) = plan.beforeInSection(keys, km: km)
            where_ += " AND \(before)"
            args += beforeArgs
        }
        return Int(try db.cachedScalar("SELECT count(*) FROM \(from) WHERE \(where_)", args).int64 ?? 0)
    }

    /// `countRows(in:before:)` from the digest, in one pass of every stored row's keys, for a
    /// section so large that the walk of the order's index to the row could cost more (a
    /// quarter of the store or more: at 5,000,000 quakes the walk through a depth band took up to
    /// 0.6 s, the pass ~90 ms wherever the row is); nil: the walk counts.
    private func countBeforeFromDigest(_ db: Connection, in key: SectionKey, before keys: RowKeys) throws -> Int? {
        guard let rows = index.range(of: key)?.count, rows >= digestCountedSection,
              let anchor = plan.strategy.digestAnchor(keys, in: key),
              try digestCountedSection == 0 || rows * 4 >= db.keptQuakeCount() else { return nil }
        if mergesUnderDeadline { throw SQLiteError(extendedCode: SQLiteError.interrupted, message: "interrupted") }
        return try db.digestCountBefore(plan, anchor: anchor)
    }

    /// The match set of the current request.
    private var matches: ResultMatches { ResultMatches(plan: plan, set: matchSet) }

    /// Whether a row with `keys` is in the results: its keys pass the predicate and, with a
    /// search or filters, its id is in the match set (as it stands: call before updating it
    /// for the old version of a row, after for the new one).
    private func isMatch(_ db: Connection, _ keys: RowKeys) throws -> Bool {
        guard plan.matches(keys) else { return false }
        return !plan.usesMatchSet || matches.contains(id: keys.id)
    }

    private func rowKeys(_ db: Connection, code: String) throws -> RowKeys? {
        let statement = try db.cachedStatement("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
        defer { statement.reset() }  // not left running: a table may be dropped in the same read
        try statement.bind(code, at: 1)
        return try statement.step() ? RowKeys(statement) : nil
    }

    /// The section of a row with `keys` (and, for a distance sort, distance `km`).
    func sectionKey(of keys: RowKeys, km: Double? = nil) -> SectionKey {
        plan.strategy.sectionKey(of: keys, km: km, days: days)
    }

    /// Where a row with `keys` sorts among the current results: the number of matching rows
    /// before it. A distance sort reads the row's distance from the table (or takes `km`, for
    /// a row that has left it).
    private func rank(_ db: Connection, _ keys: RowKeys, km: Double? = nil) throws -> Int {
        let km = try plan.strategy.rankDistance(db, keys, km: km)
        let key = sectionKey(of: keys, km: km)
        return index.start(of: key, precedes: plan.sectionPrecedes) + (try countRows(db, in: key, before: keys, km: km))
    }

    /// The ranks of the rows a merge leaves matched, a section's rows together: the first in
    /// display order by one count, the others by one walk of the section's ids on from it. A
    /// count each re-read the section from its start for every row: a 300-quake refresh ranked
    /// in 300 counts, 6 ms of the browser's main thread at 200k, and up to 2,000 rows are merged.
    private func ranks(_ db: Connection, of rows: [String: RowKeys]) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for (key, members) in Dictionary(grouping: rows, by: { sectionKey(of: $0.value) }) {
            let sorted = members.sorted { plan.precedesInSection($0.value, $1.value) }
            let first = try rank(db, sorted[0].value)
            result[sorted[0].key] = first
            guard sorted.count > 1 else { continue }
            let statement = try walk(db, key, from: sorted[0].value, keys: false)
            defer { statement.reset() }
            var next = 1, offset = 0
            while next < sorted.count, try statement.step() {
                if statement.value(at: 0).int64 == sorted[next].value.id {
                    result[sorted[next].key] = first + offset
                    next += 1
                }
                offset += 1
            }
            // Rows the walk did not meet (none, unless the rows changed under the read): a count each.
            for (code, keys) in sorted[next...] { result[code] = try rank(db, keys) }
        }
        return result
    }

    /// The matching rows of section `key` from the row with `keys` on, in order, as a bound
    /// statement to step: their ids, or with `keys` their `RowKeys.columns`.
    private func walk(_ db: Connection, _ key: SectionKey, from start: RowKeys, keys: Bool) throws -> Statement {
        let (predicate, predicateArgs) = plan.strategy.countedRows(plan).where
        let (onward, onwardArgs) = plan.inSection(key, from: start, onward: true)
        let condition = ("\(onward) AND \(predicate)", onwardArgs + predicateArgs)
        let (sql, arguments) = keys
            ? try plan.strategy.orderedRowsQuery(db, select: RowKeys.columns, where: condition, orderBy: plan.orderBy, tail: ("", []))
            : try plan.strategy.orderedIDsQuery(db, where: condition, orderBy: plan.orderBy)
        let statement = try db.cachedStatement(sql)
        try statement.bind(arguments)
        return statement
    }

    /// A merge under an order with its own table (a distance sort, `SortStrategy.merge`): the
    /// match set follows each changed row, which `move` then moves in the table; the sections
    /// are recounted and the merge reports a reload.
    func mergeReloading(_ db: Connection, before: [String: RowKeys?], table: inout SortTable,
                        move: (_ old: RowKeys?, _ new: RowKeys?, _ isCandidate: Bool, _ table: inout SortTable) throws -> Void) throws -> ResultChanges {
        vanishedKeys = [:]
        for (code, old) in before {
            let new = try rowKeys(db, code: code)
            if plan.usesMatchSet { try matches.update(db, oldID: old?.id, new: new) }
            if let old, new == nil { vanishedKeys[code] = old }
            try move(old, new, new.map(isCandidate) ?? false, &table)
        }
        setSections(try walkSections(db, table: table))
        return ResultChanges(reloaded: true, codes: Set(before.keys))
    }

    // MARK: Merging changes

    /// Turns the changed codes (with the keys they had before) into section and row changes,
    /// and moves the controller to the new state (an order whose rows Swift compares,
    /// `SortStrategy.merge`). Runs inside the merge's read transaction.
    func mergeListing(_ db: Connection, before: [String: RowKeys?]) throws -> ResultChanges {
        var after: [String: RowKeys] = [:]
        for code in before.keys { if let keys = try rowKeys(db, code: code) { after[code] = keys } }
        // Membership before the change decides where a row was: read it before updating the set.
        var oldMatched: [String: RowKeys] = [:]
        for (code, old) in before { if let old, try isMatch(db, old) { oldMatched[code] = old } }
        // A row that matched lies in a section of the index. One that does not means the index is
        // out of step with the rows (a launch's snapshot of a store written around its history):
        // reload rather than guess.
        guard oldMatched.values.allSatisfy({ index.index(of: sectionKey(of: $0)) != nil }) else {
            try reload(in: db, rebuildMatches: true, rebuildTable: true)
            return ResultChanges(reloaded: true, codes: Set(before.keys))
        }
        if plan.usesMatchSet {
            for (code, old) in before { try matches.update(db, oldID: old?.id, new: after[code]) }
        }
        var newMatched: [String: RowKeys] = [:]
        for (code, new) in after { if try isMatch(db, new) { newMatched[code] = new } }
        vanishedKeys = before.compactMapValues { $0 }.filter { after[$0.key] == nil }
        let diff = ChangeDiff(codes: Set(before.keys), oldMatched: oldMatched, newMatched: newMatched)

        // Old positions (before the sections change).
        let old = index
        var oldRank: [String: Int] = [:]
        let places = diff.oldPlaces(sectionOf: { sectionKey(of: $0) }, precedes: plan.precedesInSection)
        let nowBefore = try rowsNowBefore(db, oldMatched)
        for (code, keys) in oldMatched {
            let key = sectionKey(of: keys)
            let within = places.place(of: keys, in: key, nowBefore: nowBefore[code]!)
            oldRank[code] = old.offset(ofSection: old.index(of: key)!) + within
        }

        // New sections: counts moved by the changed rows, the sections they entered added.
        var added: [QuakeSection] = []
        for key in diff.newSectionKeys(sectionOf: { sectionKey(of: $0) }) where old.index(of: key) == nil {
            added.append(try newSection(db, key))
        }
        // A section's title may be one of its rows' spelling (a region's, `RegionSort.title`, read
        // from any row of the region): read again where a row came, went or changed, as a fresh
        // fetch reads it.
        var titles: [SectionKey: String] = [:]
        let changedKeys = before.values.compactMap { $0 } + Array(after.values)
        for key in Set(changedKeys.map { sectionKey(of: $0) }) where old.index(of: key) != nil {
            titles[key] = try newSection(db, key).title
        }
        index = old.applying(diff.countDeltas(sectionOf: { sectionKey(of: $0) }), adding: added, titles: titles,
                             precedes: plan.sectionPrecedes)

        let newRank = try ranks(db, of: newMatched)
        placesAfterMerge = diff.places(of: window.heldOffsets, oldRank: oldRank, newRank: newRank)
        return diff.changes(oldRank: oldRank, newRank: newRank, old: old, new: index)
    }

    /// How many rows now in each row's section sort before it, for rows as they were (gone or
    /// moved since). Per section, the first is counted and the section walked on once from it,
    /// as `ranks` walks: a count for each row read the section again for every row (a delete of
    /// 2,000 quakes of one day of 10,000 took 0.3–2.5 s on the loop at 100k).
    private func rowsNowBefore(_ db: Connection, _ rows: [String: RowKeys]) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for (key, members) in Dictionary(grouping: rows, by: { sectionKey(of: $0.value) }) {
            let sorted = members.sorted { plan.precedesInSection($0.value, $1.value) }
            var before = try countRows(db, in: key, before: sorted[0].value)
            result[sorted[0].key] = before
            guard sorted.count > 1 else { continue }
            let statement = try walk(db, key, from: sorted[0].value, keys: true)
            defer { statement.reset() }
            var next = 1
            var row: RowKeys? = try statement.step() ? RowKeys(statement) : nil
            while next < sorted.count {
                if let current = row, plan.precedesInSection(current, sorted[next].value) {
                    before += 1
                    row = try statement.step() ? RowKeys(statement) : nil
                } else {
                    result[sorted[next].key] = before
                    next += 1
                }
            }
        }
        return result
    }

    /// A section that a merge brought, with its title (its count is set from the merge's deltas).
    private func newSection(_ db: Connection, _ key: SectionKey) throws -> QuakeSection {
        try plan.strategy.newSection(db, key, days: days)
    }
}
