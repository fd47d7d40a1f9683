import Foundation

/// The `magnitude` order: largest first by default, sections by whole magnitude (`M 6+`, `M 5`,
/// …, `unknown`), by magnitude then time inside a section.
struct MagnitudeSort: SegmentedSort {
    let ascending: Bool

    func sectionIdentifier(timeZone: TimeZone) -> SectionIdentifier { .magnitude }

    // Served by quake_magnitude (block, magnitude, time, rowid): one run per block of ids,
    // merged (`orderedRowsQuery`).
    var orderBy: String { ascending ? "magnitude ASC, time ASC, id ASC" : "magnitude DESC, time DESC, id DESC" }

    var blockLedSince: Int? { Schema.magnitudeLedByBlock }

    func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        let op = keysetOperator(descending: !ascending, before: before)
        // Inside the unknown section every magnitude is NULL: by time.
        guard let magnitude = keys.magnitude else { return Self.timeKeyset(keys, op) }
        return ("(magnitude, time, id) \(op) (?, ?, ?)", [.real(magnitude), .integer(keys.time), .integer(keys.id)])
    }

    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool {
        if let am = a.magnitude, let bm = b.magnitude, am != bm { return ascending ? am < bm : am > bm }
        return precedesByTime(a, b)
    }

    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        guard case .magnitude(let x) = a, case .magnitude(let y) = b else { preconditionFailure("sections of different kinds compared") }
        // NULL sorts smallest, as in SQLite.
        let xv = x ?? -1, yv = y ?? -1
        return ascending ? xv < yv : xv > yv
    }


    // MARK: Sections

    func sectionKey(of keys: RowKeys, km: Double?, days: DayCalendar) -> SectionKey {
        .magnitude(SectionKey.bucket(of: keys.magnitude))
    }

    func section(of keys: RowKeys, days: DayCalendar, regionTitle: String) -> SectionLabel {
        let bucket = SectionKey.bucket(of: keys.magnitude)
        let title = SectionKey.magnitudeTitle(bucket)
        return (.magnitude(bucket), title, title)
    }

    func newSection(_ db: Connection, _ key: SectionKey, days: DayCalendar) throws -> QuakeSection {
        guard case .magnitude(let bucket) = key else { preconditionFailure("a magnitude key") }
        let title = SectionKey.magnitudeTitle(bucket)
        return QuakeSection(id: title, title: title, count: 0, key: key)
    }


    // MARK: Counts

    var countingKind: Int? { 1 }

    func countedSections(_ db: Connection, days: DayCalendar, source: SectionCounts.Source) throws -> [QuakeSection]? {
        // -1 stands for unknown, which sorts first ascending (NULL is smallest in SQLite).
        let next = try SectionCounts.buckets(db, kind: 1, source: source, ascending: ascending)
        var result: [QuakeSection] = []
        while let (value, count) = try next() {
            let raw = Int(value.int64 ?? -1)
            let bucket: Int? = raw < 0 ? nil : raw
            let title = SectionKey.magnitudeTitle(bucket)
            result.append(QuakeSection(id: title, title: title, count: count, key: .magnitude(bucket)))
        }
        return result
    }

    /// A range count per bucket, unknown and `M <1` to `M 6+`.
    func walkedSections(_ db: Connection, plan: QueryPlan, days: DayCalendar,
                        countRows: (SectionKey) throws -> Int) throws -> [QuakeSection] {
        var result: [QuakeSection] = []
        let buckets: [Int?] = [nil, 0, 1, 2, 3, 4, 5, 6]
        for bucket in ascending ? buckets : buckets.reversed() {
            let key = SectionKey.magnitude(bucket)
            let count = try countRows(key)
            guard count > 0 else { continue }
            let title = SectionKey.magnitudeTitle(bucket)
            result.append(QuakeSection(id: title, title: title, count: count, key: key))
        }
        return result
    }


    // MARK: Provisional window

    private var segments: NullableColumnSegments { NullableColumnSegments(column: "magnitude", ascending: ascending) }

    func segment(_ db: Connection, of keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.segment(isNull: keys.magnitude == nil)
    }

    func firstSegment(_ db: Connection, forward: Bool, reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.first(forward: forward)
    }

    func segment(_ db: Connection, after segment: ProvisionalSegment, forward: Bool,
                 reader: ProvisionalReader) throws -> ProvisionalSegment? {
        segments.after(segment, forward: forward)
    }

    func keys(past key: SectionKey, descending: Bool) -> RowKeys {
        guard case .magnitude(let bucket?) = key else { return keys(pastSegment: descending) }
        // `(magnitude, time, id)`: below the bucket's lower edge, or from its upper edge on
        // (bucket 0 holds the negatives, bucket 6 everything from 6).
        let edge = descending ? (bucket == 0 ? -Double.greatestFiniteMagnitude : Double(bucket))
                              : (bucket == 6 ? Double.greatestFiniteMagnitude : Double(bucket + 1))
        return .bound(magnitude: edge, time: .min, id: .min)
    }
}
