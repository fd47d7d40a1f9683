/// A filter on columns that persistent history does not keep for a row's old version (depth
/// here; distance from home, time window, event type, alert level, felt are the next ones),
/// so it cannot be evaluated on `RowKeys`. Rows passing every filter (and the search text)
/// are listed in the match set (`ResultMatches`), whose membership is what says whether a row
/// was in the results before a change; a new filter needs only its SQL clause here.
public enum RowFilter: Hashable, Sendable {
    /// Depth in km within `range`; a quake of unknown depth never matches.
    case depth(ClosedRange<Double>)
    /// Origin time (ms since the epoch) from `from` (inclusive) to `until` (exclusive; nil: no end).
    case time(from: Int64, until: Int64?)
    /// The feed's event type (`earthquake`, `quarry blast`, `explosion` …), compared without
    /// regard to case; `excluded` keeps every other type, unknown types included.
    case eventType(String, excluded: Bool)
    /// A PAGER alert of at least this level (`green` < `yellow` < `orange` < `red`).
    case alert(atLeast: String)
    /// At least one "Did you feel it?" report.
    case felt

    /// PAGER's alert levels, lowest first.
    public static let alertLevels = ["green", "yellow", "orange", "red"]
    /// Within `radiusKm` of `center` (great-circle distance, `GeoPoint.distance(to:)`, boundary
    /// included): a bounding box on the `quake_location` index, then the exact haversine.
    case near(GeoPoint, radiusKm: Double)

    /// The `WHERE` term over the `quake` table's columns, with its arguments.
    var sql: (String, [SQLiteValue]) {
        switch self {
        case .depth(let range): return ("depth BETWEEN ? AND ?", [.real(range.lowerBound), .real(range.upperBound)])
        case .time(let from, let until?): return ("time >= ? AND time < ?", [.integer(from), .integer(until)])
        case .time(let from, nil): return ("time >= ?", [.integer(from)])
        case .eventType(let type, false): return ("type = ? COLLATE NOCASE", [.text(type)])
        case .eventType(let type, true): return ("(type IS NULL OR type <> ? COLLATE NOCASE)", [.text(type)])
        case .alert(let level):
            let levels = Self.alertLevels.drop { $0 != level.lowercased() }
            return ("lower(alert) IN (\(levels.map { _ in "?" }.joined(separator: ", ")))", levels.map { SQLiteValue.text($0) })
        case .felt: return ("felt > 0", [])
        case .near(let center, let radiusKm): return (center.withinSQL(radiusKm: radiusKm), [])
        }
    }
}

/// The ids of the rows matching the search text and the row filters, in the results
/// controller's `MatchSet` (a bitmap that SQL tests with `quaketui_matched(id)`): built once per
/// request, then kept exact row by row as merges bring changes. The fetch's SQL tests it per
/// row (`FetchSQL`).
///
/// Membership before a change is authoritative ("was this row in the results?"): the row's old
/// depth, distance or type is not in history, so no predicate could be re-evaluated on it.
struct ResultMatches {
    let predicate: QuakePredicate
    let set: MatchSet

    /// Whether a request needs the set at all (no search and no filters: every row matches).
    static func isNeeded(for predicate: QuakePredicate) -> Bool {
        predicate.foldedSearch != nil || !predicate.rowFilters.isEmpty
    }

    /// The filters' SQL over `quake` (prefixed by `AND` for each), with their arguments.
    private var filterSQL: (String, [SQLiteValue]) {
        var clause = "", arguments: [SQLiteValue] = []
        for filter in predicate.rowFilters {
            let (sql, args) = filter.sql
            clause += " AND \(sql)"
            arguments += args
        }
        return (clause, arguments)
    }

    /// Refills the set: FTS5 trigram for 3+ characters of search text, else `instr` over the
    /// folded place (literal by construction: no pattern syntax to escape, and it compares byte
    /// lengths, so even NUL is matched as text); the row filters on the same rows. Each query
    /// adds its rows with `quaketui_match` in an aggregate, which SQLite evaluates once for each
    /// row the `WHERE` clause passes, and never before the clause.
    ///
    /// A scan of the table (no search, or one or two characters, below the trigram index) also
    /// counts its rows per `bucket` (an SQL expression over `quake`, NULL for a row not to
    /// count, with its arguments) into the set's `bucketCounts`. Returns whether it did.
    @discardableResult
    func rebuild(_ db: Connection, countingBy bucket: (String, [SQLiteValue])? = nil) throws -> Bool {
        set.removeAll()
        guard Self.isNeeded(for: predicate) else { return false }
        if let (sql, arguments) = scan(countingBy: bucket) {
            try db.execute(sql, arguments)
            return bucket != nil
        }
        let (filters, filterArgs) = filterSQL
        let folded = predicate.foldedSearch ?? ""
        let phrase = "\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        if filters.isEmpty {
            try db.execute("SELECT count(quaketui_match(rowid)) FROM quake_fts WHERE quake_fts MATCH ?", [.text(phrase)])
        } else {
            try db.execute("""
                SELECT count(quaketui_match(quake.id)) FROM quake_fts JOIN quake ON quake.id = quake_fts.rowid
                WHERE quake_fts MATCH ?\(filters)
                """, [.text(phrase)] + filterArgs)
        }
        return false
    }

    /// The statement that fills the set by scanning `quake` (the rows passing the filters, with
    /// one or two characters of search text those whose folded place holds them, through the
    /// covering index `quake_place`), counting per `bucket` if given; nil for a search the
    /// trigram index answers (three characters or more, without control characters).
    func scan(countingBy bucket: (String, [SQLiteValue])?) -> (String, [SQLiteValue])? {
        let (filters, filterArgs) = filterSQL
        let match = bucket.map { "quaketui_match_counting(id, \($0.0))" } ?? "quaketui_match(id)"
        let matchArgs = bucket?.1 ?? []
        guard let folded = predicate.foldedSearch else {
            return ("SELECT count(\(match)) FROM quake WHERE 1\(filters)", matchArgs + filterArgs)
        }
        let hasControl = folded.unicodeScalars.contains { $0.properties.generalCategory == .control }
        guard folded.unicodeScalars.count < 3 || hasControl else { return nil }
        return ("SELECT count(\(match)) FROM quake WHERE instr(placeKey, ?) > 0\(filters)",
                matchArgs + [.text(folded)] + filterArgs)
    }

    /// Whether row `id` is in the set (before a merge updates it: whether it was in the results).
    func contains(id: Int64) -> Bool { set.contains(id) }

    /// Moves one changed row's membership to its new version: out under its old id, in under
    /// its new one if the new row passes the search (on its keys) and every filter (in SQL).
    func update(_ db: Connection, oldID: Int64?, new: RowKeys?) throws {
        if let oldID { set.remove(oldID) }
        guard let new, predicate.matchesSearch(new) else { return }
        let (filters, filterArgs) = filterSQL
        if !filters.isEmpty {
            guard try db.scalar("SELECT 1 FROM quake WHERE id = ?\(filters)", [.integer(new.id)] + filterArgs).int64 != nil
            else { return }
        }
        try set.insert(new.id)
    }
}
