/// The rows around a selection in a request's order, read straight off the sort indexes with
/// the predicate tested row by row: no match set, no section counts. It is what the screen
/// needs the moment a key changes the request; the exact sections follow (`VisibleFirstResults`).
///
/// Sections are the window's own: each holds the rows read so far and says its count is pending.
struct ProvisionalWindow {
    var rows: [QuakeRow] = []
    var sections: [QuakeSection] = []
    var sectionStarts: [Int] = []
    /// The offset of the anchor (or of the row that stands where it would sort).
    var anchorOffset: Int?

    /// Whether a time limit cut the reading short (a rare match: the window holds fewer rows
    /// than there are; the count that follows finds them all).
    var isPartial = false

    /// Reads up to `above` rows before `anchor` and `below` rows from it (the anchor itself when
    /// it matches), or `below` rows from the top without an anchor, each side within its time
    /// limit (`limit` ns in all: two thirds for the rows at and below the selection, read first,
    /// the rest for those above; nil: no limit). A search matching almost nothing would otherwise
    /// walk the whole index here. A distance sort walks `quake_location` (`DistanceTable.walk`).
    ///
    /// A section in `collapsed` (folded on screen) gets one row, for its header, and the reading
    /// goes on past it: a folded day longer than the window would otherwise hide the sections
    /// beyond it until the count settles.
    init(_ db: Connection, request: SectionedFetchRequest, days: DayCalendar, anchor: RowKeys?,
         above: Int, below: Int, limit: UInt64? = nil, collapsed: Set<String> = []) throws {
        var reader = ProvisionalReader(request: request, days: days)
        reader.collapsed = collapsed
        var partial = false
        let after = try reader.rows(db, from: anchor, forward: true, limit: below, within: limit.map { $0 / 3 * 2 }, partial: &partial)
        var before: [ProvisionalReader.Row] = []
        if let anchor, above > 0 {
            before = try reader.rows(db, from: anchor, forward: false, limit: above, within: limit.map { $0 / 3 }, partial: &partial)
        }
        isPartial = partial
        let all = before.reversed() + after
        rows = all.map(\.row)
        anchorOffset = anchor == nil || all.isEmpty ? nil : min(before.count, all.count - 1)
        for (offset, row) in all.enumerated() {
            if let last = sections.last, last.key == row.section.key {
                sections[sections.count - 1].count += 1
                continue
            }
            sectionStarts.append(offset)
            sections.append(QuakeSection(id: row.section.id, title: row.section.title, count: 1,
                                         key: row.section.key, isCountPending: true))
        }
    }

    var count: Int { rows.count }

    /// The window's sections with the whole result's counts (`totalCount`) of the same sections
    /// of `counted`, no longer pending; a section `counted` lacks (read before a commit the
    /// counts saw) stays pending.
    func sections(countedAs counted: [QuakeSection]) -> [QuakeSection] {
        let totals = Dictionary(counted.map { ($0.id, $0.count) }, uniquingKeysWith: { first, _ in first })
        return sections.map { section in
            var section = section
            section.totalCount = totals[section.id]
            section.isCountPending = section.totalCount == nil
            return section
        }
    }

    func indexPath(forOffset offset: Int) -> (section: Int, row: Int) {
        let section = (sectionStarts.lastIndex { $0 <= offset }) ?? 0
        return (section, offset - sectionStarts[section])
    }
}

/// Reads rows in a request's display order from a row's keys, forward or backward, through the
/// indexes `quake_time`, `quake_magnitude` and `quake_region`.
struct ProvisionalReader {
    struct Row {
        let row: QuakeRow
        let section: SectionLabel
    }

    /// The request compiled: the reader tests its whole predicate per row (`QueryPlan.rowWhere`).
    let plan: QueryPlan
    let days: DayCalendar
    /// Sections folded on screen: the reader keeps the first row it meets of each (for its
    /// header) and goes on past the rest.
    var collapsed: Set<String> = []
    /// Under a time limit, a distance walk that would read every row (from a middle distance)
    /// gives up at once when that is more rows than this (`readsEveryRowInTime`): the deadline
    /// would stop it before its sort yields a row. The same bound as a distance table built
    /// under a deadline.
    var scanAllRowLimit = FetchedResultsController.distanceRowsWithinADeadline

