import QuakeModel
import Foundation

/// The `distance` order: nearest first by default from the request's `reference` (home),
/// sections by distance band, by distance inside a band. Its rows are read, ranked and counted
/// through the distance table (`DistanceTable`), or walked off `quake_location` before the
/// table is built (`DistanceTable.walk`).
///
/// The `intensity` order is the same machinery with another `measure`: the intensity predicted
/// at home (`FeltIntensity`) is a function of the hypocentral distance and the magnitude, which
/// no index orders, so it too is computed once per configuration into the table's key column
/// and read, ranked and counted through the table's index; its bands are the whole intensities.
/// It has no walk before the table is built (no index orders rows by intensity).
struct DistanceSort: SortStrategy {
    let ascending: Bool
    /// Where distances are measured from (nil: no home; the controller then sorts by time).
    let reference: DistanceReference?
    /// What the table ranks by.
    var measure: Measure = .epicentral

    /// What a row of the table is ranked by (its `km` column).
    enum Measure: Hashable, Sendable {
        /// The great-circle distance from the reference, km.
        case epicentral
        /// Ten times the intensity predicted at the reference (`FeltIntensity.value * 10`;
        /// `unknownKey` for a quake without a magnitude).
        case intensity

        /// The key of a quake of unknown magnitude: below every value of the equation.
        static let unknownKey = -1.0e9

        /// The key's SQL over `quake` (never NULL).
        func sql(_ origin: GeoPoint) -> String {
            switch self {
            case .epicentral: origin.distanceSQL()
            case .intensity: "coalesce(\(origin.intensitySQL()) * 10, \(Self.unknownKey.sqlLiteral))"
            }
        }

        /// The sections in ascending key order: distance bands, or unknown then I…X, each whole
        /// intensity `n` holding the keys of the values nearest to it (`[10n − 5, 10n + 5)`).
        func bands(_ reference: DistanceReference) -> [(key: SectionKey, id: String, title: String)] {
            guard self == .intensity else { return reference.bands }
            var bands: [(key: SectionKey, id: String, title: String)] = [
                (.distance(lowerKm: -.infinity, upperKm: Self.unknownKey / 10), "intensity-unknown", "unknown magnitude")]
            for whole in 1...10 {
                let lower = whole == 1 ? Self.unknownKey / 10 : FeltIntensity.scaledFloor(whole: whole)
                let upper = whole == 10 ? Double.infinity : FeltIntensity.scaledFloor(whole: whole + 1)
                bands.append((.distance(lowerKm: lower, upperKm: upper), "intensity-\(whole)", FeltIntensity.label(whole)))
            }
            return bands
        }
    }

    var canRun: Bool { reference != nil }

    func sectionIdentifier(timeZone: TimeZone) -> SectionIdentifier {
        reference.map { measure == .intensity ? .intensity($0) : .distance($0) } ?? .day(timeZone)
    }

    private var bands: [(key: SectionKey, id: String, title: String)] { reference.map(measure.bands) ?? [] }

    var from: String { DistanceTable.from }

