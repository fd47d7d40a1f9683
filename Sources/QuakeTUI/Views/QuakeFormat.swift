import Foundation
import QuakeModel

/// Formats quake values for display: magnitudes, times, coordinates, depths.
public enum QuakeFormat {
    /// `6.1`, or `—` when unknown (as every other missing field shows): to a tenth, rounded half
    /// up, as every magnitude is shown and tested (`MagnitudeBin`).
    public static func magnitude(_ value: Double?) -> String {
        guard let value else { return "—" }
        return MagnitudeBin.text(value)
    }

    /// `now`, `42s ago`, `5m ago`, `3h ago`, `2d ago`, `5w ago`, `in 3m` for future times.
    public static func relative(_ time: Int64, now: Int64) -> String {
        // Any two Int64 times: their difference can overflow, a difference of seconds cannot.
        let (difference, overflow) = now.subtractingReportingOverflow(time)
        let seconds = overflow ? now / 1000 - time / 1000 : difference / 1000
        let magnitude = abs(seconds)
        let text: String
        switch magnitude {
        case ..<10: return "now"
        case ..<60: text = "\(magnitude)s"
        case ..<3600: text = "\(magnitude / 60)m"
        case ..<86_400: text = "\(magnitude / 3600)h"
        case ..<(86_400 * 14): text = "\(magnitude / 86_400)d"
        case ..<(86_400 * 365): text = "\(magnitude / (86_400 * 7))w"
        default: text = "\(magnitude / (86_400 * 365))y"
        }
        return seconds >= 0 ? "\(text) ago" : "in \(text)"
    }

    /// `2024-05-06 14:03:21 UTC` in a zone; `withSeconds: false` drops seconds and zone.
    public static func absolute(_ time: Int64, in zone: TimeZone, withSeconds: Bool = true) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: Double(time) / 1000)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
        guard withSeconds else { return day }
        let abbreviation = ["UTC", "GMT"].contains(zone.identifier) ? "UTC" : (zone.abbreviation(for: date) ?? zone.identifier)
        return day + String(format: ":%02d ", c.second!) + abbreviation
    }

    /// `35.69°N 139.69°E`.
    public static func coordinates(latitude: Double, longitude: Double) -> String {
        String(format: "%.2f°%@ %.2f°%@", abs(latitude), latitude >= 0 ? "N" : "S",
               abs(longitude), longitude >= 0 ? "E" : "W")
    }

    /// A depth given in km, in the chosen unit: `10.0 km` (to a tenth rounded half up, as its
    /// band and `:depth` test it: `Tenths`), `6.2 mi`.
    public static func depth(kilometres: Double?, unit: DisplaySettings.DistanceUnit) -> String {
        guard let kilometres else { return "—" }
        guard unit == .mi else { return Tenths.text(kilometres) + " km" }
        let miles = kilometres * 0.621_371
        // A depth of -0.01 km is `0.0 mi`, not `-0.0 mi`.
        return String(format: "%.1f mi", abs(miles) < 0.05 ? 0 : miles)
    }

    /// `1,234`: `CountFormat.grouped`, the one formatter of counts (the command line's too).
    public static func count(_ value: Int) -> String { CountFormat.grouped(value) }
}
