import Foundation

/// One section of a sectioned fetch: its stable identifier, title and row count.
public struct QuakeSection: Hashable, Sendable {
    /// Stable across launches (saved in `ContentView.collapsedSections`): `2024-05-01`, `M 5`, a folded region.
    public let id: String
    public let title: String
    public internal(set) var count: Int
    let key: SectionKey
}

/// What bounds a section in SQL: a day of `time`, a magnitude bucket, or one `regionKey`.
enum SectionKey: Hashable, Sendable {
    /// `start ..< end` in ms since the epoch.
    case day(start: Int64, end: Int64)
    /// Whole-magnitude bucket: 6 is `M 6+`, 0 is `M <1` (negatives included), nil is `unknown`.
    case magnitude(Int?)
    case region(String)

    static func bucket(of magnitude: Double?) -> Int? {
        guard let magnitude else { return nil }
        return Int(max(0, min(6, magnitude.rounded(.down))))
    }

    static func magnitudeTitle(_ bucket: Int?) -> String {
        switch bucket {
        case nil: "unknown"
        case 0: "M <1"
        case 6: "M 6+"
        case let k?: "M \(k)"
        }
    }

    /// The SQL that selects this section's rows, with its arguments.
    var rangeSQL: (String, [SQLiteValue]) {
        switch self {
        case .day(let start, let end): ("time >= ? AND time < ?", [.integer(start), .integer(end)])
        case .magnitude(nil): ("magnitude IS NULL", [])
        case .magnitude(0): ("magnitude < 1", [])
        case .magnitude(6): ("magnitude >= 6", [])
        case .magnitude(let k?): ("magnitude >= ? AND magnitude < ?", [.real(Double(k)), .real(Double(k + 1))])
        case .region(let key): ("regionKey = ?", [.text(key)])
        }
    }
}

/// Day boundaries and titles in one time zone.
struct DayCalendar {
    let calendar: Calendar
    private let idFormatter: DateFormatter
    private let titleFormatter: DateFormatter

    init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        idFormatter = DateFormatter()
        idFormatter.locale = Locale(identifier: "en_US_POSIX")
        idFormatter.timeZone = timeZone
        idFormatter.dateFormat = "yyyy-MM-dd"
        titleFormatter = DateFormatter()
        titleFormatter.locale = Locale(identifier: "en_US_POSIX")
        titleFormatter.timeZone = timeZone
        titleFormatter.dateFormat = "EEEE, d MMMM yyyy"
    }

    /// Identifiers and titles already formatted, by day start: formatting dominates a section
    /// index of a few hundred days, and the same days come back on every sort change.
    private final class Names {
        var byStart: [Int64: (id: String, title: String)] = [:]
    }
    private let names = Names()

    /// The section key of the day containing `time` (ms): its bounds, nothing formatted.
    func key(containing time: Int64) -> SectionKey {
        let date = Date(timeIntervalSince1970: Double(time) / 1000)
        let interval = calendar.dateInterval(of: .day, for: date)!
        let start = Int64((interval.start.timeIntervalSince1970 * 1000).rounded())
        let end = Int64((interval.end.timeIntervalSince1970 * 1000).rounded())
        return .day(start: start, end: end)
    }

    /// The day containing `time` (ms): its bounds, identifier and title.
    func day(containing time: Int64) -> (key: SectionKey, id: String, title: String) {
        let key = key(containing: time)
        guard case .day(let start, _) = key else { preconditionFailure("a day key") }
        if let cached = names.byStart[start] { return (key, cached.id, cached.title) }
        let date = Date(timeIntervalSince1970: Double(start) / 1000)
        let named = (id: idFormatter.string(from: date), title: titleFormatter.string(from: date))
        names.byStart[start] = named
        return (key, named.id, named.title)
    }
}
