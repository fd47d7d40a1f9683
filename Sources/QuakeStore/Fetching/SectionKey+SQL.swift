import QuakeModel
import Foundation
import QuakeTime

extension SectionKey {
    /// The SQL that selects this section's rows, with its arguments.
    var rangeSQL: (String, [SQLiteValue]) {
        switch self {
        case .day(let start, let last): ("time BETWEEN ? AND ?", [.integer(start), .integer(last)])
        case .magnitude(nil): ("magnitude IS NULL", [])
        case .magnitude(0): ("magnitude < ?", [.real(MagnitudeBands.lowerEdge(1))])
        case .magnitude(6): ("magnitude >= ?", [.real(MagnitudeBands.lowerEdge(6))])
        case .magnitude(let k?): ("magnitude >= ? AND magnitude < ?", [.real(MagnitudeBands.lowerEdge(k)), .real(MagnitudeBands.lowerEdge(k + 1))])
        case .region(let key): ("regionKey = ?", [.text(key)])
        case .depth(nil): ("depth IS NULL", [])
        case .depth(let lower?):
            ("depth >= ? AND depth < ?", [.real(DepthBands.bounds(lower).lower), .real(DepthBands.bounds(lower).upper)])
        case .distance(let lower, let upper) where upper.isInfinite: ("km >= ?", [.real(lower)])
        case .distance(let lower, let upper): ("km >= ? AND km < ?", [.real(lower), .real(upper)])
        }
    }

    /// A range's two edges.
    enum Edge { case lower, upper }

    /// `rangeSQL` without one edge (`open`), for a read bounded inside the section on that side
    /// by a row's keys: given both the section's edge and the row's keys on one side, SQLite
    /// seeks the edge and walks to the keys (at 5,000,000 quakes, 0.2 s through a depth band's
    /// blocks for the rows after the selection) instead of seeking the keys. A section that is
    /// not a range (unknown values, a region) keeps its whole term.
    func rangeSQL(open edge: Edge) -> (String, [SQLiteValue]) {
        let keepsUpper = edge == .lower
        let every: (String, [SQLiteValue]) = ("1", [])
        switch self {
        case .day(let start, let last): return keepsUpper ? ("time <= ?", [.integer(last)]) : ("time >= ?", [.integer(start)])
        case .magnitude(0): return keepsUpper ? rangeSQL : every
        case .magnitude(6): return keepsUpper ? every : rangeSQL
        case .magnitude(let k?):
            return keepsUpper ? ("magnitude < ?", [.real(MagnitudeBands.lowerEdge(k + 1))]) : ("magnitude >= ?", [.real(MagnitudeBands.lowerEdge(k))])
        case .depth(let lower?):
            let bounds = DepthBands.bounds(lower)
            return keepsUpper ? ("depth < ?", [.real(bounds.upper)]) : ("depth >= ?", [.real(bounds.lower)])
        case .distance(let lower, let upper):
            guard keepsUpper else { return ("km >= ?", [.real(lower)]) }
            return upper.isInfinite ? every : ("km < ?", [.real(upper)])
        case .magnitude(nil), .depth(nil), .region: return rangeSQL
        }
    }
}

/// Day boundaries and titles in one time zone.
struct DayCalendar {
    let calendar: Calendar
    private let idFormatter: DateFormatter
    private let titleFormatter: DateFormatter
    /// The day `find` answered last (shared by copies, which have the same time zone).
    private let lastDay = LockedValue<(start: Int64, end: Int64)?>(nil)

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

    /// The section key of the day containing `time` (ms), as `day(containing:)` bounds it,
    /// without its labels.
    func key(containing time: Int64) -> SectionKey { Self.key(of: find(time)) }

