import Foundation
import QuakeModel

/// A report's versions on one line (issue 53): `mb 5.1 automatic 19:43 → Mww 5.4 reviewed 20:10
/// (moved 9 km E, depth 12.0 km) → deleted 20:20`. Each version shows its magnitude, its type and
/// status, and the time its agency made it (`updated`; a `withdrawn` version, quaketui's own, the
/// time the refresh that found the report gone ran); what moved is said where it changed: the epicentre
/// (from 1 km), the depth, the origin time. A time on another day than the version before it
/// carries its date.
public enum RevisionFormat {
    public static func line(_ versions: [ReportRevision], zone: TimeZone) -> String {
        var parts: [String] = []
        var previous: ReportRevision?
        // Versions whose magnitudes show alike but differ (2.96 → 2.97, both `3.0`) carry the
        // catalogue's digits, so a revision of the magnitude reads as one.
        let magnitudes = versions.compactMap(\.magnitude)
        let digits = Set(magnitudes).count > Set(magnitudes.map(MagnitudeBin.text)).count
        for version in versions {
            let stamp = QuakeFormat.absolute(version.shownTime, in: zone, withSeconds: false)
            let sameDay = previous.map { QuakeFormat.absolute($0.shownTime, in: zone, withSeconds: false).prefix(10) == stamp.prefix(10) } ?? false
            let time = sameDay ? String(stamp.suffix(5)) : stamp
            if let status = version.status, status.caseInsensitiveCompare("deleted") == .orderedSame {
                parts.append("deleted \(time)")
                previous = version
                continue
            }
            let shown = digits ? version.magnitude.map { "\($0)" } ?? QuakeFormat.magnitude(nil) : QuakeFormat.magnitude(version.magnitude)
            let magnitude = [version.magType, shown].compactMap { $0 }.joined(separator: " ")
            var text = [magnitude, version.status ?? "", time].filter { !$0.isEmpty }.joined(separator: " ")
            if let previous {
                var moved: [String] = []
                let from = GeoPoint(latitude: previous.latitude, longitude: previous.longitude)
                let to = GeoPoint(latitude: version.latitude, longitude: version.longitude)
                let km = from.distance(to: to)
                if km >= 1 { moved.append("moved \(Int(km.rounded())) km \(GeoPoint.compassPoint(from.bearing(to: to)))") }
                if previous.depth != version.depth {
                    // As shown (`Tenths`); the catalogue's digits where both show alike (10.0 → 10.04).
                    let alike = previous.depth.map(Tenths.text) == version.depth.map(Tenths.text)
                    moved.append("depth " + (version.depth.map { (alike ? "\($0)" : Tenths.text($0)) + " km" } ?? "unknown"))
                }
                if previous.time != version.time {
                    // Under a tenth of a second in ms (`time -30 ms`, not `time -0.0 s`).
                    let ms = version.time - previous.time
                    moved.append(abs(ms) < 50 ? "time \(ms > 0 ? "+" : "")\(ms) ms" : String(format: "time %+.1f s", Double(ms) / 1000))
                }
                if !moved.isEmpty { text += " (" + moved.joined(separator: ", ") + ")" }
            }
            parts.append(text)
            previous = version
        }
        return parts.joined(separator: " → ")
    }
}
