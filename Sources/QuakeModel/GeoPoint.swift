import Foundation

/// A place on the Earth in degrees, with great-circle distance and bearing (haversine on a
/// sphere of the IUGG mean radius, as quake apps and the USGS "km SW of" place names use).
///
/// ```swift
/// let home = GeoPoint(latitude: 35.68, longitude: 139.69)
/// home.distance(to: GeoPoint(latitude: 37.5, longitude: 137.2))   // ≈ 300 km
/// home.bearing(to: …)                                              // degrees from north, 0..<360
/// ```
public struct GeoPoint: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    /// The mean Earth radius in kilometres (IUGG).
    public static let earthRadius = 6371.0088

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether the coordinates are finite and on the globe (latitude ±90, longitude ±180).
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Parses `LAT,LON` (decimal degrees, as `--near` takes them); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
        guard isValid else { return nil }
    }

    /// Great-circle distance in kilometres.
    public func distance(to other: GeoPoint) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (other.longitude - longitude) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * Self.earthRadius * asin(min(1, sqrt(a)))
    }

    /// Initial bearing towards `other` in degrees clockwise from north, in `0..<360`.
    public func bearing(to other: GeoPoint) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let Δλ = (other.longitude - longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let degrees = atan2(y, x) * 180 / .pi
        let normalized = degrees.truncatingRemainder(dividingBy: 360) + (degrees < 0 ? 360 : 0)
        return normalized >= 360 ? 0 : normalized
    }

    /// The 16-point compass name of a bearing (`N`, `NNE`, …, `NNW`).
    public static func compassPoint(_ bearing: Double) -> String {
        let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        guard bearing.isFinite else { return "?" }
        let index = Int((bearing / 22.5).rounded()) % 16
        return names[(index + 16) % 16]
    }
}
