import Foundation
import QuakeModel
import QuakeTUI

/// One quake as a line of text, the same in `list` and `watch` (issue 53):
/// `M  6.5 Mw    2016-10-30 06:40:17     9.2 km  3 km N Norcia (PG)  [ingv:8863681]  2 ag`.
///
/// The magnitude and its type (as the browser's column shows it, 4 cells), the time, the depth
/// (in the app setting `distanceUnit`, right-aligned, 9 wide, as the browser's depth column), the
/// place, the distance and direction from a point when there is one (`watch --near`), the code,
/// and `3 ag` when several agencies reported the event (the browser's agencies column). The type
/// and the agencies are `QuakeFormat.magnitudeType` and `QuakeFormat.agencies`, the browser's.
///
/// `watch` prints an event already stored again when its agencies change, the line ending with
/// what the event showed before that differs: `  2 ag  (was 1 ag)`, `  2 ag  (was [us7000m9g4])`
/// or `  2 ag  (was [us7000m9g4], 1 ag)`.
struct QuakeTextLine {
    private let formatter: DateFormatter
    let unit: DisplaySettings.DistanceUnit

    init(timeZone: TimeZone, unit: DisplaySettings.DistanceUnit) {
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        self.unit = unit
    }

    /// The line of `quake`, an event `agencies` agencies reported; `distance` (km) and `bearing`
    /// (degrees) from a point, when both are given, go before the code (`  14 km NNE`); `was`,
    /// what the event showed before its agencies changed, at the end.
    func text(_ quake: QuakeRecord, agencies: Int, distance: Double? = nil, bearing: Double? = nil,
              was: EarlierEvent? = nil) -> String {
        let magnitude = quake.magnitude.map { "M " + String(repeating: " ", count: max(0, 4 - MagnitudeBin.text($0).count)) + MagnitudeBin.text($0) } ?? "M  ?  "
        let type = QuakeFormat.magnitudeType(quake.magType) ?? "—"
        let typeCell = type + String(repeating: " ", count: max(0, QuakeFormat.magnitudeTypeWidth - TextWidth.of(type)))
        let time = formatter.string(from: Date(timeIntervalSince1970: Double(quake.time) / 1000))
        let depth = QuakeFormat.depth(kilometres: quake.depth, unit: unit)
        let place = quake.place.isEmpty ? "(no place)" : SafeText.sanitize(PlaceName.displayed(quake.place))
        var text = "\(magnitude) \(typeCell)  \(time)  "
            + String(repeating: " ", count: max(0, 9 - depth.count)) + "\(depth)  \(place)"
        if let distance, let bearing {
            let miles = unit == .mi
            text += String(format: "  %.0f %@ %@", miles ? distance / 1.609344 : distance, miles ? "mi" : "km",
                           GeoPoint.compassPoint(bearing))
        }
        let reported = QuakeFormat.agencies(agencies)
        text += "  [\(SafeText.sanitize(quake.code))]" + (reported.isEmpty ? "" : "  \(reported)")
        guard let was else { return text }
        let before = (was.code == quake.code ? [] : ["[\(SafeText.sanitize(was.code))]"])
            + (was.agencies == agencies ? [] : ["\(was.agencies) ag"])
        return before.isEmpty ? text : text + "  (was \(before.joined(separator: ", ")))"
    }
}
