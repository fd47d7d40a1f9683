import QuakeModel
/// A stretch of a display order that one index scan serves: rows passing `filter`, ordered by
/// `columns`, all in one direction (a provisional window's unit of reading, `ProvisionalReader`).
struct ProvisionalSegment {
    var filter: String
    var arguments: [SQLiteValue]
    var columns: [String]
    var descending: Bool
    /// For a region sort: the region this segment is, and its title as the section index titles it.
    var regionKey: String?
    var regionTitle = ""
}

/// The two segments of an order by a column that may be NULL (magnitude, depth): the known
/// values by the column, then time and id; the unknown ones by time and id. Unknown values sort
/// first ascending (NULL is smallest in SQLite), last descending.
struct NullableColumnSegments {
    let column: String
    let ascending: Bool

    var known: ProvisionalSegment {
        ProvisionalSegment(filter: "\(column) IS NOT NULL", arguments: [], columns: [column, "time", "id"], descending: !ascending)
    }
    var unknown: ProvisionalSegment {
        ProvisionalSegment(filter: "\(column) IS NULL", arguments: [], columns: ["time", "id"], descending: !ascending)
    }

    /// The segment of a row whose value `isNull` or not.
    func segment(isNull: Bool) -> ProvisionalSegment { isNull ? unknown : known }

    /// The first segment in the direction of reading.
    func first(forward: Bool) -> ProvisionalSegment { ascending == forward ? unknown : known }

    /// The segment after `segment` in the direction of reading, nil after the last.
    func after(_ segment: ProvisionalSegment, forward: Bool) -> ProvisionalSegment? {
        let (first, then) = ascending == forward ? (unknown, known) : (known, unknown)
        return segment.filter == first.filter ? then : nil
    }
}

/// An order whose provisional window is read in segments off its sort index (time, magnitude,
/// region, depth): the segment holding a row, the first, the next; and keys past a section,
/// to skip a folded one.
protocol SegmentedSort: SortStrategy {
    /// The segment holding a row with `keys`.
    func segment(_ db: Connection, of keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalSegment?
    /// The first segment in the direction of reading (its last one, reading backward).
    func firstSegment(_ db: Connection, forward: Bool, reader: ProvisionalReader) throws -> ProvisionalSegment?
    /// The segment after `segment` in the direction of reading.
    func segment(_ db: Connection, after segment: ProvisionalSegment, forward: Bool,
                 reader: ProvisionalReader) throws -> ProvisionalSegment?
    /// Keys that every row of section `key` sorts before (reading `descending`: after), in the
    /// comparison `ProvisionalReader.read` makes on its segment's columns; a section that is its
    /// whole segment (a region, the unknown magnitudes) is passed by keys past every row.
    func keys(past key: SectionKey, descending: Bool) -> RowKeys
}

extension SegmentedSort {
    /// From the segment of `anchor` (or the first), segment after segment.
    func readProvisional(_ db: Connection, reader: ProvisionalReader, from anchor: RowKeys?, forward: Bool,
                         limit: Int, bounded: Bool, into result: inout [ProvisionalReader.Row]) throws {
        var segment = try anchor.map { try self.segment(db, of: $0, reader: reader) } ?? firstSegment(db, forward: forward, reader: reader)
        var bound = anchor
        while let current = segment, result.count < limit {
            if let past = try reader.read(db, current, of: self, from: bound, forward: forward, limit: limit - result.count, into: &result) {
                bound = past  // a folded section: on past it, in the same segment
                continue
            }
            bound = nil
            segment = try self.segment(db, after: current, forward: forward, reader: reader)
        }
    }

    func provisionalRow(_ db: Connection, _ keys: RowKeys, reader: ProvisionalReader) throws -> ProvisionalReader.Row? {
        let (predicate, arguments) = reader.plan.rowWhere
        let statement = try db.cachedStatement("""
            SELECT \(QuakeRow.columns) FROM quake
            WHERE id = ? AND \(predicate)
            """)
        try statement.bind([.integer(keys.id)] + arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let section = reader.section(of: keys, regionTitle: try segment(db, of: keys, reader: reader)?.regionTitle ?? "")
        return ProvisionalReader.Row(row: QuakeRow(statement), section: section)
    }

    /// Keys past every row of a section that is its whole segment.
    func keys(pastSegment descending: Bool) -> RowKeys {
        descending ? .bound(time: .min, id: .min) : .bound(time: .max, id: .max)
    }

    /// `(time, id)` in this direction: a day, the unknown magnitudes or depths.
    var timeSegment: ProvisionalSegment {
        ProvisionalSegment(filter: "1", arguments: [], columns: ["time", "id"], descending: !ascending)
    }
}

extension RowKeys {
    /// Keys that bound a segment's comparison (no row has them).
    static func bound(magnitude: Double? = nil, depth: Double? = nil, time: Int64, id: Int64) -> RowKeys {
        RowKeys(id: id, time: time, magnitude: magnitude, regionKey: "", placeKey: "", depth: depth)
    }
}
