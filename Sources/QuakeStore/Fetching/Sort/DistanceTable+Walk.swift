import QuakeModel
import Foundation

/// Rows in distance order without `fetch_distance`: for a window drawn before the
/// distance table of a new configuration is built (a provisional window), read straight off
/// the `quake_location` index.
///
/// Outward, a box around the origin (`GeoPoint.boundingBoxSQL`) of radius `r` holds every row
/// within `r`; the rows within `r` past the starting point, in order, are the first of all the
/// rows past it as long as there are `limit` of them, else `r` doubles (its span past the
/// starting distance does) until the box covers the globe. Inward, the same around the
/// antipode: a row's distance from the antipode is π·R minus its distance from the origin (up
/// to rounding, which a 1 km pad on the box absorbs), so "the farthest rows" are "the rows
/// nearest the antipode". Every comparison and the order use the exact distance from the origin
/// (`distanceSQL`), so the rows and their order are those of `ORDER BY km, id` over the table.
///
/// At 1,000,000 quakes the 60 nearest or farthest rows take a few ms of CPU (a box of a few
/// hundred km); from a middle distance the box would hold everything nearer than the starting
/// point, so past an eighth of the great circle the walk reads every row once instead (one
/// distance a row, like the distance table's load without its sort; BENCHMARKS.md, issue 13d).
extension DistanceTable {
    /// The span the first box reaches past the starting distance, in km.
    static let walkFirstSpanKm = 64.0

    /// A box reaching this far (an eighth of the great circle, ~5,000 km: its latitude band holds
    /// half the globe or more) is not worth its
    /// index range: the walk reads every row once instead (~0.2 s at 1,000,000 quakes).
    static let walkScanAllKm = halfCircumferenceKm / 4

    /// Half the great circle, in km: no distance is larger.
    static let halfCircumferenceKm = Double.pi * GeoPoint.earthRadius

    /// Up to `limit` rows of `quake` passing `filter` (a WHERE term over quake's columns with its
    /// arguments, e.g. "magnitude >= ? AND instr(placeKey, ?) > 0"), in distance order from `origin`,
    /// starting strictly after (outward: larger (km, id), ascending) or strictly before (inward: smaller
    /// (km, id), descending) the point `from` (nil: from the origin outward, or from the farthest inward),
    /// each with its distance in km (the same value `distanceSQL` gives).
    ///
    /// `mayReadEveryRow` is asked when the walk comes to reading every row (nil: it may). That
    /// read sorts before it yields a row, so one a deadline stops finds nothing at all: when
    /// it cannot fit, the walk throws `SQLiteError.isInterrupted` at once instead of spending
    /// the deadline on it (a provisional window's whole 12 ms at 1,000,000 quakes, for the
    /// lone anchor row it showed anyway).
    static func walk(_ db: Connection, origin: GeoPoint, filter: (String, [SQLiteValue]),
                     from: (km: Double, id: Int64)?, outward: Bool, limit: Int,
                     mayReadEveryRow: (() throws -> Bool)? = nil) throws -> [(row: QuakeRow, km: Double)] {
        guard limit > 0 else { return [] }
        let km = origin.distanceSQL()
        let (filterSQL, filterArguments) = filter
        let condition = filterSQL.trimmingCharacters(in: .whitespaces).isEmpty ? "1" : filterSQL
        var arguments = filterArguments
        var past = ""
        if let from {
            past = outward ? " AND (\(km), id) > (?, ?)" : " AND (\(km), id) < (?, ?)"
            arguments += [.real(from.km), .integer(from.id)]
        }
        arguments.append(.integer(Int64(limit)))
        // How far the first row may be from where the walk starts: from the origin outward, or
        // from the antipode inward (π·R − km).
        let start = outward ? max(0, from?.km ?? 0) : max(0, halfCircumferenceKm - (from?.km ?? halfCircumferenceKm))
        let antipode = GeoPoint(latitude: -origin.latitude,
                                longitude: origin.longitude > 0 ? origin.longitude - 180 : origin.longitude + 180)
        var span = walkFirstSpanKm
        while true {
            let reach = start + span
            // Past an eighth of the great circle the box's latitude band holds most of the index,
            // and every doubling would scan it again: one scan of every row instead.
            let covers = reach >= walkScanAllKm
            if covers, let mayReadEveryRow, try !mayReadEveryRow() {
                throw SQLiteError(extendedCode: SQLiteError.interrupted, message: "a distance walk reading every row would not fit its time limit")
            }
            let box: String, within: String
            if outward {
                box = covers ? "1" : origin.boundingBoxSQL(radiusKm: reach)
                within = covers ? "" : " AND \(km) <= \(reach.sqlLiteral)"
            } else {
                box = covers ? "1" : antipode.boundingBoxSQL(radiusKm: reach + 1)
                within = covers ? "" : " AND \(km) >= \((halfCircumferenceKm - reach).sqlLiteral)"
            }
            let direction = outward ? "ASC" : "DESC"
            // Ids and distances first (without a filter on other columns, from quake_location
            // alone: no row of quake is read for the rows passed over), then the rows themselves.
            let statement = try db.prepare("""
                SELECT id, \(km) AS km FROM quake
                WHERE \(box) AND (\(condition))\(within)\(past)
                ORDER BY km \(direction), id \(direction) LIMIT ?
                """)
            try statement.bind(arguments)
            var found: [(id: Int64, km: Double)] = []
            while try statement.step() { found.append((statement.int64(at: 0), statement.double(at: 1))) }
            if found.count >= limit || covers {
                let row = try db.cachedStatement("SELECT \(QuakeRow.columns) FROM quake WHERE id = ?")
                // Outside a read transaction a writer may delete a row in between: it is left out.
                return try found.compactMap { id, km in
                    row.reset()
                    try row.bind([.integer(id)])
                    return try row.step() ? (QuakeRow(row), km) : nil
                }
            }
            span *= 2
        }
    }
}
