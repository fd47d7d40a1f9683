import Foundation

/// What a list of quakes looks like at a glance (issue 32): its magnitude–frequency
/// distribution and Gutenberg–Richter fit, quakes per day, depths, and the regions with the most
/// quakes. Built by adding each quake of the list once, in any order.
///
/// ```swift
/// var stats = CatalogueStatistics(timeZone: TimeZone(identifier: "UTC")!)
/// stats.add(magnitude: 2.5, depth: 10, time: 1_700_000_000_000, region: "Alaska")
/// stats.magnitudes.fit?.b
/// ```
public struct CatalogueStatistics: Sendable, Equatable {
    /// The days' zone (the app setting `timeZone`, as the list's day sections).
    public let timeZone: TimeZone
    public private(set) var count = 0
    private var tenths: [Int: Int] = [:]
    /// Quakes per day, by the day's start (ms since the epoch, in `timeZone`).
    public private(set) var days: [Int64: Int] = [:]
    /// Quakes per depth bin, by the bin's lower edge in km (``DepthBins``).
    public private(set) var depths: [Double: Int] = [:]
    /// Quakes per region, by the region's title.
    public private(set) var regionCounts: [String: Int] = [:]
    /// Quakes per hour, by the hour's start (ms since the epoch), while the quakes added so far
    /// span under ``hourlySpan``; nil once they span more (the timeline is then per day). Hours
    /// are whole hours of UTC, which are whole hours of every zone but a few half-hour ones.
    public private(set) var hours: [Int64: Int]? = [:]
    /// The earliest and the latest quake's time (ms since the epoch); nil with no quake.
    public private(set) var timeRange: ClosedRange<Int64>?
    /// The ``largestCount`` largest quakes by magnitude, largest first (the earlier on a tie).
    public private(set) var largest: [Largest] = []
    private let calendar: Calendar
    /// The last day looked up: a list in time order meets each day many times in a row.
    private var lastDay: (start: Int64, end: Int64)?

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// A quake the timeline marks: one of the largest of the list.
    public struct Largest: Sendable, Equatable {
        public var magnitude: Double
        /// ms since the epoch.
        public var time: Int64
        public var region: String
    }

    /// How many of the largest quakes are kept (the timeline marks them).
    public static let largestCount = 3
    /// Under this span (ms) the timeline is per hour: three days.
    public static let hourlySpan: Int64 = 3 * 86_400_000

    public mutating func add(magnitude: Double?, depth: Double?, time: Int64, region: String) {
        count += 1
        if let magnitude, magnitude.isFinite {
            tenths[MagnitudeFrequency.tenth(of: magnitude), default: 0] += 1
            keepIfLargest(Largest(magnitude: magnitude, time: time, region: region))
        }
        let range = timeRange.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
        timeRange = range
        if hours != nil {
            if range.upperBound - range.lowerBound < Self.hourlySpan {
                hours![time - time.positiveRemainder(3_600_000), default: 0] += 1
            } else {
                hours = nil
            }
        }
        if let depth, depth.isFinite { depths[DepthBins.from(depth), default: 0] += 1 }
        days[dayStart(time), default: 0] += 1
        regionCounts[region, default: 0] += 1
    }

    public var magnitudes: MagnitudeFrequency { MagnitudeFrequency(tenths: tenths, count: count) }

    /// Days in order, as `yyyy-MM-dd` in `timeZone`, each with its count.
    public var daily: [(day: String, count: Int)] {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return days.keys.sorted().map { (formatter.string(from: Date(timeIntervalSince1970: Double($0) / 1000)), days[$0]!) }
    }

    /// Depth bins in order, as `(from, to, count)` in km.
    public var depthBins: [(from: Double, to: Double, count: Int)] {
        depths.keys.sorted().map { ($0, DepthBins.to($0), depths[$0]!) }
    }

    /// The `limit` regions with the most quakes, most first (ties by name).
    public func topRegions(_ limit: Int = 10) -> [(region: String, count: Int)] {
        Array(regionCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit).map { ($0.key, $0.value) })
    }

    /// Whether the timeline is per hour: the list spans under three days.
    public var isHourly: Bool { hours != nil }

    /// The timeline's bins in order, each with its start (ms since the epoch) and count: per hour
    /// under three days, else per day in `timeZone`.
    public var timeline: [(start: Int64, count: Int)] {
        let bins = hours ?? days
        return bins.keys.sorted().map { ($0, bins[$0]!) }
    }

    private mutating func keepIfLargest(_ quake: Largest) {
        guard largest.count < Self.largestCount || quake.magnitude > largest[largest.count - 1].magnitude else { return }
        let index = largest.firstIndex { quake.magnitude > $0.magnitude
            || (quake.magnitude == $0.magnitude && quake.time < $0.time) } ?? largest.endIndex
        largest.insert(quake, at: index)
        if largest.count > Self.largestCount { largest.removeLast() }
    }

    /// Equal counts in every bin, the same largest quakes and the same zone (the day cache aside).
    public static func == (lhs: CatalogueStatistics, rhs: CatalogueStatistics) -> Bool {
        lhs.count == rhs.count && lhs.tenths == rhs.tenths && lhs.days == rhs.days && lhs.hours == rhs.hours
            && lhs.depths == rhs.depths && lhs.regionCounts == rhs.regionCounts && lhs.timeRange == rhs.timeRange
            && lhs.largest == rhs.largest && lhs.timeZone == rhs.timeZone
    }

    private mutating func dayStart(_ time: Int64) -> Int64 {
        if let lastDay, lastDay.start <= time, time < lastDay.end { return lastDay.start }
        let date = Date(timeIntervalSince1970: Double(time) / 1000)
        let start = calendar.startOfDay(for: date)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        let day = (Int64((start.timeIntervalSince1970 * 1000).rounded(.down)), Int64((end.timeIntervalSince1970 * 1000).rounded(.down)))
        lastDay = day
        return day.0
    }
}

extension Int64 {
    /// The remainder in `0 ..< modulus`, also for times before 1970.
    func positiveRemainder(_ modulus: Int64) -> Int64 { ((self % modulus) + modulus) % modulus }
}

extension Connection {
    /// The statistics of every quake `request` matches (its order does not matter), in one pass
    /// over the rows the request's plan selects.
    public func catalogueStatistics(of request: SectionedFetchRequest) throws(SQLiteError) -> CatalogueStatistics {
        let (condition, arguments) = QueryPlan(request).rowWhere
        let statement = try prepare("SELECT magnitude, depth, time, region FROM quake WHERE \(condition)")
        try statement.bind(arguments)
        var statistics = CatalogueStatistics(timeZone: request.timeZone)
        while try statement.step() {
            statistics.add(magnitude: statement.optionalDouble(at: 0), depth: statement.optionalDouble(at: 1),
                           time: statement.int64(at: 2), region: statement.text(at: 3))
        }
        return statistics
    }
}
