/// A filter on columns that persistent history does not keep for a row's old version (depth
/// here; distance from home, time window, event type, alert level, felt are the next ones),
/// so it cannot be evaluated on `RowKeys`. Rows passing every filter (and the search text)
/// are listed in the match set (`ResultMatches`), whose membership is what says whether a row
/// was in the results before a change. A new filter needs its SQL clause here and the same
/// test in Swift in `QueryPlan` (`QueryPlanAgreementTests` holds the two to the same rows).
public enum RowFilter: Hashable, Sendable {
    /// Depth in km shown within `range` (to a tenth rounded half up, `Tenths`: `:depth 0-10` holds
    /// 10.04 km, shown `10.0 km`); a quake of unknown depth never matches.
    case depth(ClosedRange<Double>)
    /// Magnitude shown within `range` (`:mag 4-6`; `:mag 5+` up to `greatestFiniteMagnitude`;
    /// `MagnitudeBin`); a quake of unknown magnitude never matches.
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
    /// The magnitude's type (`ml`, `mb`, `mww` …), compared without regard to case; a quake
    /// without a type matches `unknown` (issue 54: a fit per magnitude type).
    case magnitudeType(String)
    /// A report of the event changed since it was first stored (issue 53: `quake.revised`, set
    /// by the revision triggers of schema 15): magnitude, its type, time, epicentre, depth or status.
    case revised

    /// The type a quake without a magnitude type matches (`CatalogueEvents.unknownType`).
    public static let unknownMagnitudeType = "unknown"

    /// PAGER's alert levels, lowest first.
    public static let alertLevels = ["green", "yellow", "orange", "red"]
    /// Within `radiusKm` of `center` (great-circle distance, `GeoPoint.distance(to:)`, boundary
    /// included): a bounding box on the `quake_location` index, then the exact haversine.
    case near(GeoPoint, radiusKm: Double)
    /// A predicted intensity at `home` (`FeltIntensity`) shown as `atLeast` (a whole intensity,
    /// I–X) or more: ten times the equation's value at or past `FeltIntensity.scaledFloor(whole:)`.
    /// A quake of unknown magnitude never matches.
    case intensity(atLeast: Int, home: GeoPoint)
    /// The background alone (`:decluster gk`, issue 54): only the rows whose ids the set keeps.
    /// The set is computed from the list without this filter (`DeclusteredSet`), and travels
    /// with the request as data.
    case declustered(DeclusteredSet)
}

extension RowFilter {
    /// The stored values a `.depth` or `.magnitude` filter passes, `low ≤ value ≤ high`: those
    /// shown within its range (`Tenths.storedBounds(shown:)`). SQL, the C digest and Swift test
    /// these, so they agree with what the list shows. Nil for the other filters.
    public var storedBounds: (low: Double, high: Double)? {
        switch self {
        case .depth(let range), .magnitude(let range): Tenths.storedBounds(shown: range)
        default: nil
        }
    }
}
