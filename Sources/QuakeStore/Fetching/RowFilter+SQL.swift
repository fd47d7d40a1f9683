import QuakeModel
import Foundation

extension RowFilter {
    /// Whether the digest holds the columns this filter tests (`SearchDigest`), so that its pass
    /// in C can apply it: depth, magnitude, time, distance and the declustered ids (a row id is its
    /// place in the digest); not type, alert or felt.
    var isHeldInDigest: Bool {
        switch self {
        case .depth, .magnitude, .time, .near, .declustered: true
        case .eventType, .alert, .felt, .intensity, .magnitudeType, .revised: false
        }
    }

    /// The `WHERE` term over the `quake` table's columns, with its arguments.
    var sql: (String, [SQLiteValue]) {
        switch self {
        case .depth, .magnitude:
            // The values shown within the range (`storedBounds`).
            let column = if case .depth = self { "depth" } else { "magnitude" }
            let (low, high) = storedBounds!
            return ("\(column) BETWEEN ? AND ?", [.real(low), .real(high)])
        case .time(let from, let until?): return ("time >= ? AND time < ?", [.integer(from), .integer(until)])
        case .time(let from, nil): return ("time >= ?", [.integer(from)])
        case .eventType(let type, false): return ("type = ? COLLATE NOCASE", [.text(type)])
        case .eventType(let type, true): return ("(type IS NULL OR type <> ? COLLATE NOCASE)", [.text(type)])
        case .alert(let level):
            let levels = Self.alertLevels.drop { $0 != level.lowercased() }
            return ("lower(alert) IN (\(levels.map { _ in "?" }.joined(separator: ", ")))", levels.map { SQLiteValue.text($0) })
        case .felt: return ("felt > 0", [])
        case .revised: return ("revised IS NOT NULL", [])
        case .magnitudeType(let type) where type.lowercased() == Self.unknownMagnitudeType:
            return ("(magType IS NULL OR trim(magType) = '' OR trim(magType) = ? COLLATE NOCASE)", [.text(type)])
        case .magnitudeType(let type): return ("trim(magType) = ? COLLATE NOCASE", [.text(type.trimmingCharacters(in: .whitespaces))])
        case .near(let center, let radiusKm): return (center.withinSQL(radiusKm: radiusKm), [])
        case .intensity(let whole, let home):
            // Every quake with a magnitude is shown as I or more (the value is clamped).
            guard whole > 1 else { return ("magnitude IS NOT NULL", []) }
            return ("\(home.intensitySQL()) * 10 >= ?", [.real(FeltIntensity.scaledFloor(whole: whole))])
        case .declustered(let kept):
            // The ids as a bound bitmap (CQuakeSQL's quaketui_in_bitmap), tested per row.
            // `quake.id`: a search by code prefix joins its matches, which have an `id` too.
            return ("quaketui_in_bitmap(quake.id, ?)", [.blob(kept.bitmap)])
        }
    }
}