    // Served by fetch_distance_km (km; its entries end in the rowid, qid).
    var orderBy: String { ascending ? "km ASC, qid ASC" : "km DESC, qid DESC" }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        let op = keysetOperator(descending: !ascending, before: before)
        return ("(km, qid) \(op) (?, ?)", [.real(km ?? 0), .integer(keys.id)])
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool {
        preconditionFailure("a distance sort's merges reload; rows are never compared in Swift")
    }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .distance(let x, _) = a, case .distance(let y, _) = b else { preconditionFailure("sections of different kinds compared") }
        return ascending ? x < y : x > y
    }


    // MARK: Sections

    /// The band holding `km` (a row without one, as at home); a distance no band holds (NaN)
    /// gets a key no section has.
    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey {
        bands.first { band in
            guard case .distance(let lower, let upper) = band.key else { return false }
            return lower <= (km ?? 0) && (km ?? 0) < upper
        }?.key ?? .distance(lowerKm: 0, upperKm: .infinity)
    }

    /// Never asked: a window's rows come with their distance, and take its band (`band(of:in:)`).
    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel {
        (.region(keys.regionKey), keys.regionKey, regionTitle)
    }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        preconditionFailure("a distance sort merges by reloading (`merge`)")
    }

    /// The band holding a quake `km` from `reference` (the farthest for a distance no band holds).
    static func band(of km: Double, in reference: DistanceReference, measure: Measure = .epicentral) -> SectionLabel {
        let bands = measure.bands(reference)
        let band = bands.first { band in
            guard case .distance(let lower, let upper) = band.key else { return false }
            return lower <= km && km < upper
        } ?? bands[bands.count - 1]
        return (band.key, band.id, band.title)
    }


    // MARK: Counts

    var countingKind: Int? { nil }

    /// Distances are per configuration, never kept: the walk counts the bands.
    func countedSections(_ db: Connection, days: DayCalendar, source: SectionCounts.Source) throws -> [QuakeSection]? { nil }

    /// The bands, counted on the distance table alone: each by `countRows` (from the table's
    /// ranks, or a range count on its index), or with a magnitude filter all in one pass over
    /// the table (`DistanceTable.bandCountsFromTable`: a range count would look up each row's `mag`).
    func walkedSections(_ db: Connection, plan: QueryPlan, days: DayCalendar,
                        countRows: (SectionKey) throws -> Int) throws -> [QuakeSection] {
        try bandSections { bands in
            guard Self.keepsEveryRow(plan.distanceTableWhere) else {
                return try DistanceTable.bandCountsFromTable(db, bands: bands, plan: plan)
            }
            return try bands.map { try countRows(.distance(lowerKm: $0.lowerKm, upperKm: $0.upperKm)) }
        }
    }

    /// A band's rows, or those before a row in it, from the table's ranks (`DistanceRanks`):
    /// the rows below each edge, a short walk each. Not with a magnitude filter on top of the
    /// table (the ranks count all its rows).
    func countFromTable(_ db: Connection, in key: SectionKey, before: (keys: RowKeys, km: Double?)?,
                        plan: QueryPlan, table: SortTable) throws -> Int? {
        guard let ranks = table.ranks, Self.keepsEveryRow(plan.distanceTableWhere), case .distance(let lower, let upper) = key else { return nil }
        let start = lower == -.infinity ? 0 : try ranks.count(db, below: .edge(lower))
        let end = try ranks.count(db, below: .edge(upper))
        guard let before else { return end - start }
        guard let km = before.km else { return nil }
        let row = DistanceRanks.Key(km: km, id: before.keys.id)
        // Nearest first: the band's rows below the row; farthest first, those above it.
        return ascending ? try ranks.count(db, below: row) - start : end - (try ranks.count(db, below: row, inclusive: true))
    }

    /// Whether the term over the table (`QueryPlan.distanceTableWhere`) keeps all its rows (no
    /// minimum magnitude on top): the rows the ranks count, and the bands' range counts serve.
    private static func keepsEveryRow(_ term: (String, [SQLiteValue])) -> Bool { term.0 == QueryPlan.everyTableRow }

    /// Counted, ranked and windowed on the distance table alone: every row in it is a candidate.
    func countedRows(_ plan: QueryPlan) -> (from: String, where: (String, [SQLiteValue])) {
        ("fetch_distance", plan.distanceTableWhere)
    }

    /// Through the index from the band's edge, stepping over `offset` rows; with the table's
    /// ranks (and no magnitude filter on top), from the sample just before the window, stepping
    /// over at most about `DistanceRanks.spacing` rows (a window in the middle of a band of
    /// millions stepped over millions: 57–72 ms at 5,000,000 quakes).
    func windowQuery(_ db: Connection, in key: SectionKey, range: (String, [SQLiteValue]), predicate: (String, [SQLiteValue]),
                     orderBy: String, limit: Int, offset: Int, table: SortTable) throws -> (String, [SQLiteValue]) {
        guard let ranks = table.ranks, Self.keepsEveryRow(predicate), case .distance(let lower, let upper) = key else {
            return (DistanceTable.windowSQL(range: range.0, predicate: predicate.0, orderBy: orderBy),
                    range.1 + predicate.1 + [.integer(Int64(limit)), .integer(Int64(offset))])
        }
        // The window as positions in the table's ascending order.
        let readsAscending = (orderBy == self.orderBy) == ascending
        let start = lower == -.infinity ? 0 : try ranks.count(db, below: .edge(lower))
        let end = readsAscending ? start + offset + limit : try ranks.count(db, below: .edge(upper)) - offset
        let first = readsAscending ? start + offset : max(start, end - limit)
        // Stepped on from the sample (the positions keep the window in the band).
        let (from, skipped) = ranks.sample(atOrBefore: first)
        return (DistanceTable.windowSQL(range: "(km, qid) >= (?, ?)", predicate: predicate.0,
                                        orderBy: readsAscending ? "km ASC, qid ASC" : "km DESC, qid DESC", stepping: "km ASC, qid ASC"),
                [.real(from.km), .integer(from.id)] + predicate.1 + [.integer(Int64(max(0, end - first))), .integer(Int64(first - skipped))])
    }

    /// The sections in display order, the bands given to `count` in that order; empty bands are
    /// left out, as every order leaves out its empty sections.
    func bandSections(count: ([(lowerKm: Double, upperKm: Double)]) throws -> [Int]) throws -> [QuakeSection] {
        let ordered = ascending ? bands : bands.reversed()
        let counts = try count(ordered.map(\.key.distanceBounds))
        return zip(ordered, counts).compactMap { band, count in
            count > 0 ? QuakeSection(id: band.id, title: band.title, count: count, key: band.key) : nil
        }
    }


    // MARK: Provisional window

    /// Walked off `quake_location` (`DistanceTable.walk`): outward from home reading nearest
    /// first, inward from the farthest reading farthest first. Under a time limit, a walk that
    /// would read every row gives up at once when that cannot fit (`readsEveryRowInTime`).
    func readProvisional(_ db: Connection, reader: ProvisionalReader, from anchor: RowKeys?, forward: Bool,
                         limit: Int, bounded: Bool, into result: inout [ProvisionalReader.Row]) throws {
        guard measure == .epicentral else {
            // No index orders rows by intensity: a window before the table reads every row once,
            // as the distance walk does past an eighth of the great circle, or gives up at once
            // when that cannot fit its time limit.
            result += try scannedRows(db, reader: reader, from: anchor, forward: forward, limit: limit - result.count,
                                      mayReadEveryRow: bounded ? { try reader.readsEveryRowInTime(db) } : nil)
            return
        }
        result += try walkedRows(db, reader: reader, from: anchor, forward: forward, limit: limit - result.count,
                                 mayReadEveryRow: bounded ? { try reader.readsEveryRowInTime(db) } : nil)
    }

    /// The row with its band: its distance comes with it (no home, no band).
    func provisionalRow(_ db: Connection, _ keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalReader.Row? {
        guard let reference else { return nil }
        let (predicate, arguments) = reader.plan.rowWhere
        let statement = try db.cachedStatement("""
            SELECT \(QuakeRow.columns), \(measure.sql(reference.origin)) FROM quake
            WHERE id = ? AND \(predicate)
            """)
        try statement.bind([.integer(keys.id)] + arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let section = Self.band(of: statement.double(at: QuakeRow.columnCount), in: reference, measure: measure)
        return ProvisionalReader.Row(row: QuakeRow(statement), section: section)
    }

    /// Rows in the order of the key, read by one scan of every row each (`intensity`): the
    /// rows past `anchor` (strictly) going `forward`, a folded band's first row and then on
    /// from its far edge, as `walkedRows` reads them.
    private func scannedRows(_ db: Connection, reader: ProvisionalReader, from anchor: RowKeys?, forward: Bool, limit: Int,
                             mayReadEveryRow: (() throws -> Bool)?) throws -> [ProvisionalReader.Row] {
        guard let reference, limit > 0 else { return [] }
        if let mayReadEveryRow, try !mayReadEveryRow() {
            throw SQLiteError(extendedCode: SQLiteError.interrupted, message: "a window of the \(measure) order would not fit its time limit")
        }
        let key = measure.sql(reference.origin)
        let up = forward == ascending
        let direction = up ? "ASC" : "DESC"
        var from: (key: Double, id: Int64)?
        if let anchor {
            guard let value = try db.scalar("SELECT \(key) FROM quake WHERE id = ?", [.integer(anchor.id)]).double else { return [] }
            from = (value, anchor.id)
        }
        let (filter, filterArguments) = reader.plan.rowWhere
        var rows: [ProvisionalReader.Row] = []
        while rows.count < limit {
            var arguments = filterArguments
            var past = ""
            if let from {
                past = up ? " AND (k, id) > (?, ?)" : " AND (k, id) < (?, ?)"
                arguments += [.real(from.key), .integer(from.id)]
            }
            arguments.append(.integer(Int64(limit - rows.count)))
            let statement = try db.prepare("""
                SELECT \(QuakeRow.columns), k FROM (SELECT *, \(key) AS k FROM quake WHERE \(filter))
                WHERE 1\(past) ORDER BY k \(direction), id \(direction) LIMIT ?
                """)
            try statement.bind(arguments)
            var next: (key: Double, id: Int64)?
            while try statement.step() {
                let band = Self.band(of: statement.double(at: QuakeRow.columnCount), in: reference, measure: measure)
                rows.append(ProvisionalReader.Row(row: QuakeRow(statement), section: band))
                guard reader.collapsed.contains(band.id), case .distance(let lower, let upper) = band.key else { continue }
                let edge = up ? upper : lower
                if edge.isInfinite { return rows }
                next = (edge, .min)
                break
            }
            guard let next else { break }
            from = next
        }
        return rows
    }

    private func walkedRows(_ db: Connection, reader: ProvisionalReader, from anchor: RowKeys?, forward: Bool, limit: Int,
                            mayReadEveryRow: (() throws -> Bool)?) throws -> [ProvisionalReader.Row] {
        guard let reference else { return [] }
        let outward = forward == ascending
        var from: (km: Double, id: Int64)?
        if let anchor {
            guard let km = try db.scalar("SELECT \(reference.origin.distanceSQL()) FROM quake WHERE id = ?",
                                         [.integer(anchor.id)]).double else { return [] }
            from = (km, anchor.id)  // strictly past it: `rows` reads the anchor itself
        }
        var rows: [ProvisionalReader.Row] = []
        while rows.count < limit {
            var past: (km: Double, id: Int64)?
            // Across the whole Earth a minimum magnitude drives the walk from its index (few pass,
            // `readsEveryRowInTime`); otherwise the planner weighs it against the location box.
            for (row, km) in try DistanceTable.walk(db, origin: reference.origin, filter: reader.plan.rowWhere(magnitude: .drive), from: from,
                                                    outward: outward, limit: limit - rows.count,
                                                    mayReadEveryRow: mayReadEveryRow) {
                let band = Self.band(of: km, in: reference)
                rows.append(ProvisionalReader.Row(row: row, section: band))
                // A folded band: its first row, then on from its far edge (none past the last).
                guard reader.collapsed.contains(band.id), case .distance(let lower, let upper) = band.key else { continue }
                let edge = outward ? upper : lower
                if outward ? edge.isInfinite : edge <= 0 { return rows }
                past = (edge, .min)
                break
            }
            guard let past else { break }
            from = past
        }
        return rows
    }


    // MARK: The distance table

    func rebuilds(_ table: SortTable, for plan: QueryPlan) -> Bool {
        // Another order before it, another origin, other matches.
        guard let built = table.built, let current = built.plan.strategy as? DistanceSort else { return true }
        return plan.matchesDiffer(from: built.plan) || reference?.origin != current.reference?.origin || measure != current.measure
    }

    /// A kept table is the plan's when built for its origin and matches (even if the match set
    /// was just rebuilt: for the same search and filters), once caught up; else it is built.
    func prepareRows(_ db: Connection, plan: QueryPlan, table: inout SortTable, token: HistoryToken, rebuild: Bool,
                     underDeadline: Bool, host: some SortHost, onBandsCounted: (([QuakeSection]) -> Void)?) throws {
        if try !rebuild && !rebuilds(table, for: plan) && catchUp(db, plan: plan, table: &table, token: token, host: host) {
            return
        }
        // Rebuilding over a big table first empties it in one SQLite step that no deadline
        // stops (a quarter of a second at 1M quakes, and as long again to roll back): under a
        // deadline, say at once that it would not fit.
        if underDeadline, table.rows > FetchedResultsController.distanceRowsWithinADeadline {
            throw SQLiteError(extendedCode: SQLiteError.interrupted, message: "a distance table of \(table.rows) rows to rebuild")
        }
        table.rows = try buildTable(db, plan: plan, in: table.file?.schema ?? "temp", onBandsCounted: onBandsCounted)
        table.ranks = try DistanceRanks.read(db, rows: table.rows, sampling: table.rankSampling)
        table.built = (plan, token)
        table.builds += 1
    }

    /// Moves the rows committed since the kept table last saw the history, as a merge moves
    /// them, so the table is `plan`'s again; false when the history cannot list them: build it
    /// again. Call with the match set up to date.
    private func catchUp(_ db: Connection, plan: QueryPlan, table: inout SortTable, token: HistoryToken,
                         host: some SortHost) throws -> Bool {
        guard let built = table.built else { return false }
        guard built.token != token else { return true }
        guard let changed = try host.rowsChanged(db, since: built.token) else { return false }
        for row in changed {
            try updateTable(db, oldID: row.old?.id, newID: row.new?.id, isCandidate: row.new.map(host.isCandidate) ?? false,
                            ranks: &table.ranks)
        }
        table.built = (plan, token)
        return true
    }

    /// The match set and the table follow each changed row, then the bands are recounted and
    /// the merge reports a reload. A row's old distance is not in history (its old coordinates
    /// are not), so old positions cannot be listed; the reload costs five range counts, not a
    /// refetch of the table.
    func merge(_ db: Connection, before: [String: RowKeys?], table: inout SortTable, through latest: HistoryToken,
               host: some SortHost) throws -> ResultChanges {
        var vanished: [Int64: Double] = [:]
        table.vanished = [:]
        let changes = try host.mergeReloading(db, before: before, table: &table) { old, new, isCandidate, table in
            // What the table held for a deleted row, read before the row leaves it.
            let held = try updateTable(db, oldID: old?.id, newID: new?.id, isCandidate: isCandidate, ranks: &table.ranks,
                                       readingOld: new == nil)
            if let old, new == nil { vanished[old.id] = held }
        }
        table.vanished = vanished
        table.built?.token = latest
        return changes
    }

    /// Each quake located (its rows are ordered by the table, not by keys Swift compares).
    func next(among codes: [String], from place: ListPlace, forward: Bool, host: some SortHost) throws -> FoundAmong? {
        try host.locatingEach(codes, from: place, forward: forward)
    }

    /// Never by keys: a window comes by offset through the table.
    func keyedRowsQuery(_ db: Connection, where condition: (String, [SQLiteValue]), orderBy: String,
                        limit: Int) throws -> (String, [SQLiteValue])? { nil }

    /// Builds the table for `plan` in the read's transaction, first calling `onBandsCounted` (if
    /// given) with the exact sections counted without it; returns its rows.
    private func buildTable(_ db: Connection, plan: QueryPlan, in schema: String, onBandsCounted: (([QuakeSection]) -> Void)?) throws -> Int {
        guard let origin = reference?.origin else { return 0 }
        let key = measure.sql(origin)
        if let onBandsCounted {
            onBandsCounted(try bandSections { bands in
                try DistanceTable.bandCountsInOnePass(db, origin: measure == .epicentral ? origin : nil, key: key, plan: plan, bands: bands)
            })
        }
        return try DistanceTable.rebuild(db, key: key, plan: plan, in: schema)
    }

    /// Moves a changed row in the table: out under `oldID`, in under `newID` when `isCandidate`;
    /// the table's `ranks` follow it. Returns what the table held for `oldID` when it was read
    /// (for the ranks, or `readingOld`: a deleted row's distance, kept for its place).
    @discardableResult
    private func updateTable(_ db: Connection, oldID: Int64?, newID: Int64?, isCandidate: Bool, ranks: inout DistanceRanks?,
                             readingOld: Bool = false) throws -> Double? {
        let origin = reference?.origin ?? GeoPoint(latitude: 0, longitude: 0)
        let oldKm = try oldID.flatMap { id in ranks != nil || readingOld ? try DistanceTable.km(db, id: id) : nil }
        try DistanceTable.update(db, key: measure.sql(origin), oldID: oldID, newID: newID, isCandidate: isCandidate)
        if ranks != nil {
            let newKm = try newID.flatMap { id in try DistanceTable.km(db, id: id) }
            ranks?.moved(from: oldID.flatMap { id in oldKm.map { DistanceRanks.Key(km: $0, id: id) } },
                         to: newID.flatMap { id in newKm.map { DistanceRanks.Key(km: $0, id: id) } })
        }
        return oldKm
    }

    /// The row's distance from the table, else `km`; a row the filters leave out sorts by its
    /// own distance too (not as if at home), so its nearest neighbour is the one a provisional
    /// window walks to.
    func rankDistance(_ db: Connection, _ keys: RowKeys, km: Double?) throws -> Double? {
        var km = km
        if let stored = try DistanceTable.km(db, id: keys.id) { km = stored }
        if km == nil, let origin = reference?.origin {
            km = try db.scalar("SELECT \(measure.sql(origin)) FROM quake WHERE id = ?", [.integer(keys.id)]).double
        }
        return km
    }
}
