import Foundation
import QuakeModel

/// What arrived while a scene was away (issue 55): since its `ContentView.lastLooked` mark, the
/// quakes counted, the largest, how many are near home with the strongest shaking predicted there,
/// and the alerts they raised. Built as arrivals come in while the pane has no focus, or at a
/// relaunch from the quakes that arrived after the mark; said in one line when the scene comes
/// back:
///
/// ```swift
/// var away = AwaySummary(since: mark)
/// away.add(quakes, count: quakes.count, home: home, nearRadius: 300)
/// away.sentence(homeName: "Aksaray", now: now, timeZone: .gmt)
/// // "Since 02:14: 38 new, largest M 6.1 Vanuatu, 1 near Aksaray (IV)"
/// ```
public struct AwaySummary: Equatable, Sendable {
    /// When the scene last looked (the mark's time).
    public var since: Date
    /// How many quakes arrived since (more than `codes` after a bulk import).
    public var count = 0
    /// Their codes, oldest commit first (the first `LiveState.maximumTracked`): what `n` walks.
    public var codes: [String] = []
    /// The largest of them by magnitude (the first of equals): its magnitude and region.
    public var largest: (magnitude: Double, region: String)? {
        get { largestMagnitude.map { ($0, largestRegion) } }
        set { (largestMagnitude, largestRegion) = (newValue?.magnitude, newValue?.region ?? "") }
    }
    private var largestMagnitude: Double?
    private var largestRegion = ""
    /// How many are within `nearRadius` of home.
    public var nearHome = 0
    /// The strongest whole intensity predicted at home among those near it (nil: none known).
    public var strongestNearHome: Int?
    /// The alerts they raised (in order of arrival), which take the status line first.
    public var alerts: [AlertRule.Alert] = []

    public init(since: Date) { self.since = since }

    /// Takes in arrived `quakes` (of `count` in all: a bulk import lists only the first ones).
    /// Near home means within `nearRadius` km of `home` (the `~` filter's radius).
    /// `keepingCodes: false` keeps none (the quakes past those a read keeps, `UntrackedArrivals`).
    public mutating func add(_ quakes: some Sequence<QuakeRecord>, count: Int, home: GeoPoint?, nearRadius: Double,
                             keepingCodes: Bool = true) {
        self.count += count
        for quake in quakes {
            if keepingCodes, codes.count < LiveState.maximumTracked { codes.append(quake.code) }
            if let magnitude = quake.magnitude, magnitude > (largestMagnitude ?? -.infinity) {
                // The region as the list shows the place (a name in capitals title-cased).
                largest = (magnitude, QuakeFormat.singleLine(QuakeRecord.region(ofPlace: PlaceName.displayed(quake.place))))
            }
            guard let home else { continue }
            guard home.distance(to: GeoPoint(latitude: quake.latitude, longitude: quake.longitude)) <= nearRadius else { continue }
            nearHome += 1
            if let felt = FeltIntensity(home: home, latitude: quake.latitude, longitude: quake.longitude, depth: quake.depth,
                                        magnitude: quake.magnitude) {
                strongestNearHome = max(strongestNearHome ?? felt.whole, felt.whole)
            }
        }
    }

    /// Takes in the largest and those near home of `other`, quakes that came after the ones
    /// added (past those a read keeps: `UntrackedArrivals.summary`), already counted.
    public mutating func add(untracked other: AwaySummary) {
        if let theirs = other.largest, theirs.magnitude > (largestMagnitude ?? -.infinity) { largest = theirs }
        nearHome += other.nearHome
        if let strongest = other.strongestNearHome { strongestNearHome = max(strongestNearHome ?? strongest, strongest) }
    }

    /// Quakes deleted since they arrived are no longer counted, nor walked.
    public mutating func remove(_ removed: Set<String>) {
        let before = codes.count
        codes.removeAll { removed.contains($0) }
        count = max(codes.count, count - (before - codes.count))
    }

    /// `02:14` in `timeZone`, or `2026-11-30 02:14` when that is not today there.
    public static func time(_ date: Date, now: Date, timeZone: TimeZone) -> String {
        let milliseconds = { (date: Date) in Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
        let day = { (date: Date) in QuakeFormat.absolute(milliseconds(date), in: timeZone, withSeconds: false) }
        let mark = day(date)
        return mark.prefix(10) == day(now).prefix(10) ? String(mark.dropFirst(11)) : mark
    }

    /// `Since 02:14: 38 new, largest M 6.1 Vanuatu, 1 near Aksaray (IV)`: the mark's time in
    /// `timeZone` (with its date when that is not today's), home by its name (else `home`), and
    /// `up to` before the intensity when several are near home. Nil when nothing arrived.
    public func sentence(homeName: String?, now: Date, timeZone: TimeZone) -> String? {
        guard count > 0 else { return nil }
        var parts = ["Since \(Self.time(since, now: now, timeZone: timeZone)): \(CountFormat.grouped(count)) new"]
        if let largest {
            let what = "M \(QuakeFormat.magnitude(largest.magnitude)) \(largest.region)"
            parts.append(count == 1 ? what : "largest " + what)
        }
        if nearHome > 0 {
            let name = homeName.map(QuakeFormat.singleLine).flatMap { $0.isEmpty ? nil : $0 } ?? "home"
            let felt = strongestNearHome.map { " (\(nearHome > 1 ? "up to " : "")\(FeltIntensity.numeral($0)))" } ?? ""
            parts.append("\(CountFormat.grouped(nearHome)) near \(name)\(felt)")
        }
        return parts.joined(separator: ", ")
    }
}