    /// The day containing `time` (ms): its bounds, identifier and title.
    ///
    /// The result always contains `time` (`start <= time <= last`), by construction: the
    /// section loops step past `last` (or before `start`), so they advance whatever the
    /// calendar does. Inside ``QuakeRecord/supportedTimes`` this is the calendar's day; if the
    /// calendar ever answers a day that does not hold `time`, the UTC day by arithmetic; outside
    /// that range, one open-ended section before it and one after it.
    func day(containing time: Int64) -> (key: SectionKey, id: String, title: String) {
        let found = find(time)
        let key = Self.key(of: found)
        switch found {
        case .beforeSupported: return (key, "before-0001", "Before the year 1")
        case .afterSupported: return (key, "after-9999", "After the year 9999")
        case .calendar(let start, _):
            let (id, title) = labels(ofDayStartingAt: Date(timeIntervalSince1970: Double(start) / 1000))
            return (key, id, title)
        case .utc(let start):
            let startDate = Date(timeIntervalSince1970: Double(start) / 1000)
            return (key, idFormatter.string(from: startDate), titleFormatter.string(from: startDate))
        }
    }

    /// Where `find` placed a time: `[start, end)` in ms.
    private enum FoundDay {
        case beforeSupported, afterSupported
        case calendar(start: Int64, end: Int64)
        case utc(start: Int64)
    }

    private static let dayLength: Int64 = 86_400_000

    private static func key(of found: FoundDay) -> SectionKey {
        let supported = QuakeRecord.supportedTimes
        switch found {
        case .beforeSupported: return .day(start: .min, last: supported.lowerBound - 1)
        case .afterSupported: return .day(start: supported.upperBound + 1, last: .max)
        // Clamped to the supported range, so the days and the two open-ended sections never overlap.
        case .calendar(let start, let end):
            return .day(start: max(start, supported.lowerBound), last: min(end - 1, supported.upperBound))
        case .utc(let start):
            return .day(start: max(start, supported.lowerBound), last: min(start + dayLength - 1, supported.upperBound))
        }
    }

    /// The calendar's day holding `time`, or the last one found when it holds `time` too: a merge
    /// asks for the day of every changed row, mostly the same one, and `Calendar.dateInterval`
    /// took 40 µs a call (a 300-quake refresh spent 12 ms of the browser's main thread there).
    private func find(_ time: Int64) -> FoundDay {
        let supported = QuakeRecord.supportedTimes
        if time < supported.lowerBound { return .beforeSupported }
        if time > supported.upperBound { return .afterSupported }
        if let last = lastDay.withLock({ $0 }), last.start <= time, time < last.end {
            return .calendar(start: last.start, end: last.end)
        }
        let date = Date(timeIntervalSince1970: Double(time) / 1000)
        if let interval = calendar.dateInterval(of: .day, for: date) {
            let start = Int64((interval.start.timeIntervalSince1970 * 1000).rounded())
            let end = Int64((interval.end.timeIntervalSince1970 * 1000).rounded())
            if start <= time, time < end {
                lastDay.withLock { $0 = (start, end) }
                return .calendar(start: start, end: end)
            }
        }
        return .utc(start: time - ((time % Self.dayLength) + Self.dayLength) % Self.dayLength)
    }

    /// The first instant of the Gregorian calendar (1582-10-15); Foundation's is Julian before it.
    private static let gregorianReform = Date(timeIntervalSince1970: -12_219_292_800)
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]

    /// The identifier (`yyyy-MM-dd`) and title (`EEEE, d MMMM yyyy`, en_US_POSIX) of the day
    /// starting at `start`, by arithmetic on its local date: two `DateFormatter` calls a day took
    /// a third of the first frame of a 5,000,000-quake store (1,826 days of sections). Before the
    /// Gregorian reform the formatters answer, as the calendar's Julian dates.
    private func labels(ofDayStartingAt start: Date) -> (id: String, title: String) {
        guard start >= Self.gregorianReform else { return (idFormatter.string(from: start), titleFormatter.string(from: start)) }
        let local = start.timeIntervalSince1970 + Double(calendar.timeZone.secondsFromGMT(for: start))
        let days = Int64((local / 86_400).rounded(.down))
        let (year, month, day) = CivilDate.date(days: days)
        let weekday = Self.weekdays[Int(((days % 7) + 11) % 7)]  // 1970-01-01 was a Thursday
        return (CivilDate.isoDate(days: days), "\(weekday), \(day) \(Self.months[Int(month) - 1]) \(CivilDate.digits(year, 4))")
    }
}
