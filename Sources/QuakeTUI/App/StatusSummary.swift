import Foundation
import QuakeModel

/// What `quaketui status` prints for tmux's `status-right` (`#(quaketui status)`): one short
/// line about the quake that matters now, or nothing.
///
/// The quake is the alert of the last 24 hours that matters most — the quakes whose origin time
/// is in the last 24 hours and that meet the alert rule (`alertMagnitude`, `alertRadius`,
/// `alertIntensity`), ranked as the browser ranks simultaneous alerts (`AlertRule.ranked`:
/// strongest predicted shaking at home, then PAGER level, then magnitude) — else the largest
/// quake of the last hour within `alertRadius` of home (300 km when unset); nothing without
/// either. Pure: the runtime reads the candidates (every quake of the last 24 hours, a range of
/// the time index) and the settings, and this decides and formats.
///
/// ```swift
/// StatusSummary(rule: rule, now: now).line(for: quakes, format: StatusSummary.defaultFormat(hasHome: true))
/// // "M5.6 21 km N · VI · 3m"
/// ```
public struct StatusSummary: Sendable {
    public var rule: AlertRule
    public var now: Date
    public var miles = false

    /// The radius of the last hour's fallback when `alertRadius` is unset, km.
    public static let defaultRadius = 300.0
    /// How far back an alert counts, and the fallback's window.
    public static let alertWindow: TimeInterval = 86_400
    public static let fallbackWindow: TimeInterval = 3_600

    public init(rule: AlertRule, now: Date, miles: Bool = false) {
        self.rule = rule
        self.now = now
        self.miles = miles
    }

    /// The default layout: magnitude, distance and direction from home, predicted intensity and
    /// age (`M5.6 21 km N · VI · 3m`); without a home, magnitude, place and age.
    public static func defaultFormat(hasHome: Bool) -> String { hasHome ? "%m %d %b · %i · %a" : "%m %p · %a" }

    /// The placeholders `--format` accepts, for the help and the errors.
    public static let placeholders: [(String, String)] = [
        ("%m", "magnitude (M5.6)"), ("%d", "distance from home (21 km)"), ("%b", "compass point from home (N)"),
        ("%i", "predicted intensity at home (VI)"), ("%I", "with its word (VI strong)"), ("%a", "age (3m)"),
        ("%p", "place"), ("%c", "code"), ("%%", "a %"),
    ]

    /// The quake to speak of among `quakes` (any order; those older than 24 hours are ignored), or nil.
    public func choose(_ quakes: [QuakeRecord]) -> QuakeRecord? {
        let byCode = Dictionary(quakes.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
        var alertRule = rule
        alertRule.maximumAge = Self.alertWindow
        let alerts = quakes.filter { age($0) >= -60 }.compactMap { alertRule.alert(for: $0, now: now) }
        if let lead = AlertRule.ranked(alerts).first { return byCode[lead.code] }
        guard let home = rule.home else { return nil }
        let radius = rule.radius ?? Self.defaultRadius
        let recent = quakes.filter { quake in
            let age = age(quake)
            return age >= -60 && age <= Self.fallbackWindow
                && home.distance(to: GeoPoint(latitude: quake.latitude, longitude: quake.longitude)) <= radius
        }
        return recent.max { ($0.magnitude ?? -.infinity, $0.time) < ($1.magnitude ?? -.infinity, $1.time) }
    }

    /// What a quake must meet to be a candidate of `choose` (a superset: an alert by any of the
    /// rule's conditions, or near home in the last hour), for the store to read no other row.
    public var candidates: RecentQuakeTerms {
        var terms = RecentQuakeTerms(minimumMagnitude: rule.minimumMagnitude)
        if let home = rule.home {
            if let radius = rule.radius { terms.near = (home, radius) }
            if let tenths = rule.minimumTenths { terms.intensity = (home, tenths) }
            let since = Int64((now.timeIntervalSince1970 - Self.fallbackWindow - 60) * 1000)
            terms.nearSince = (home, rule.radius ?? Self.defaultRadius, since)
        }
        return terms
    }

    /// The line for `quakes` in `format` (nil: `defaultFormat`), or "" when there is nothing to say.
    public func line(for quakes: [QuakeRecord], format: String? = nil) -> String {
        guard let quake = choose(quakes) else { return "" }
        return render(quake, format: format ?? Self.defaultFormat(hasHome: rule.home != nil))
    }

    /// `quake` in `format`: each placeholder replaced, the text sanitised and on one line.
    public func render(_ quake: QuakeRecord, format: String) -> String {
        let epicentre = GeoPoint(latitude: quake.latitude, longitude: quake.longitude)
        let felt = rule.home.flatMap {
            FeltIntensity(home: $0, latitude: quake.latitude, longitude: quake.longitude, depth: quake.depth, magnitude: quake.magnitude)
        }
        var out = ""
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { out.append(character); continue }
            switch characters.next() {
            case "m"?: out += quake.magnitude.map { "M" + MagnitudeBin.text($0) } ?? "M?"
            case "d"?: out += rule.home.map { QuakeFormat.homeDistance(kilometres: $0.distance(to: epicentre), unit: miles ? .mi : .km) } ?? ""
            case "b"?: out += rule.home.map { GeoPoint.compassPoint($0.bearing(to: epicentre)) } ?? ""
            case "i"?: out += felt.map { FeltIntensity.numeral($0.whole) } ?? ""
            case "I"?: out += felt?.label ?? ""
            case "a"?: out += Self.age(seconds: age(quake))
            case "p"?: out += Self.tmuxText(quake.place)
            case "c"?: out += Self.tmuxText(quake.code)
            case "%"?: out += "%"
            case let other?: out += "%" + String(other)
            case nil: out += "%"
            }
        }
        // One line, no control bytes (a place from a feed reaches the status bar as text only).
        return QuakeFormat.singleLine(out)
    }

    /// A feed's text as tmux shows it in a status line: each `#` doubled, so that a place cannot
    /// style the line (`#[…]`) or name a command (`#(…)`); tmux shows `##` as one `#`.
    static func tmuxText(_ text: String) -> String { text.replacingOccurrences(of: "#", with: "##") }

    /// Seconds from the quake's origin to `now`.
    func age(_ quake: QuakeRecord) -> TimeInterval { now.timeIntervalSince1970 - Double(quake.time) / 1000 }

    /// `45s`, `3m`, `2h` (whole units, rounded down; 0s for a time in the future).
    static func age(seconds: TimeInterval) -> String {
        let seconds = max(0, Int(seconds))
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3_600 { return "\(seconds / 60)m" }
        return "\(seconds / 3_600)h"
    }
}
