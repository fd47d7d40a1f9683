import QuakeModel
import Foundation

/// Distance from a centre in SQL, computed exactly as `GeoPoint.distance(to:)` computes it, so a
/// filter or sort in SQL and a distance shown in Swift never disagree at a boundary; and the
/// bounding box that lets an index on `(latitude, longitude)` (`quake_location`) skip the rows
/// that cannot be within a radius before the exact check.
extension GeoPoint {
    /// Radians of degrees, written as SQL the way Swift computes `degrees * .pi / 180`.
    private static let radiansFactor = "3.141592653589793 / 180"

    /// SQL for the great-circle distance in km from this point to the row's `latitude` and `longitude`.
    ///
    /// It calls `quaketui_distance`, the C function every `Connection` registers (the same
    /// haversine in the same order through the same C library, bit for bit: see `CQuakeSQL/distance.c`);
    /// one call a row instead of the ~15 math-function calls of `mathFunctionsDistanceSQL`, which
    /// made a 1,000,000-row distance sort about twice as slow. The centre is written as literals
    /// (a Double's description reads back as the same Double), so the expression needs no
    /// arguments wherever it is spliced. NULL when a coordinate is NULL or not a number.
    public func distanceSQL(latitude: String = "latitude", longitude: String = "longitude") -> String {
        "quaketui_distance(\(self.latitude.sqlLiteral), \(self.longitude.sqlLiteral), \(latitude), \(longitude))"
    }

    /// The same distance written with SQLite's built-in math functions
    /// (https://www.sqlite.org/lang_mathfunc.html), for a connection that does not have
    /// `quaketui_distance` (the `sqlite3` shell: quakebench's peer, a user's own queries). It
    /// computes the same value as `distanceSQL` on the same C library.
    public func mathFunctionsDistanceSQL(latitude: String = "latitude", longitude: String = "longitude") -> String {
        let φ1 = self.latitude * .pi / 180
        let cosφ1 = cos(φ1)
        let φ2 = "(\(latitude) * \(Self.radiansFactor))"
        let halfΔφ = "((\(φ2) - \(φ1.sqlLiteral)) / 2)"
        let halfΔλ = "(((\(longitude) - \(self.longitude.sqlLiteral)) * \(Self.radiansFactor)) / 2)"
        let a = "(sin(\(halfΔφ)) * sin(\(halfΔφ)) + \(cosφ1.sqlLiteral) * cos(\(φ2)) * sin(\(halfΔλ)) * sin(\(halfΔλ)))"
        return "(2 * \(Self.earthRadius.sqlLiteral) * asin(min(1.0, sqrt(\(a)))))"
    }

    /// A `WHERE` term true for every row within `radiusKm` of this point (and a few just outside):
    /// a latitude band and, away from the poles, a longitude band (split at the antimeridian),
    /// which the index on `(latitude, longitude)` answers by range. Pair it with the exact check.
    ///
    /// The longitude half-width is `asin(sin(r) / cos(latitude))` (Chamberlain and Duquette,
    /// "Some algorithms for polygons on a sphere"; J. Matuschek, "Finding points within a
    /// distance of a latitude/longitude using bounding coordinates").
    ///
    /// It starts with every block of ids (`IDBlocks.everyBlock`), the index's leading key, so
    /// that SQLite reads the band in each block.
    public func boundingBoxSQL(radiusKm: Double) -> String {
        let angular = Self.paddedAngle(radiusKm: radiusKm)
        let latitudes = latitudeBand(radiusKm: radiusKm)
        let (south, north) = (latitudes.lowerBound, latitudes.upperBound)
        let band = "\(IDBlocks.everyBlock) AND latitude BETWEEN \(south.sqlLiteral) AND \(north.sqlLiteral)"
        guard north < 90, south > -90, angular < .pi / 2 else { return band }
        let ratio = sin(angular) / cos(latitude * .pi / 180)
        guard ratio < 1 else { return band }
        let Δlon = asin(ratio) * 180 / .pi + 1e-9
        let west = longitude - Δlon, east = longitude + Δlon
        if west >= -180, east <= 180 {
            return "\(band) AND longitude BETWEEN \(west.sqlLiteral) AND \(east.sqlLiteral)"
        }
        if Δlon >= 180 { return band }
        let (a, b) = west < -180 ? (west + 360, east) : (west, east - 360)
        return "\(band) AND (longitude >= \(a.sqlLiteral) OR longitude <= \(b.sqlLiteral))"
    }

    /// The radius as an angle, padded so that rounding never drops a row the exact check keeps.
    private static func paddedAngle(radiusKm: Double) -> Double {
        max(0, radiusKm) / earthRadius * (1 + 1e-9) + 1e-12
    }

    /// The latitudes of every point within `radiusKm` (and a few just outside): the bounding box's
    /// latitude band, which the digest's pass also tests before the exact distance.
    func latitudeBand(radiusKm: Double) -> ClosedRange<Double> {
        let Δlat = Self.paddedAngle(radiusKm: radiusKm) * 180 / .pi + 1e-9
        return (latitude - Δlat)...(latitude + Δlat)
    }

    /// The whole test for "within `radiusKm`": the bounding box (indexed) and the exact distance.
    public func withinSQL(radiusKm: Double) -> String {
        "(\(boundingBoxSQL(radiusKm: radiusKm)) AND \(distanceSQL()) <= \(radiusKm.sqlLiteral))"
    }

    /// `withinSQL` with `mathFunctionsDistanceSQL`, for the `sqlite3` shell.
    public func mathFunctionsWithinSQL(radiusKm: Double) -> String {
        "(\(boundingBoxSQL(radiusKm: radiusKm)) AND \(mathFunctionsDistanceSQL()) <= \(radiusKm.sqlLiteral))"
    }
}

extension Double {
    /// A SQL literal that reads back as exactly this value (always with a decimal point or
    /// exponent, so SQLite never takes it for an integer).
    var sqlLiteral: String {
        precondition(isFinite, "SQL literal of a non-finite Double")
        let text = "\(self)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }
}
