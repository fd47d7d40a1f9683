import Foundation
import QuakeScenes
import QuakeModel

/// When a newly arrived quake alerts (app storage `alertMagnitude`, `alertRadius` around `home`,
/// `alertIntensity` at `home`): at or above the magnitude, within the radius, or predicted to
/// shake home at least that strongly (`FeltIntensity`, to one decimal). Any one set turns
/// alerting on. Only quakes that happened recently alert, so importing history (`fetch` of
/// 2011) never rings for old quakes.
public struct AlertRule: Equatable, Sendable {
    public var minimumMagnitude: Double?
    public var home: GeoPoint?
    public var homeName: String?
    public var radius: Double?
    /// `alertIntensity`: the predicted intensity at home, to one decimal, that alerts.
    public var minimumIntensity: Double?
    /// Quakes older than this when they arrive do not alert.
    public var maximumAge: TimeInterval = 86_400

    public init(minimumMagnitude: Double? = nil, home: GeoPoint? = nil, homeName: String? = nil, radius: Double? = nil,
                minimumIntensity: Double? = nil) {
        self.minimumMagnitude = minimumMagnitude
        self.home = home
        self.homeName = homeName
        self.radius = radius
        self.minimumIntensity = minimumIntensity
    }

    public init(_ storage: AppStorage) {
        let home = storage.value(for: AppKeys.home)
        self.init(minimumMagnitude: storage.value(for: AppKeys.alertMagnitude),
                  home: home.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) },
                  homeName: home?.name, radius: storage.value(for: AppKeys.alertRadius),
                  minimumIntensity: storage.value(for: AppKeys.alertIntensity))
    }

    /// Whether any condition is set.
    public var isEnabled: Bool {
        minimumMagnitude != nil || (home != nil && (radius != nil || minimumIntensity != nil))
    }

    /// `alertIntensity` in tenths (4.5 → 45), the way `FeltIntensity.tenths` is compared.
    var minimumTenths: Int? { minimumIntensity.map(Self.tenths(atLeast:)) }

    /// The lowest intensity in tenths that is at least `minimum` (4.5 → 45, 4.55 → 46: an
    /// intensity is predicted to one decimal, and 4.5 is less than 4.55).
    public static func tenths(atLeast minimum: Double) -> Int { Int((minimum * 10 - 1e-9).rounded(.up)) }

    /// Why a quake alerts.
    public struct Alert: Equatable, Sendable {
        public var code: String
        public var magnitude: Double?
        public var place: String
        /// Kilometres and degrees from home, when a home is set.
        public var distance: Double?
        public var bearing: Double?
        public var isNearHome: Bool
        /// The intensity predicted at home (nil: no home or no magnitude).
        public var intensity: FeltIntensity?
        /// The PAGER level (`green` … `red`), as the feed spells it.
        public var pagerLevel: String?
        /// The other codes ComCat lists for the quake (`QuakeArrivals.aliases`): it has alerted
        /// if one of them has.
        public var aliases: [String] = []

        public init(code: String, magnitude: Double?, place: String, distance: Double? = nil, bearing: Double? = nil,
                    isNearHome: Bool = false, intensity: FeltIntensity? = nil, pagerLevel: String? = nil) {
            self.code = code
            self.magnitude = magnitude
            self.place = place
            self.distance = distance
            self.bearing = bearing
            self.isNearHome = isNearHome
            self.intensity = intensity
            self.pagerLevel = pagerLevel
        }

        /// One line for the status line, its distance as the list writes it and home by its name,
        /// what it means at home before the quake's place (a narrow pane cuts the end):
        /// `ALERT M 5.6 21 km N of Aksaray, predicted there: VI strong — 12 km NE of Aksaray, Turkey`.
        public func sentence(miles: Bool, homeName: String?) -> String {
            var text = "ALERT " + (magnitude.map { "M " + MagnitudeBin.text($0) } ?? "M —") + " "
            let place = QuakeFormat.singleLine(SafeText.sanitize(place))
            guard let distance, let bearing else { return text + place }
            text += QuakeFormat.fromHome(kilometres: distance, bearing: bearing, unit: miles ? .mi : .km, homeName: homeName)
            if let intensity { text += ", predicted there: \(intensity.label)" }
            return text + " — " + place
        }

        /// The PAGER level's rank, 1 (green) to 4 (red); 0 for none or another word.
        var pagerRank: Int {
            pagerLevel.flatMap { level in RowFilter.alertLevels.firstIndex(of: level.lowercased()).map { $0 + 1 } } ?? 0
        }

        /// Whether this alert matters more than `other`: stronger predicted shaking at home
        /// (to one decimal), then a higher PAGER level, then a larger magnitude; then the later
        /// arrival (`other` first when all are equal).
        public func mattersMore(than other: Alert) -> Bool {
            let a = (intensity?.tenths ?? 0, pagerRank), b = (other.intensity?.tenths ?? 0, other.pagerRank)
            if a != b { return a > b }
            return (magnitude ?? -.infinity) > (other.magnitude ?? -.infinity)
        }
    }

    /// The alert `quake` raises on arrival at `now`, or nil.
    public func alert(for quake: QuakeRecord, now: Date) -> Alert? {
        guard isEnabled else { return nil }
        let age = now.timeIntervalSince1970 - Double(quake.time) / 1000
        guard age <= maximumAge else { return nil }
        let epicentre = GeoPoint(latitude: quake.latitude, longitude: quake.longitude)
        let distance = home.map { $0.distance(to: epicentre) }
        let intensity = home.flatMap {
            FeltIntensity(home: $0, latitude: quake.latitude, longitude: quake.longitude, depth: quake.depth, magnitude: quake.magnitude)
        }
        let isNear = distance.flatMap { d in radius.map { d <= $0 } } ?? false
        let isLarge = minimumMagnitude.map { MagnitudeBin.isShown(quake.magnitude, atLeast: $0) } ?? false
        let isStrong = minimumTenths.flatMap { t in intensity.map { $0.tenths >= t } } ?? false
        guard isNear || isLarge || isStrong else { return nil }
        return Alert(code: quake.code, magnitude: quake.magnitude, place: quake.place, distance: distance,
                     bearing: home.map { $0.bearing(to: epicentre) }, isNearHome: isNear, intensity: intensity,
                     pagerLevel: quake.alert)
    }

    /// `alerts` with the one that matters most first (`Alert.mattersMore(than:)`), the others after
    /// it in the same order.
    public static func ranked(_ alerts: [Alert]) -> [Alert] {
        // A stable sort: equal alerts keep their order of arrival.
        alerts.enumerated().sorted { a, b in
            if a.element.mattersMore(than: b.element) { return true }
            if b.element.mattersMore(than: a.element) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }
}
