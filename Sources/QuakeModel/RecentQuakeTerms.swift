import Foundation

/// What a quake must meet to be read by `Connection.quakes(from:through:meeting:)`: any one of
/// the terms (a superset of what the caller then decides, so that rows that cannot matter are
/// never turned into records). A plain value: its SQL is in `Connection+Recent.swift`.
public struct RecentQuakeTerms: Sendable {
    /// Shown at `m` or more (`MagnitudeBin.isShown`: 2.45 is shown 2.5).
    public var minimumMagnitude: Double?
    /// Within `radiusKm` of `center` (`quaketui_distance`).
    public var near: (center: GeoPoint, radiusKm: Double)?
    /// Predicted at `home` as `tenths` or more (`quaketui_intensity(…) * 10 >= tenths − 0.5`).
    public var intensity: (home: GeoPoint, tenths: Int)?
    /// Within `radiusKm` of `center` and at or after `since` (ms).
    public var nearSince: (center: GeoPoint, radiusKm: Double, since: Int64)?

    public init(minimumMagnitude: Double? = nil, near: (center: GeoPoint, radiusKm: Double)? = nil,
                intensity: (home: GeoPoint, tenths: Int)? = nil, nearSince: (center: GeoPoint, radiusKm: Double, since: Int64)? = nil) {
        self.minimumMagnitude = minimumMagnitude
        self.near = near
        self.intensity = intensity
        self.nearSince = nearSince
    }
}
