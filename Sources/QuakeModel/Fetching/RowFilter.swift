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
}
