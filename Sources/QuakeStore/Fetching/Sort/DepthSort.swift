import Foundation

/// The `depth` order: shallowest first by default, sections by depth band (`DepthBands`; an
/// unknown depth sorts as the smallest, as NULL does in SQLite), by depth inside a band, then time.
struct DepthSort: SegmentedSort {
    let ascending: Bool

    func sectionIdentifier(timeZone: TimeZone) -> SectionIdentifier { .depth }

    // Served by quake_depth (block, depth, time, rowid): one run per block of ids, merged
    // (`orderedRowsQuery`); an unknown depth (NULL) is the smallest.
    var orderBy: String { ascending ? "depth ASC, time ASC, id ASC" : "depth DESC, time DESC, id DESC" }

    var blockLedSince: Int? { Schema.depthLedByBlock }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        let op = keysetOperator(descending: !ascending, before: before)
        // Inside the unknown-depth section every depth is NULL: by time, as for unknown magnitudes.
        guard let depth = keys.depth else { return Self.timeKeyset(keys, op) }
        return ("(depth, time, id) \(op) (?, ?, ?)", [.real(depth), .integer(keys.time), .integer(keys.id)])
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool {
        if let ad = a.depth, let bd = b.depth, ad != bd { return ascending ? ad < bd : ad > bd }
        return precedesByTime(a, b)
    }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .depth(let x) = a, case .depth(let y) = b else { preconditionFailure("sections of different kinds compared") }
        // NULL sorts smallest, as in SQLite.
        let xv = x ?? -.infinity, yv = y ?? -.infinity
        return ascending ? xv < yv : xv > yv
    }


    // MARK: Sections

    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey { DepthBands.key(of: keys.depth) }

    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel { DepthBands.section(of: keys.depth) }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        guard case .depth(let lower) = key else { preconditionFailure("a depth key") }
        return DepthBands.quakeSection(lower, count: 0)
    }


    // MARK: Counts

    var countingKind: Int? { 3 }

    func countedSections(_ db: Connection, days: DayCalendar, source: SectionCounts.Source) throws -> [QuakeSection]? {
        // The unknown depths' bucket is the smallest, as NULL sorts in SQLite.
        let next = try SectionCounts.buckets(db, kind: 3, source: source, ascending: ascending)
        var result: [QuakeSection] = []
        while let (value, count) = try next() {
            let bucket = value.int64 ?? Int64(Schema.unknownDepth)
            result.append(DepthBands.quakeSection(bucket == Schema.unknownDepth ? nil : Double(bucket), count: count))
        }
        return result
    }

    /// Jumps from band to band along `quake_depth`: one seek (per block) for the next band's
    /// first matching row, one range count for the band (about twenty bands for the whole
    /// Earth), and the unknown depths (NULL, first ascending) as one more range.
    func walkedSections(_ db: Connection, plan: QueryPlan, days: DayCalendar,
                        countRows: (SectionKey) throws -> Int) throws -> [QuakeSection] {
        let (where_, arguments) = plan.matchedWhere
        var result: [QuakeSection] = []
        func unknown() throws {
            let count = try countRows(.depth(nil))
            if count > 0 { result.append(DepthBands.quakeSection(nil, count: count)) }
        }
        if ascending { try unknown() }
        var bound: (String, [SQLiteValue]) = ("depth IS NOT NULL", [])
        func first() throws -> Double? {
            let (sql, all) = try orderedRowsQuery(db, select: "depth", where: ("\(bound.0) AND \(where_)", bound.1 + arguments),
                                                  orderBy: orderBy, tail: (" LIMIT 1", []))
            return try db.cachedScalar(sql, all).double
        }
        while let depth = try first() {
            guard case .depth(let lower?) = DepthBands.key(of: depth) else { break }
            result.append(DepthBands.quakeSection(lower, count: try countRows(.depth(lower))))
            // Strictly past this band: advances by construction (the band holds the depth; past
            // an outermost band, an infinite bound, nothing).
            let band = DepthBands.bounds(lower)
            bound = ascending ? ("depth >= ?", [.real(band.upper)]) : ("depth < ?", [.real(band.lower)])
        }
        if !ascending { try unknown() }
        return result
    }


    // MARK: Provisional window

    private var segments: NullableColumnSegments { NullableColumnSegments(column: "depth", ascending: ascending) }

    func segment(_ db: Connection, of keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.segment(isNull: keys.depth == nil)
    }

    func firstSegment(_ db: Connection, forward: Bool, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.first(forward: forward)
    }

    func segment(_ db: Connection, after segment: ProvisionalSegment, forward: Bool,
                 reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.after(segment, forward: forward)
    }

    func keys(past key: SectionKey, descending: Bool) -> RowKeys {
        guard case .depth(let lower?) = key else { return keys(pastSegment: descending) }
        // `(depth, time, id)`: below the band's lower edge, or from its upper edge on.
        let band = DepthBands.bounds(lower)
        return .bound(depth: descending ? band.lower : band.upper, time: .min, id: .min)
    }
}
