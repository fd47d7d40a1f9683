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
    public var count: Int { Int(tally.runs.count) }
    // The settled counts; `tally` holds those added since (`settle()`), and the getters add both.
    private var settledTenths: [Int: Int] = [:]
    private var settledDays: [Int64: Int] = [:]
    private var settledDepths: [Double: Int] = [:]
    private var settledRegions: [String: Int] = [:]
    private var settledHours: [Int64: Int] = [:]
    /// Internal for the pass over the digest, which counts into it in C (SQLite/DigestTally.swift).
    package var tally = Tally()
    /// The earliest and the latest quake's time (ms since the epoch); nil with no quake.
    public var timeRange: ClosedRange<Int64>? { count > 0 ? tally.runs.earliest...tally.runs.latest : nil }
    /// The ``largestCount`` largest quakes by magnitude, largest first (the earlier on a tie).
    public private(set) var largest: [Largest] = []
    private let calendar: Calendar

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
    public static let hourlySpan = Tally.hourlySpan

    public mutating func add(magnitude: Double?, depth: Double?, time: Int64, region: String) {
        var region = region
        region.withUTF8 { add(magnitude: magnitude, depth: depth, time: time, region: UnsafeRawBufferPointer($0)) }
    }

    /// `add` with the region as UTF-8 bytes (valid only during the call): a scan's rows need
    /// no `String` of it.
    package mutating func add(magnitude: Double?, depth: Double?, time: Int64, region: UnsafeRawBufferPointer) {
        add(magnitude: magnitude, depth: depth, time: time) { String(decoding: region, as: UTF8.self) }
        tally.regions.add(region)
    }

    /// Everything `add` counts but the quake's region, which the caller counts
    /// (`addRegionCounts`); `region` gives its title for one of the largest quakes. `band` is the
    /// depth's band as the store keeps it (`DepthBands.bucket`, the digest's slots), the histogram's
    /// bin wherever the histogram has a slot: a scan of the digest passes it instead of dividing the
    /// depth again for every row (23% of `perf`'s samples of the pass at 5,000,000 quakes).
    package mutating func add(magnitude: Double?, depth: Double?, band: Int32? = nil, time: Int64, region: () -> String) {
        tally.runs.count += 1
        tally.isEmpty = false
        // A magnitude off the tally's bins (M -6.4 … 19.1: every real one) counts as none: a
        // feed's 1e17 would stretch the chart over 10^18 bins and turn the fit to nonsense.
        if let magnitude, let slot = Tally.tenthSlot(of: magnitude) {
            tally.tenths[slot] += 1
            if largest.count < Self.largestCount || Self.isLarger(magnitude, time, than: largest[largest.count - 1]) {
                keepIfLargest(Largest(magnitude: magnitude, time: time, region: region()))
            }
        }
        tally.runs.earliest = min(tally.runs.earliest, time)
        tally.runs.latest = max(tally.runs.latest, time)
        countHour(time)
        if let depth, depth.isFinite {
            if let slot = band.flatMap(Tally.depthSlot(ofBand:)) {
                tally.depths[slot] += 1
            } else {
                let from = DepthBins.from(depth)
                if let slot = Tally.depthSlot(of: from) {
                    tally.depths[slot] += 1
                } else {
                    settledDepths[from, default: 0] += 1
                }
            }
        }
        countDay(time)
    }

    /// Quakes per region title counted by the caller, for the quakes given to
    /// `add(magnitude:depth:time:region:)` without their region.
    package mutating func addRegionCounts(_ counts: [String: Int]) {
        for (region, count) in counts { settledRegions[region, default: 0] += count }
    }

    /// Moves the tally into the dictionaries: the getters then read them as they are.
    package mutating func settle() {
        guard !tally.isEmpty else { return }
        settledTenths = allTenths
        settledDays = days
        settledDepths = depths
        settledRegions = regionCounts
        if let hours { settledHours = hours }
        // The bins start again; the quakes' count and range, and the last day looked up, stay.
        var runs = tally.runs
        (runs.dayCount, runs.hasHour) = (0, 0)
        tally = Tally()
        tally.runs = runs
    }

    private var allTenths: [Int: Int] {
        guard !tally.isEmpty else { return settledTenths }
        var tenths = settledTenths
        for slot in tally.tenths.indices where tally.tenths[slot] > 0 {
            tenths[slot + Tally.tenthBase, default: 0] += tally.tenths[slot]
        }
        return tenths
    }

    /// Quakes per day, by the day's start (ms since the epoch, in `timeZone`).
    public var days: [Int64: Int] {
        let runs = tally.runs
        guard runs.hasDay != 0, runs.dayCount > 0 else { return settledDays }
        var days = settledDays
        days[runs.dayStart, default: 0] += Int(runs.dayCount)
        return days
    }

    /// Quakes per depth bin, by the bin's lower edge in km (``DepthBins``).
    public var depths: [Double: Int] {
        guard !tally.isEmpty else { return settledDepths }
        var depths = settledDepths
        for slot in tally.depths.indices where tally.depths[slot] > 0 {
            depths[Tally.depthFrom(slot: slot), default: 0] += tally.depths[slot]
        }
        return depths
    }

    /// Quakes per region, by the region's title.
    public var regionCounts: [String: Int] {
        guard !tally.regions.isEmpty else { return settledRegions }
        var regions = settledRegions
        tally.regions.add(into: &regions)
        return regions
    }

    /// Quakes per hour, by the hour's start (ms since the epoch), while the quakes added so far
    /// span under ``hourlySpan``; nil once they span more (the timeline is then per day). Hours
    /// are whole hours of UTC, which are whole hours of every zone but a few half-hour ones.
    public var hours: [Int64: Int]? {
        let runs = tally.runs
        guard runs.countsHours != 0 else { return nil }
        var hours = settledHours
        if runs.hasHour != 0 { hours[runs.hourStart, default: 0] += Int(runs.hourCount) }
        return hours
    }

    public var magnitudes: MagnitudeFrequency { MagnitudeFrequency(tenths: allTenths, count: count) }

    /// Days in order, as `yyyy-MM-dd` in `timeZone`, each with its count.
    public var daily: [(day: String, count: Int)] {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        let days = days
        return days.keys.sorted().map { (formatter.string(from: Date(timeIntervalSince1970: Double($0) / 1000)), days[$0]!) }
    }

    /// Depth bins in order, as `(from, to, count)` in km.
    public var depthBins: [(from: Double, to: Double, count: Int)] {
        let depths = depths
        return depths.keys.sorted().map { ($0, DepthBins.to($0), depths[$0]!) }
    }

    /// The `limit` regions with the most quakes, most first (ties by name).
    public func topRegions(_ limit: Int = 10) -> [(region: String, count: Int)] {
        Array(regionCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit).map { ($0.key, $0.value) })
    }

    /// Whether the timeline is per hour: the list spans under three days.
    public var isHourly: Bool { tally.runs.countsHours != 0 }

    /// The timeline's bins in order, each with its start (ms since the epoch) and count: per hour
    /// under three days, else per day in `timeZone`.
    public var timeline: [(start: Int64, count: Int)] {
        let bins = hours ?? days
        return bins.keys.sorted().map { ($0, bins[$0]!) }
    }

    /// Whether a quake goes before `other` among the largest: a larger magnitude, or the same
    /// and earlier (on a tie of both, the one added first stays first).
    private static func isLarger(_ magnitude: Double, _ time: Int64, than other: Largest) -> Bool {
        magnitude > other.magnitude || (magnitude == other.magnitude && time < other.time)
    }

    private mutating func keepIfLargest(_ quake: Largest) {
        guard largest.count < Self.largestCount || Self.isLarger(quake.magnitude, quake.time, than: largest[largest.count - 1])
        else { return }
        let index = largest.firstIndex { Self.isLarger(quake.magnitude, quake.time, than: $0) } ?? largest.endIndex
        largest.insert(quake, at: index)
        if largest.count > Self.largestCount { largest.removeLast() }
        if largest.count == Self.largestCount, let smallest = largest.last {
            (tally.runs.keepsLargest, tally.runs.smallestLargestMagnitude, tally.runs.smallestLargestTime) = (1, smallest.magnitude, smallest.time)
        }
    }

    /// Equal counts in every bin, the same largest quakes and the same zone (however much of
    /// either is settled).
    public static func == (lhs: CatalogueStatistics, rhs: CatalogueStatistics) -> Bool {
        lhs.count == rhs.count && lhs.allTenths == rhs.allTenths && lhs.days == rhs.days && lhs.hours == rhs.hours
            && lhs.depths == rhs.depths && lhs.regionCounts == rhs.regionCounts && lhs.timeRange == rhs.timeRange
            && lhs.largest == rhs.largest && lhs.timeZone == rhs.timeZone
    }

    /// Counts a quake in its hour while the quakes span under ``hourlySpan``: in the run of the
    /// last hour, else in a new run (the old one settled). Past the span, hours are no longer kept.
    private mutating func countHour(_ time: Int64) {
        guard tally.runs.countsHours != 0 else { return }
        // Past the span, or an hour that Int64 cannot hold (a store edited by hand): per day.
        let span = tally.runs.latest.subtractingReportingOverflow(tally.runs.earliest)
        let start = time.subtractingReportingOverflow(time.positiveRemainder(3_600_000))
        guard !span.overflow, span.partialValue < Self.hourlySpan, !start.overflow, start.partialValue <= .max - 3_600_000 else {
            (tally.runs.countsHours, tally.runs.hasHour) = (0, 0)
            settledHours = [:]
            return
        }
        let hour = start.partialValue
        if tally.runs.hasHour != 0, tally.runs.hourStart == hour {
            tally.runs.hourCount += 1
            return
        }
        if tally.runs.hasHour != 0 { settledHours[tally.runs.hourStart, default: 0] += Int(tally.runs.hourCount) }
        (tally.runs.hasHour, tally.runs.hourStart, tally.runs.hourCount) = (1, hour, 1)
    }

    /// Counts a quake in its day: in the run of the last day looked up, else in a new run (the
    /// old one settled).
    private mutating func countDay(_ time: Int64) {
        let runs = tally.runs
        if runs.hasDay != 0, runs.dayStart <= time, time < runs.dayEnd {
            tally.runs.dayCount += 1
            return
        }
        if runs.hasDay != 0, runs.dayCount > 0 { settledDays[runs.dayStart, default: 0] += Int(runs.dayCount) }
        let date = Date(timeIntervalSince1970: Double(time) / 1000)
        let start = calendar.startOfDay(for: date)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        // A day at the ends of Int64's times (a store edited by hand) is cut there.
        func milliseconds(_ date: Date) -> Int64 {
            let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
            return ms >= 9.2e18 ? .max : ms <= -9.2e18 ? .min : Int64(ms)
        }
        (tally.runs.hasDay, tally.runs.dayCount) = (1, 1)
        (tally.runs.dayStart, tally.runs.dayEnd) = (milliseconds(start), milliseconds(end))
    }
}

extension Int64 {
    /// The remainder in `0 ..< modulus`, also for times before 1970.
    package func positiveRemainder(_ modulus: Int64) -> Int64 { ((self % modulus) + modulus) % modulus }
}
