import Foundation

/// The timeline in calendar bins (issue 54): hours, days, weeks (from Monday), months, years or
/// decades of the statistics' zone, the finest unit whose bins from the first quake to the last
/// fit in the columns there are, every bin between included; each with its count and its
/// seismic moment (`CatalogueStatistics.dayMoments`). Hours only where the statistics keep them
/// (a list of under three days).
///
/// ```swift
/// let timeline = CalendarTimeline(statistics, columns: 60)
/// timeline?.unit        // .week
/// timeline?.bins.first  // (start, count, moment)
/// ```
public struct CalendarTimeline: Sendable, Equatable {
    public enum Unit: String, CaseIterable, Sendable {
        case hour, day, week, month, year, decade

        /// `hour`, `day` … as the title says it.
        public var name: String { rawValue }
    }

    public struct Bin: Sendable, Equatable {
        /// ms since the epoch.
        public let start: Int64
        public let count: Int
        /// N·m; 0 where the quakes were not read one by one.
        public let moment: Double
    }

    public let unit: Unit
    public let bins: [Bin]
    public let timeZone: TimeZone

    /// nil without a quake.
    public init?(_ statistics: CatalogueStatistics, columns: Int) {
        let hourly = statistics.hours
        let source: [Int64: Int] = hourly ?? statistics.days
        guard let first = source.keys.min(), let last = source.keys.max() else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = statistics.timeZone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        timeZone = statistics.timeZone
        let units = (hourly != nil ? Unit.allCases : Array(Unit.allCases.dropFirst()))
        var chosen: (Unit, [Int64])?
        for unit in units {
            let starts = Self.starts(unit, from: first, to: last, calendar: calendar, limit: max(1, columns))
            if let starts {
                chosen = (unit, starts)
                break
            }
        }
        let (unit, starts) = chosen ?? (.decade, Self.starts(.decade, from: first, to: last, calendar: calendar, limit: .max) ?? [first])
        self.unit = unit
        var counts = [Int](repeating: 0, count: starts.count), moments = [Double](repeating: 0, count: starts.count)
        func index(of time: Int64) -> Int {
            var lower = 0, upper = starts.count
            while upper - lower > 1 {
                let middle = (lower + upper) / 2
                if starts[middle] <= time { lower = middle } else { upper = middle }
            }
            return lower
        }
        for (start, count) in source { counts[index(of: start)] += count }
        for (start, moment) in hourly != nil ? statistics.hourMoments : statistics.dayMoments { moments[index(of: start)] += moment }
        bins = starts.indices.map { Bin(start: starts[$0], count: counts[$0], moment: moments[$0]) }
    }

    /// The starts of every `unit` bin from the one holding `first` to the one holding `last`;
    /// nil when there would be more than `limit`.
    static func starts(_ unit: Unit, from first: Int64, to last: Int64, calendar: Calendar, limit: Int) -> [Int64]? {
        func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
        func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
        if unit == .hour {
            let start = first - first.positiveRemainder(3_600_000)
            let count = (last - start) / 3_600_000 + 1
            guard count <= limit else { return nil }
            return (0 ..< count).map { start + $0 * 3_600_000 }
        }
        guard var start = startOf(unit, date(first), calendar: calendar) else { return nil }
        let end = date(last)
        var starts: [Int64] = []
        while start <= end {
            starts.append(ms(start))
            guard starts.count <= limit else { return nil }
            guard let next = step(unit, start, calendar: calendar), next > start else { break }
            start = next
        }
        return starts
    }

    static func startOf(_ unit: Unit, _ date: Date, calendar: Calendar) -> Date? {
        switch unit {
        case .hour: return date
        case .day: return calendar.startOfDay(for: date)
        case .week: return calendar.dateInterval(of: .weekOfYear, for: date)?.start
        case .month: return calendar.dateInterval(of: .month, for: date)?.start
        case .year: return calendar.dateInterval(of: .year, for: date)?.start
        case .decade:
            let year = calendar.component(.year, from: date)
            let decade = year - ((year % 10) + 10) % 10
            return calendar.date(from: DateComponents(year: decade, month: 1, day: 1))
        }
    }

    static func step(_ unit: Unit, _ date: Date, calendar: Calendar) -> Date? {
        switch unit {
        case .hour: return calendar.date(byAdding: .hour, value: 1, to: date)
        case .day: return calendar.date(byAdding: .day, value: 1, to: date)
        case .week: return calendar.date(byAdding: .day, value: 7, to: date).flatMap { startOf(.week, $0.addingTimeInterval(3600 * 12), calendar: calendar) }
        case .month: return calendar.date(byAdding: .month, value: 1, to: date)
        case .year: return calendar.date(byAdding: .year, value: 1, to: date)
        case .decade: return calendar.date(byAdding: .year, value: 10, to: date)
        }
    }

    /// The label of the bin starting at `start`: `04-01 13h`, `2023-04-01`, `2023-04` (a month),
    /// `2023`, `2020s`; a week by its Monday's day.
    public func label(_ start: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = switch unit {
        case .hour: "MM-dd HH'h'"
        case .day, .week: "yyyy-MM-dd"
        case .month: "yyyy-MM"
        case .year, .decade: "yyyy"
        }
        let text = formatter.string(from: Date(timeIntervalSince1970: Double(start) / 1000))
        return unit == .decade ? text + "s" : text
    }

    public var total: Int { bins.reduce(0) { $0 + $1.count } }
    public var totalMoment: Double { bins.reduce(0) { $0 + $1.moment } }
}
