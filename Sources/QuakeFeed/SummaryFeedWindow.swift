import Foundation

/// The time window and magnitude floor a USGS summary feed covers (issue 53): `all_day.geojson`
/// lists every ComCat event of the past day, `4.5_week.geojson` those of M 4.5 and up of the
/// past week (https://earthquake.usgs.gov/earthquakes/feed/v1.0/geojson.php). A refresh knows
/// from it which stored USGS reports the new feed should list: one inside the window and above
/// the floor that it no longer lists was deleted, or revised below the floor, and is marked
/// `withdrawn` rather than kept as current (`WriteTransaction.markAbsent`). The significant
/// feeds (a `sig` floor the store does not judge) and any other URL have no window.
public struct SummaryFeedWindow: Sendable, Equatable {
    /// How far back the feed reaches, in seconds.
    public var duration: TimeInterval
    /// The feed's magnitude floor; nil: every magnitude (`all`).
    public var minimumMagnitude: Double?

    public init(duration: TimeInterval, minimumMagnitude: Double?) {
        self.duration = duration
        self.minimumMagnitude = minimumMagnitude
    }

    /// The window of a summary feed's URL (`…/summary/2.5_day.geojson`), nil for anything else.
    public init?(url: URL) {
        let name = url.lastPathComponent
        guard url.path.contains("/summary/"), name.hasSuffix(".geojson") else { return nil }
        let parts = name.dropLast(".geojson".count).split(separator: "_")
        guard parts.count == 2 else { return nil }
        let durations: [Substring: TimeInterval] = ["hour": 3_600, "day": 86_400, "week": 7 * 86_400, "month": 30 * 86_400]
        guard let duration = durations[parts[1]] else { return nil }
        switch parts[0] {
        case "all": minimumMagnitude = nil
        case "1.0", "2.5", "4.5": minimumMagnitude = Double(parts[0])
        default: return nil
        }
        self.duration = duration
    }

    /// A margin at the window's old end: a report a minute inside it may have left a feed
    /// generated a little later than the refresh's clock says.
    public static let edgeMargin: TimeInterval = 120
}
