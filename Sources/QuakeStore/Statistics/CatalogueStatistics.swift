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
public struct CatalogueStatistics: Sendable {
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
    private let calendar: Calendar
    /// The last day looked up: a list in time order meets each day many times in a row.
    private var lastDay: (start: Int64, end: Int64)?

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    public mutating func add(magnitude: Double?, depth: Double?, time: Int64, region: String) {
        count += 1
        if let magnitude, magnitude.isFinite { tenths[MagnitudeFrequency.tenth(of: magnitude), default: 0] += 1 }
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
