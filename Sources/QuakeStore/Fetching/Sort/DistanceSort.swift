import QuakeModel
import Foundation

/// The `distance` order: nearest first by default from the request's `reference` (home),
/// sections by distance band, by distance inside a band. Its rows are read, ranked and counted
/// through the distance table (`DistanceTable`), or walked off `quake_location` before the
/// table is built (`DistanceTable.walk`).
struct DistanceSort: SortStrategy {
    let ascending: Bool
    /// Where distances are measured from (nil: no home; the controller then sorts by time).
    let reference: DistanceReference?

    var canRun: Bool { reference != nil }

    func sectionIdentifier(timeZone: TimeZone) -> SectionIdentifier { reference.map { .distance($0) } ?? .day(timeZone) }

    var from: String { DistanceTable.from }

    // Served by temp.fetch_distance_km (km; its entries end in the rowid, qid).
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
        reference?.bands.first { band in
            guard case .distance(let lower, let upper) = band.key else { return false }
            return lower <= (km ?? 0) && (km ?? 0) < upper
        }?.key ?? .distance(lowerKm: 0, upperKm: .infinity)
    }

    /// Never asked: a window's rows come with their distance, and take its band (`band(of:in:)`).
    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel {
        (.region(keys.regionKey), keys.regionKey, regionTitle)
    }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        preconditionFailure("a distance sort merges through applyChangesReloading")
    }

    /// The band holding a quake `km` from `reference` (the farthest for a distance no band holds).
    static func band(of km: Double, in reference: DistanceReference) -> SectionLabel {
        let bands = reference.bands
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

    /// Five bands, counted on the distance table alone (`DistanceTable.bandCountsFromTable`).
    func walkedSections(_ db: Connection, plan: QueryPlan, days: DayCalendar,
                        countRows: (SectionKey) throws -> Int) throws -> [QuakeSection] {
        try bandSections { bands in try DistanceTable.bandCountsFromTable(db, bands: bands, plan: plan) }
    }

    /// Counted, ranked and windowed on the distance table alone: every row in it is a candidate.
    func countedRows(_ plan: QueryPlan) -> (from: String, where: (String, [SQLiteValue])) {
        ("temp.fetch_distance", plan.distanceTableWhere)
    }

    func windowQuery(_ db: Connection, range: (String, [SQLiteValue]), predicate: (String, [SQLiteValue]),
                     orderBy: String, limit: Int, offset: Int) throws -> (String, [SQLiteValue]) {
        (DistanceTable.windowSQL(range: range.0, predicate: predicate.0, orderBy: orderBy),
         range.1 + predicate.1 + [.integer(Int64(limit)), .integer(Int64(offset))])
    }

    /// The sections in display order, the bands given to `count` in that order; empty bands are
    /// left out, as every order leaves out its empty sections.
    func bandSections(count: ([(lowerKm: Double, upperKm: Double)]) throws -> [Int]) throws -> [QuakeSection] {
        let bands = reference?.bands ?? []
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
        result += try walkedRows(db, reader: reader, from: anchor, forward: forward, limit: limit - result.count,
                                 mayReadEveryRow: bounded ? { try reader.readsEveryRowInTime(db) } : nil)
    }

    /// The row with its band: its distance comes with it (no home, no band).
    func provisionalRow(_ db: Connection, _ keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalReader.Row? {
        guard let reference else { return nil }
        let (predicate, arguments) = reader.plan.rowWhere
        let statement = try db.cachedStatement("""
            SELECT \(QuakeRow.columns), \(reference.origin.distanceSQL()) FROM quake
            WHERE id = ? AND \(predicate)
            """)
        try statement.bind([.integer(keys.id)] + arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let section = Self.band(of: statement.double(at: QuakeRow.columnCount), in: reference)
        return ProvisionalReader.Row(row: QuakeRow(statement), section: section)
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

    var buildsTable: Bool { true }

    /// Another order before it, another origin, other matches.
    func rebuildsTable(after current: any SortStrategy, matchesChanged: Bool) -> Bool {
        guard let current = current as? DistanceSort else { return true }
        return matchesChanged || reference?.origin != current.reference?.origin
    }

    func buildTable(_ db: Connection, plan: QueryPlan, onBandsCounted: (([QuakeSection]) -> Void)?) throws -> Int {
        guard let origin = reference?.origin else { return 0 }
        if let onBandsCounted {
            onBandsCounted(try bandSections { bands in try DistanceTable.bandCountsInOnePass(db, origin: origin, plan: plan, bands: bands) })
        }
        return try DistanceTable.rebuild(db, origin: origin, plan: plan)
    }

    func tableEntry(_ db: Connection, id: Int64) throws -> Double? { try DistanceTable.km(db, id: id) }

    func updateTable(_ db: Connection, oldID: Int64?, newID: Int64?, isCandidate: Bool) throws {
        let origin = reference?.origin ?? GeoPoint(latitude: 0, longitude: 0)
        try DistanceTable.update(db, origin: origin, oldID: oldID, newID: newID, isCandidate: isCandidate)
    }

    /// The row's distance from the table, else `km`; a row the filters leave out sorts by its
    /// own distance too (not as if at home), so its nearest neighbour is the one a provisional
    /// window walks to.
    func rankDistance(_ db: Connection, _ keys: RowKeys, km: Double?) throws -> Double? {
        var km = km
        if let stored = try DistanceTable.km(db, id: keys.id) { km = stored }
        if km == nil, let origin = reference?.origin {
            km = try db.scalar("SELECT \(origin.distanceSQL()) FROM quake WHERE id = ?", [.integer(keys.id)]).double
        }
        return km
    }
}
