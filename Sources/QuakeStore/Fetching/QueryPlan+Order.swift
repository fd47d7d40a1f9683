/// The order half of a `QueryPlan`: the SQL and the Swift comparisons of the request's sort;
/// the two must agree exactly, because the results controller mixes them when it merges changes.
extension QueryPlan {
    private var order: QuakeSortOrder { request.sortDescriptor.order }
    private var ascending: Bool { request.sortDescriptor.ascending }

    /// The `FROM` of every row query: the quake table, or for a distance sort the distance table
    /// joined to it (see `DistanceTable`).
    var from: String { order == .distance ? DistanceTable.from : "quake" }

    /// `ORDER BY` of the rows; a total order (ties broken by id), served by an index.
    var orderBy: String {
        switch (order, ascending) {
        case (.time, false): "time DESC, id DESC"
        case (.time, true): "time ASC, id ASC"
        case (.magnitude, false): "magnitude DESC, time DESC, id DESC"
        case (.magnitude, true): "magnitude ASC, time ASC, id ASC"
        // Newest first inside a region in both directions, ties by id as the index quake_region
        // (regionKey, time, rowid) holds them, so a region's rows are read from the index in order.
        // With `id ASC` SQLite sorted the whole region in a temp B-tree for every window: 420 ms
        // for a 92,000-row region at 1M quakes.
        case (.region, false): "regionKey DESC, time DESC, id DESC"
        case (.region, true): "regionKey ASC, time DESC, id DESC"
        // Served by quake_depth (depth, time, rowid); an unknown depth (NULL) is the smallest.
        case (.depth, false): "depth DESC, time DESC, id DESC"
        case (.depth, true): "depth ASC, time ASC, id ASC"
        // Served by temp.fetch_distance_km (km; its entries end in the rowid, qid).
        case (.distance, false): "km DESC, qid DESC"
        case (.distance, true): "km ASC, qid ASC"
        }
    }

    /// `orderBy` backwards: reads a section from its end (the rows before a row, nearest first).
    var reversedOrderBy: String {
        orderBy.replacingOccurrences(of: "DESC", with: "\u{1}").replacingOccurrences(of: "ASC", with: "DESC")
            .replacingOccurrences(of: "\u{1}", with: "ASC")
    }

    /// Rows of the same section that sort before a row with `keys` (and, for a distance sort,
    /// its distance `km`).
    func beforeInSection(_ keys: RowKeys, km: Double? = nil) -> (String, [SQLiteValue]) {
        inSection(keys, km: km, before: true)
    }

    /// Rows of the same section that sort at or after a row with `keys` (the complement of
    /// `beforeInSection` within the section), as a range the sort index serves.
    func atOrAfterInSection(_ keys: RowKeys, km: Double? = nil) -> (String, [SQLiteValue]) {
        inSection(keys, km: km, before: false)
    }

    private func inSection(_ keys: RowKeys, km: Double?, before: Bool) -> (String, [SQLiteValue]) {
        // A region is newest first in both directions.
        let descending = order == .region || !ascending
        let op = before ? (descending ? ">" : "<") : (descending ? "<=" : ">=")
        if order == .distance { return ("(km, qid) \(op) (?, ?)", [.real(km ?? 0), .integer(keys.id)]) }
        if order == .magnitude, let magnitude = keys.magnitude {
            return ("(magnitude, time, id) \(op) (?, ?, ?)", [.real(magnitude), .integer(keys.time), .integer(keys.id)])
        }
        // Inside the unknown-depth section every depth is NULL: by time, as for unknown magnitudes.
        if order == .depth, let depth = keys.depth {
            return ("(depth, time, id) \(op) (?, ?, ?)", [.real(depth), .integer(keys.time), .integer(keys.id)])
        }
        return ("(time, id) \(op) (?, ?)", [.integer(keys.time), .integer(keys.id)])
    }

    /// Swift's twin of `beforeInSection` for two rows of the same section.
    func precedesInSection(_ a: RowKeys, _ b: RowKeys) -> Bool {
        switch order {
        case .time:
            return ascending ? (a.time, a.id) < (b.time, b.id) : (a.time, a.id) > (b.time, b.id)
        case .magnitude:
            if let am = a.magnitude, let bm = b.magnitude, am != bm { return ascending ? am < bm : am > bm }
            return ascending ? (a.time, a.id) < (b.time, b.id) : (a.time, a.id) > (b.time, b.id)
        case .region:
            return (a.time, a.id) > (b.time, b.id)
        case .depth:
            if let ad = a.depth, let bd = b.depth, ad != bd { return ascending ? ad < bd : ad > bd }
            return ascending ? (a.time, a.id) < (b.time, b.id) : (a.time, a.id) > (b.time, b.id)
        case .distance:
            preconditionFailure("a distance sort's merges reload; rows are never compared in Swift")
        }
    }

    /// Whether section `a` comes before section `b` (same family of keys).
    func sectionPrecedes(_ a: SectionKey, _ b: SectionKey) -> Bool {
        switch (a, b) {
        case (.day(let x, _), .day(let y, _)):
            return ascending ? x < y : x > y
        case (.magnitude(let x), .magnitude(let y)):
            // NULL sorts smallest, as in SQLite.
            let xv = x ?? -1, yv = y ?? -1
            return ascending ? xv < yv : xv > yv
        case (.region(let x), .region(let y)):
            // SQLite's BINARY collation compares UTF-8 bytes.
            return ascending ? x.utf8.lexicographicallyPrecedes(y.utf8) : y.utf8.lexicographicallyPrecedes(x.utf8)
        case (.depth(let x), .depth(let y)):
            // NULL sorts smallest, as in SQLite.
            let xv = x ?? -.infinity, yv = y ?? -.infinity
            return ascending ? xv < yv : xv > yv
        case (.distance(let x, _), .distance(let y, _)):
            return ascending ? x < y : x > y
        default:
            preconditionFailure("sections of different kinds compared")
        }
    }
}
