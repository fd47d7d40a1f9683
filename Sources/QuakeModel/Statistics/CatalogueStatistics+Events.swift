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
        including(ListComposition(events), times: events.times, magnitudes: events.magnitudes, declustered: declustered)
    }

    /// `including(_:declustered:)` with the composition counted by the caller and the quakes'
    /// times and magnitudes (NaN: no usable one) in time order, the earlier row first on equal
    /// times, or in the order of the positions `order` gives: the moments are summed in that
    /// order, so the pass over the digest (`Connection.catalogueSummary`) gives the very sums the
    /// rows give.
    package func including(_ composition: ListComposition, times: [Int64], magnitudes: [Double], order: [Int32]? = nil,
                           declustered: DeclusterSummary? = nil) -> CatalogueStatistics {
        var statistics = self
        statistics.composition = composition
        statistics.declustered = declustered
        var days: [Int64: Double] = [:], hours: [Int64: Double] = [:]
        // The times come in order, so a day's (an hour's) quakes are one run: each run is summed
        // apart and stored once, the same additions in the same order as a sum kept in the table.
        var day: (start: Int64, end: Int64)?, daySum = 0.0
        var hour: Int64?, hourSum = 0.0
        let hourly = isHourly
        var memo = SeismicMoment.Memo()
        func add(_ i: Int) {
            guard !magnitudes[i].isNaN else { return }
            let time = times[i], moment = memo.newtonMetres(magnitude: magnitudes[i])
            if day == nil || time < day!.start || time >= day!.end {
                if let day { days[day.start, default: 0] += daySum }
                (day, daySum) = (dayRange(of: time), 0)
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
        if let order {
            for position in order { add(Int(position)) }
        } else {
            for i in times.indices { add(i) }
        }
        if let day { days[day.start, default: 0] += daySum }
        if let hour { hours[hour, default: 0] += hourSum }
        statistics.dayMoments = days
        statistics.hourMoments = hours
        return statistics
    }

    /// The start and end (ms) of the day of `time` in `timeZone`, as `days` counts it.
    func dayRange(of time: Int64) -> (start: Int64, end: Int64) {
        let start = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(time) / 1000))
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        func milliseconds(_ date: Date) -> Int64 {
            let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
            return ms >= 9.2e18 ? .max : ms <= -9.2e18 ? .min : Int64(ms)
        }
        return (milliseconds(start), milliseconds(end))
    }
}
