import Foundation

/// A typed key of app storage (`defaults.plist`) with its default, like SwiftUI's `@AppStorage`.
///
/// ```swift
/// let unit = appStorage.value(for: AppKeys.distanceUnit)   // "km" unless changed
/// ```
public struct AppKey<Value: PropertyListStorable>: Sendable {
    /// The key as written in `defaults.plist`.
    public let name: String
    /// The value when the key is missing, of the wrong type or invalid.
    public let defaultValue: Value
    /// Extra validation of a well-typed value.
    public let isValid: @Sendable (Value) -> Bool

    public init(_ name: String, default defaultValue: Value,
                isValid: @escaping @Sendable (Value) -> Bool = { _ in true }) {
        self.name = name
        self.defaultValue = defaultValue
        self.isValid = isValid
    }

    /// Decodes a stored item: nil if it has the wrong type or fails validation.
    func decode(_ item: PropertyListItem) -> Value? {
        guard let value = Value(propertyListItem: item), isValid(value) else { return nil }
        return value
    }
}

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