    /// A stretch of the display order that one index scan serves: rows passing `filter`,
    /// ordered by `columns`, all in one direction.
    private struct Segment {
        var filter: String
        var arguments: [SQLiteValue]
        var columns: [String]
        var descending: Bool
        /// For a region sort: the region this segment is, and its title as the section index titles it.
        var regionKey: String?
        var regionTitle = ""
    }

    init(request: SectionedFetchRequest, days: DayCalendar) {
        plan = QueryPlan(request)
        self.days = days
    }

    var request: SectionedFetchRequest { plan.request }

    private var ascending: Bool { request.sortDescriptor.ascending }

    /// Up to `limit` rows from `anchor` (included when it matches) going `forward` in display
    /// order, or strictly before it going backward (nearest first); from the first row when
    /// `anchor` is nil.
    ///
    /// With `within` (ns), reading stops there and returns the rows found so far, setting `partial`.
    /// The anchor itself is read first, outside that limit (one lookup by id): a window cut
    /// short must still hold the quake it was read around, or the selection would move to a
    /// neighbour (and be saved there).
    func rows(_ db: Connection, from anchor: RowKeys?, forward: Bool, limit: Int, within: UInt64? = nil,
              partial: inout Bool) throws -> [Row] {
        guard limit > 0 else { return [] }
        var result: [Row] = []
        if forward, let anchor, let row = try self.row(db, anchor) { result.append(row) }
        do {
            try db.withDeadline(nanoseconds: within) {
                if request.sortDescriptor.order == .distance {
                    result += try distanceRows(db, from: anchor, forward: forward, limit: limit - result.count,
                                               mayReadEveryRow: within == nil ? nil : { try readsEveryRowInTime(db) })
                    return
                }
                var segment = try anchor.map { try self.segment(db, of: $0) } ?? firstSegment(db, forward: forward)
                var bound = anchor
                while let current = segment, result.count < limit {
                    if let past = try read(db, current, from: bound, forward: forward, limit: limit - result.count, into: &result) {
                        bound = past  // a folded section: on past it, in the same segment
                        continue
                    }
                    bound = nil
                    segment = try next(db, after: current, forward: forward)
                }
            }
        } catch let error as SQLiteError where error.isInterrupted && within != nil {
            partial = true
        }
        return result
    }

