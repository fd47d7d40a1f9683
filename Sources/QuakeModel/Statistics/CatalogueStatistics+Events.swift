import Foundation

/// Declustering as the statistics state it: the method and how many dependent quakes it removed
/// from the list (whose count was `count + removed`).
public struct DeclusterSummary: Sendable, Equatable {
    public let method: Declustering
    public let removed: Int

    public init(method: Declustering, removed: Int) {
        self.method = method
        self.removed = removed
    }
}

extension CatalogueStatistics {
    /// These statistics with what only the quakes one by one give (issue 54): the list's
    /// magnitude types and agencies, and the seismic moment per day and hour (every magnitude
    /// taken as a moment magnitude, `M0 = 10^(1.5 M + 9.1)` N·m; a quake without a usable
    /// magnitude adds none). `events` are the quakes these statistics counted.
    public func including(_ events: CatalogueEvents, declustered: DeclusterSummary? = nil) -> CatalogueStatistics {
        var moments = momentSums()
        for (time, magnitude) in zip(events.times, events.magnitudes) { moments.add(time: time, magnitude: magnitude) }
        return including(ListComposition(events), moments: moments, declustered: declustered)
    }

    /// `including(_:declustered:)` with the composition counted by the caller and the moments
    /// summed by it (`momentSums()`, the quakes given in time order).
    package func including(_ composition: ListComposition, moments: MomentSums,
                           declustered: DeclusterSummary? = nil) -> CatalogueStatistics {
        var statistics = self
        statistics.composition = composition
        statistics.declustered = declustered
        (statistics.dayMoments, statistics.hourMoments) = moments.sums()
        return statistics
    }

    /// Sums for the quakes these statistics counted, to be given in time order.
    package func momentSums() -> MomentSums { MomentSums(hourly: isHourly, dayRange: dayRange(of:)) }

    /// The seismic moment per day and hour of quakes given in time order, the earlier row first on
    /// equal times: the moments are summed in that order, so the pass over the digest
    /// (`Connection.catalogueSummary`) gives the very sums the rows give. A quake without a usable
    /// magnitude (NaN) adds none.
    package struct MomentSums {
        private let hourly: Bool
        private let dayRange: (Int64) -> (start: Int64, end: Int64)
        private var days: [Int64: Double] = [:], hours: [Int64: Double] = [:]
        // The times come in order, so a day's (an hour's) quakes are one run: each run is summed
        // apart and stored once, the same additions in the same order as a sum kept in the table.
        private var day: (start: Int64, end: Int64)?, daySum = 0.0
        private var hour: Int64?, hourSum = 0.0
        private var memo = SeismicMoment.Memo()

        init(hourly: Bool, dayRange: @escaping (Int64) -> (start: Int64, end: Int64)) {
            self.hourly = hourly
            self.dayRange = dayRange
        }

        package mutating func add(time: Int64, magnitude: Double) {
            guard !magnitude.isNaN else { return }
            add(time: time, moment: memo.newtonMetres(magnitude: magnitude))
        }

        /// Adds a quake's moment, `SeismicMoment.newtonMetres(magnitude:)` of its magnitude.
        package mutating func add(time: Int64, moment: Double) {
            if day == nil || time < day!.start || time >= day!.end {
                if let day { days[day.start, default: 0] += daySum }
                (day, daySum) = (dayRange(time), 0)
            }
            daySum += moment
            guard hourly else { return }
            let start = time - time.positiveRemainder(3_600_000)
            if start != hour {
                if let hour { hours[hour, default: 0] += hourSum }
                (hour, hourSum) = (start, 0)
            }
            hourSum += moment
        }

        /// The day and the hour quakes are summed in, and their sums so far: what a walk in C
        /// (`quaketui_time_order_walk`) carries between calls, adding the quakes inside both and
        /// leaving the first outside them to `add(time:moment:)`.
        package struct Open {
            package var day: (start: Int64, end: Int64)?
            package var daySum: Double
            package var hour: Int64?
            package var hourSum: Double
            package let hourly: Bool
        }

        package var open: Open {
            get { Open(day: day, daySum: daySum, hour: hour, hourSum: hourSum, hourly: hourly) }
            set { (day, daySum, hour, hourSum) = (newValue.day, newValue.daySum, newValue.hour, newValue.hourSum) }
        }

        /// The sums per day and per hour (by their start, ms).
        func sums() -> (days: [Int64: Double], hours: [Int64: Double]) {
            var (days, hours) = (days, hours)
            if let day { days[day.start, default: 0] += daySum }
            if let hour { hours[hour, default: 0] += hourSum }
            return (days, hours)
        }
    }

    /// The start and end (ms) of the day of `time` in `timeZone`, as `days` counts it.
    package func dayRange(of time: Int64) -> (start: Int64, end: Int64) {
        let start = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(time) / 1000))
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        func milliseconds(_ date: Date) -> Int64 {
            let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
            return ms >= 9.2e18 ? .max : ms <= -9.2e18 ? .min : Int64(ms)
        }
        return (milliseconds(start), milliseconds(end))
    }
}
