/// A filter on columns that persistent history does not keep for a row's old version (depth
/// here; distance from home, time window, event type, alert level, felt are the next ones),
/// so it cannot be evaluated on `RowKeys`. Rows passing every filter (and the search text)
/// are listed in the match set (`ResultMatches`), whose membership is what says whether a row
/// was in the results before a change. A new filter needs its SQL clause here and the same
/// test in Swift in `QueryPlan` (`QueryPlanAgreementTests` holds the two to the same rows).
public enum RowFilter: Hashable, Sendable {
    /// Depth in km within `range`; a quake of unknown depth never matches.
    case depth(ClosedRange<Double>)
    /// Magnitude within `range` (`:mag 4-6`; `:mag 5+` up to `greatestFiniteMagnitude`); a quake
    /// of unknown magnitude never matches.
    case magnitude(ClosedRange<Double>)
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
    /// A predicted intensity at `home` (`FeltIntensity`) shown as `atLeast` (a whole intensity,
    /// I–X) or more: ten times the equation's value at or past `FeltIntensity.scaledFloor(whole:)`.
    /// A quake of unknown magnitude never matches.
    case intensity(atLeast: Int, home: GeoPoint)

    /// Whether the digest holds the columns this filter tests (`SearchDigest`), so that its pass
    /// in C can apply it: depth, magnitude, time and distance; not type, alert or felt.
    var isHeldInDigest: Bool {
        switch self {
        case .depth, .magnitude, .time, .near: true
        case .eventType, .alert, .felt, .intensity: false
        }
    }

    /// The `WHERE` term over the `quake` table's columns, with its arguments.
    var sql: (String, [SQLiteValue]) {
        switch self {
        case .depth(let range): return ("depth BETWEEN ? AND ?", [.real(range.lowerBound), .real(range.upperBound)])
        case .magnitude(let range): return ("magnitude BETWEEN ? AND ?", [.real(range.lowerBound), .real(range.upperBound)])
        case .time(let from, let until?): return ("time >= ? AND time < ?", [.integer(from), .integer(until)])
        case .time(let from, nil): return ("time >= ?", [.integer(from)])
        case .eventType(let type, false): return ("type = ? COLLATE NOCASE", [.text(type)])
        case .eventType(let type, true): return ("(type IS NULL OR type <> ? COLLATE NOCASE)", [.text(type)])
        case .alert(let level):
            let levels = Self.alertLevels.drop { $0 != level.lowercased() }
            return ("lower(alert) IN (\(levels.map { _ in "?" }.joined(separator: ", ")))", levels.map { SQLiteValue.text($0) })
        case .felt: return ("felt > 0", [])
        case .near(let center, let radiusKm): return (center.withinSQL(radiusKm: radiusKm), [])
        case .intensity(let whole, let home):
            // Every quake with a magnitude is shown as I or more (the value is clamped).
            guard whole > 1 else { return ("magnitude IS NOT NULL", []) }
            return ("\(home.intensitySQL()) * 10 >= ?", [.real(FeltIntensity.scaledFloor(whole: whole))])
        }
    }
}