    /// The row of `keys` with its section, if it matches the request.
    private func row(_ db: Connection, _ keys: RowKeys) throws -> Row? {
        let (predicate, arguments) = plan.rowWhere
        // A distance sort's section is the row's band: its distance comes with it (no home, no band).
        let distance = request.sortDescriptor.order == .distance ? request.distanceReference : nil
        if request.sortDescriptor.order == .distance, distance == nil { return nil }
        let statement = try db.cachedStatement("""
            SELECT \(QuakeRow.columns)\(distance.map { ", " + $0.origin.distanceSQL() } ?? "") FROM quake
            WHERE id = ? AND \(predicate)
            """)
        try statement.bind([.integer(keys.id)] + arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let section = try distance.map { DistanceSort.band(of: statement.double(at: QuakeRow.columnCount), in: $0) }
            ?? section(of: keys, regionTitle: segment(db, of: keys)?.regionTitle ?? "")
        return Row(row: QuakeRow(statement), section: section)
    }

    func rows(_ db: Connection, from anchor: RowKeys?, forward: Bool, limit: Int) throws -> [Row] {
        var partial = false
        return try rows(db, from: anchor, forward: forward, limit: limit, partial: &partial)
    }

    private func segment(_ db: Connection, of keys: RowKeys) throws -> Segment? {
        switch request.sortDescriptor.order {
        case .time: return timeSegment
        case .magnitude: return keys.magnitude == nil ? unknownMagnitudes : knownMagnitudes
        case .region: return try region(db, keys.regionKey)
        case .depth: return keys.depth == nil ? unknownDepths : knownDepths
        case .distance: return nil  // read by `distanceRows`
        }
    }

    private var timeSegment: Segment { Segment(filter: "1", arguments: [], columns: ["time", "id"], descending: !ascending) }
    private var knownMagnitudes: Segment {
        Segment(filter: "magnitude IS NOT NULL", arguments: [], columns: ["magnitude", "time", "id"], descending: !ascending)
    }
    /// Unknown magnitudes sort first ascending (NULL is smallest in SQLite), last descending.
    private var unknownMagnitudes: Segment {
        Segment(filter: "magnitude IS NULL", arguments: [], columns: ["time", "id"], descending: !ascending)
    }
    private var knownDepths: Segment {
        Segment(filter: "depth IS NOT NULL", arguments: [], columns: ["depth", "time", "id"], descending: !ascending)
    }
    /// Unknown depths sort first ascending (NULL is smallest in SQLite), last descending.
    private var unknownDepths: Segment {
        Segment(filter: "depth IS NULL", arguments: [], columns: ["time", "id"], descending: !ascending)
    }
    /// A region is newest first in both directions (`QueryPlan.orderBy`).
    private func region(_ db: Connection, _ key: String) throws -> Segment {
        Segment(filter: "regionKey = ?", arguments: [.text(key)], columns: ["time", "id"], descending: true,
                regionKey: key, regionTitle: try RegionSort.title(db, of: key))
    }

    /// The first segment in the direction of reading (its last one, reading backward).
    private func firstSegment(_ db: Connection, forward: Bool) throws -> Segment? {
        switch request.sortDescriptor.order {
        case .time: return timeSegment
        case .magnitude: return (ascending == forward) ? unknownMagnitudes : knownMagnitudes
        case .region: return try nextRegion(db, after: nil, forward: forward)
        case .depth: return (ascending == forward) ? unknownDepths : knownDepths
        case .distance: return nil
        }
    }

    private func next(_ db: Connection, after segment: Segment, forward: Bool) throws -> Segment? {
        switch request.sortDescriptor.order {
        case .time, .distance: return nil
        case .magnitude:
            let first = (ascending == forward) ? unknownMagnitudes : knownMagnitudes
            return segment.filter == first.filter ? ((ascending == forward) ? knownMagnitudes : unknownMagnitudes) : nil
        case .region: return try nextRegion(db, after: segment.regionKey, forward: forward)
        case .depth:
            let (first, then) = (ascending == forward) ? (unknownDepths, knownDepths) : (knownDepths, unknownDepths)
            return segment.filter == first.filter ? then : nil
        }
    }

    /// The next region in reading order holding a matching row: one walk of `quake_region`.
    private func nextRegion(_ db: Connection, after key: String?, forward: Bool) throws -> Segment? {
        let (predicate, arguments) = plan.rowWhere
        let up = ascending == forward
        let bound = key == nil ? "" : " AND regionKey \(up ? ">" : "<") ?"
        let statement = try db.cachedStatement(
            "SELECT regionKey FROM quake WHERE regionKey IS NOT NULL\(bound) AND \(predicate) ORDER BY regionKey \(up ? "ASC" : "DESC") LIMIT 1")
        try statement.bind((key.map { [SQLiteValue.text($0)] } ?? []) + arguments)
        return try statement.step() ? region(db, statement.text(at: 0)) : nil
    }

    /// Up to `limit` rows of `segment` strictly past `anchor` (from its start without one).
    /// Stops after the first row of a folded section and returns the keys past that section,
    /// for the next read to start from (nil: read to the limit or the segment's end).
    private func read(_ db: Connection, _ segment: Segment, from anchor: RowKeys?, forward: Bool,
                      limit: Int, into rows: inout [Row]) throws -> RowKeys? {
        let descending = segment.descending == forward
        let (predicate, predicateArguments) = plan.rowWhere
        var terms = [segment.filter, predicate]
        var arguments = segment.arguments + predicateArguments
        if let anchor {
            let op = descending ? "<" : ">"
            terms.append("(\(segment.columns.joined(separator: ", "))) \(op) (\(segment.columns.map { _ in "?" }.joined(separator: ", ")))")
            arguments += segment.columns.map { column -> SQLiteValue in
                switch column {
                case "magnitude": anchor.magnitude.map { .real($0) } ?? .null
                case "depth": anchor.depth.map { .real($0) } ?? .null
                case "time": .integer(anchor.time)
                default: .integer(anchor.id)
                }
            }
        }
        let order = segment.columns.map { "\($0) \(descending ? "DESC" : "ASC")" }.joined(separator: ", ")
        let statement = try db.cachedStatement("""
            SELECT \(QuakeRow.columns), \(RowKeys.columns) FROM quake
            WHERE \(terms.joined(separator: " AND ")) ORDER BY \(order) LIMIT ?
            """)
        try statement.bind(arguments + [.integer(Int64(limit))])
        defer { statement.reset() }
        while try statement.step() {
            let keys = RowKeys(statement, from: QuakeRow.columnCount)
            let row = Row(row: QuakeRow(statement), section: section(of: keys, regionTitle: segment.regionTitle))
            rows.append(row)
            if collapsed.contains(row.section.id) { return Self.keys(past: row.section.key, descending: descending) }
        }
        return nil
    }

    /// Keys that every row of section `key` sorts before (reading `descending`: after), in the
    /// comparison `read` makes on its segment's columns; a section that is its whole segment
    /// (a region, the unknown magnitudes) is passed by keys past every row.
    private static func keys(past key: SectionKey, descending: Bool) -> RowKeys {
        func keys(magnitude: Double? = nil, depth: Double? = nil, time: Int64, id: Int64) -> RowKeys {
            RowKeys(id: id, time: time, magnitude: magnitude, regionKey: "", placeKey: "", depth: depth)
        }
        switch key {
        case .day(let start, let last):
            return descending ? keys(time: start, id: .min) : keys(time: last, id: .max)
        case .magnitude(let bucket?):
            // `(magnitude, time, id)`: below the bucket's lower edge, or from its upper edge on
            // (bucket 0 holds the negatives, bucket 6 everything from 6).
            let edge = descending ? (bucket == 0 ? -Double.greatestFiniteMagnitude : Double(bucket))
                                  : (bucket == 6 ? Double.greatestFiniteMagnitude : Double(bucket + 1))
            return keys(magnitude: edge, time: .min, id: .min)
        case .depth(let lower?):
            // `(depth, time, id)`: below the band's lower edge, or from its upper edge on.
            let band = DepthBands.bounds(lower)
            return keys(depth: descending ? band.lower : band.upper, time: .min, id: .min)
        case .magnitude(nil), .depth(nil), .region, .distance:
            return descending ? keys(time: .min, id: .min) : keys(time: .max, id: .max)
        }
    }

    /// A distance sort's rows, walked off `quake_location` (`DistanceTable.walk`): outward from
    /// home reading nearest first, inward from the farthest reading farthest first.
    private func distanceRows(_ db: Connection, from anchor: RowKeys?, forward: Bool, limit: Int,
                              mayReadEveryRow: (() throws -> Bool)?) throws -> [Row] {
        guard let reference = request.distanceReference else { return [] }
        let outward = forward == ascending
        var from: (km: Double, id: Int64)?
        if let anchor {
            guard let km = try db.scalar("SELECT \(reference.origin.distanceSQL()) FROM quake WHERE id = ?",
                                         [.integer(anchor.id)]).double else { return [] }
            from = (km, anchor.id)  // strictly past it: `rows` reads the anchor itself
        }
        var rows: [Row] = []
        while rows.count < limit {
            var past: (km: Double, id: Int64)?
            for (row, km) in try DistanceTable.walk(db, origin: reference.origin, filter: plan.rowWhere, from: from,
                                                    outward: outward, limit: limit - rows.count,
                                                    mayReadEveryRow: mayReadEveryRow) {
                let band = DistanceSort.band(of: km, in: reference)
                rows.append(Row(row: row, section: band))
                // A folded band: its first row, then on from its far edge (none past the last).
                guard collapsed.contains(band.id), case .distance(let lower, let upper) = band.key else { continue }
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

    /// Whether a distance walk's read of every candidate row is at most `scanAllRowLimit` rows.
    /// It reads the rows at or above the minimum magnitude (the kept counts of their buckets:
    /// at most 8 rows); a filter's index (time, location) may narrow it further, so with a
    /// filter the read is tried and left to the time limit.
    func readsEveryRowInTime(_ db: Connection) throws -> Bool {
        guard plan.filters.isEmpty else { return true }
        let floor = plan.minimumMagnitude.map { Int64(SectionKey.bucket(of: $0) ?? 0) } ?? -1
        let rows = try db.scalar("SELECT sum(count) FROM quake_count WHERE kind = 1 AND bucket >= ?", [.integer(floor)]).int64 ?? 0
        return rows <= Int64(scanAllRowLimit)
    }

    private func section(of keys: RowKeys, regionTitle: String) -> SectionLabel {
        plan.strategy.section(of: keys, days: days, regionTitle: regionTitle)
    }
}
