import Foundation

/// The app-storage keys of SPEC §4.2, a public file format: never rename them.
public enum AppKeys {
    /// The USGS summary feeds `refresh` accepts: `{significant,4.5,2.5,1.0,all}_{hour,day,week,month}`.
    public static let feedNames: [String] = ["significant", "4.5", "2.5", "1.0", "all"].flatMap { level in
        ["hour", "day", "week", "month"].map { "\(level)_\($0)" }
    }

    /// `minimumMagnitude`: hide quakes below it; nil (the default) for no filter.
    public static let minimumMagnitude = AppKey<Double?>("minimumMagnitude", default: nil,
                                                         isValid: { $0.map { $0.isFinite } ?? true })
    /// `timeZone`: `utc` or `local` (default).
    public static let timeZone = AppKey<String>("timeZone", default: "local", isValid: { ["utc", "local"].contains($0) })
    /// `distanceUnit`: `km` (default) or `mi`.
    public static let distanceUnit = AppKey<String>("distanceUnit", default: "km", isValid: { ["km", "mi"].contains($0) })
    /// `refreshFeed`: the feed `r` refreshes, default `all_month`.
    public static let refreshFeed = AppKey<String>("refreshFeed", default: "all_month",
                                                   isValid: { feedNames.contains($0) })

    /// Checks for every key above, applied when the file is loaded.
    static let checks: [KeyCheck] = [
        KeyCheck(minimumMagnitude), KeyCheck(timeZone), KeyCheck(distanceUnit), KeyCheck(refreshFeed),
    ]
}
