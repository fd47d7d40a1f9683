import QuakeModel
import Foundation

/// An order by a column sectioned in bands of its values (`magnitude`: largest first by
/// default, by whole magnitude; `depth`: shallowest first by default, by depth band): by the
/// column, then time, inside a band; the unknown band (NULL) smallest, as in SQLite, by time.
/// `Column` is all that differs between those orders (`MagnitudeBands`, `DepthBands`).
struct ColumnSort<Column: BandedColumn>: SegmentedSort {
    let ascending: Bool

    func sectionIdentifier(timeZone: TimeZone) -> SectionIdentifier { Column.sectionIdentifier }

    // Served by the column's index (block, column, time, rowid): one run per block of ids,
    // merged (`orderedRowsQuery`); an unknown value (NULL) is the smallest.
    var orderBy: String {
        ascending ? "\(Column.name) ASC, time ASC, id ASC" : "\(Column.name) DESC, time DESC, id DESC"
    }

    var blockLedSince: Int? { Column.blockLedSince }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        let op = keysetOperator(descending: !ascending, before: before)
        // Inside the unknown band every value is NULL: by time.
        guard let value = Column.value(of: keys) else { return Self.timeKeyset(keys, op) }
        return ("(\(Column.name), time, id) \(op) (?, ?, ?)", [.real(value), .integer(keys.time), .integer(keys.id)])
    }

    func digestAnchor(_ keys: RowKeys, in key: SectionKey) -> DigestAnchor? {
        // The outermost bands are open (`rangeSQL`): their finite stand-ins as infinities.
        let edges = Column.edges(key).map { edges in
            (edges.lower == -.greatestFiniteMagnitude ? -.infinity : edges.lower,
             edges.upper == .greatestFiniteMagnitude ? .infinity : edges.upper)
        }
        return DigestAnchor(key: Column.digestKey, descending: !ascending, edges: edges, value: Column.value(of: keys),
                            time: keys.time, id: keys.id)
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool {
        if let av = Column.value(of: a), let bv = Column.value(of: b), av != bv { return ascending ? av < bv : av > bv }
        return precedesByTime(a, b)
    }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        let x = Column.rank(a), y = Column.rank(b)
        return ascending ? x < y : x > y
    }


    // MARK: Sections

    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey { Column.key(of: Column.value(of: keys)) }

    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel {
        Column.label(Column.key(of: Column.value(of: keys)))
    }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        Self.section(key, count: 0)
    }

    /// The section of band `key` counting `count` rows.
    private static func section(_ key: SectionKey, count: Int) -> QuakeSection {
        let label = Column.label(key)
        return QuakeSection(id: label.id, title: label.title, count: count, key: label.key)
    }


    // MARK: Counts

    var countingKind: Int? { Column.countingKind }

    func countedSections(_ db: Connection, days: DayCalendar, source: SectionCounts.Source) throws -> [QuakeSection]? {
        let next = try SectionCounts.buckets(db, kind: Column.countingKind, source: source, ascending: ascending)
        var result: [QuakeSection] = []
        while let (value, count) = try next() {
            result.append(Self.section(Column.key(ofBucket: value), count: count))
        }
        return result
    }

    /// The unknown band and each band the column lists (`everyKnownBand`) by a range count; or,
    /// when it lists none, jumping from band to band along the column's index: one seek (per
    /// block) for the next band's first matching row, one range count for the band.
    func walkedSections(_ db: Connection, plan: QueryPlan, days: DayCalendar,
                        countRows: (SectionKey) throws -> Int) throws -> [QuakeSection] {
        var result: [QuakeSection] = []
        func counted(_ key: SectionKey) throws {
            let count = try countRows(key)
            if count > 0 { result.append(Self.section(key, count: count)) }
        }
        if ascending { try counted(Column.key(of: nil)) }
        if let bands = Column.everyKnownBand {
            for key in ascending ? bands : bands.reversed() { try counted(key) }
        } else {
            try seekBands(db, plan: plan, countRows: countRows, into: &result)
        }
        if !ascending { try counted(Column.key(of: nil)) }
        return result
    }

    /// Appends the known bands holding rows of `plan`, in order, seeking each one's first row.
    private func seekBands(_ db: Connection, plan: QueryPlan, countRows: (SectionKey) throws -> Int,
                           into result: inout [QuakeSection]) throws {
        let (where_, arguments) = plan.matchedWhere
        var bound: (String, [SQLiteValue]) = ("\(Column.name) IS NOT NULL", [])
        func first() throws -> Double? {
            let (sql, all) = try orderedRowsQuery(db, select: Column.name, where: ("\(bound.0) AND \(where_)", bound.1 + arguments),
                                                  orderBy: orderBy, tail: (" LIMIT 1", []))
            return try db.cachedScalar(sql, all).double
        }
        while let value = try first() {
            let key = Column.key(of: value)
            guard let band = Column.edges(key) else { break }
            result.append(Self.section(key, count: try countRows(key)))
            // Strictly past this band: advances by construction (the band holds the value; past
            // an outermost band, an infinite bound, nothing).
            bound = ascending ? ("\(Column.name) >= ?", [.real(band.upper)]) : ("\(Column.name) < ?", [.real(band.lower)])
        }
    }


    // MARK: Provisional window

    private var segments: NullableColumnSegments { NullableColumnSegments(column: Column.name, ascending: ascending) }

    func segment(_ db: Connection, of keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.segment(isNull: Column.value(of: keys) == nil)
    }

    func firstSegment(_ db: Connection, forward: Bool, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.first(forward: forward)
    }

    func segment(_ db: Connection, after segment: ProvisionalSegment, forward: Bool,
                 reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.after(segment, forward: forward)
    }

    func keys(past key: SectionKey, descending: Bool) -> RowKeys {
        guard let band = Column.edges(key) else { return keys(pastSegment: descending) }
        // `(column, time, id)`: below the band's lower edge, or from its upper edge on.
        return Column.bound(descending ? band.lower : band.upper)
    }
}
