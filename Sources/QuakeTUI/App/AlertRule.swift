import Foundation
import QuakeScenes
import QuakeModel

/// When a newly arrived quake alerts (app storage `alertMagnitude`, `alertRadius` around `home`):
/// at or above the magnitude, or within the radius. Only quakes that happened recently alert, so
/// importing history (`fetch` of 2011) never rings for old quakes.
public struct AlertRule: Equatable, Sendable {
    public var minimumMagnitude: Double?
    public var home: GeoPoint?
    public var homeName: String?
    public var radius: Double?
    /// Quakes older than this when they arrive do not alert.
    public var maximumAge: TimeInterval = 86_400

    public init(minimumMagnitude: Double? = nil, home: GeoPoint? = nil, homeName: String? = nil, radius: Double? = nil) {
        self.minimumMagnitude = minimumMagnitude
        self.home = home
        self.homeName = homeName
        self.radius = radius
    }

    public init(_ storage: AppStorage) {
        let home = storage.value(for: AppKeys.home)
        self.init(minimumMagnitude: storage.value(for: AppKeys.alertMagnitude),
                  home: home.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) },
                  homeName: home?.name, radius: storage.value(for: AppKeys.alertRadius))
    }

    /// Whether any condition is set.
    public var isEnabled: Bool { minimumMagnitude != nil || (home != nil && radius != nil) }

    /// Why a quake alerts.
    public struct Alert: Equatable, Sendable {
        public var code: String
        public var magnitude: Double?
        public var place: String
        /// Kilometres and degrees from home, when a home is set.
        public var distance: Double?
        public var bearing: Double?
        public var isNearHome: Bool

        /// One line for the status line: `ALERT M 6.2 124 km E of Gigmoto, Philippines — 530 km SW of home`.
        public func sentence(miles: Bool, homeName: String?) -> String {
            var text = "ALERT " + (magnitude.map { String(format: "M %.1f", $0) } ?? "M —") + " " + place
            if let distance, let bearing {
                let value = miles ? distance / 1.609344 : distance
                text += String(format: " — %.0f %@ %@ of %@", value, miles ? "mi" : "km",
                               GeoPoint.compassPoint(bearing), homeName ?? "home")
            }
            return text
        }
    }

    /// The alert `quake` raises on arrival at `now`, or nil.
    public func alert(for quake: QuakeRecord, now: Date) -> Alert? {
        guard isEnabled else { return nil }
        let age = now.timeIntervalSince1970 - Double(quake.time) / 1000
        guard age <= maximumAge else { return nil }
        let epicentre = GeoPoint(latitude: quake.latitude, longitude: quake.longitude)
        let distance = home.map { $0.distance(to: epicentre) }
        let isNear = distance.flatMap { d in radius.map { d <= $0 } } ?? false
        let isLarge = minimumMagnitude.flatMap { m in quake.magnitude.map { $0 >= m } } ?? false
        guard isNear || isLarge else { return nil }
        return Alert(code: quake.code, magnitude: quake.magnitude, place: quake.place, distance: distance,
                     bearing: home.map { $0.bearing(to: epicentre) }, isNearHome: isNear)
    }
}
