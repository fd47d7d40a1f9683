import Foundation

/// Where a store stops covering time: a gap between consecutive stored quakes far too long for
/// the store's own rate to be chance, as when a month of 2019 and a day of 2025 are imported
/// into one store. A sequence's window and its Omori fit end at the first such gap after the
/// mainshock (`AftershockSequence`), so six years without data are not read as six years
/// without aftershocks.
///
/// The rule, for a store of `N` quakes spanning `S` (its oldest to its newest quake): a gap `g`
/// is tested against a Poisson process at the rate of the rest of the store,
/// `λ = (N − 2) / (S − g)` (the other `N − 2` gaps over the time they span). The chance that
/// any of the store's `N − 1` gaps is `g` or longer is at most `(N − 1) e^(−λg)`; the gap ends
/// the coverage when that is below ``chance`` (10^−20). Solved for `g`: every gap longer than
/// `L S / (N − 2 + L)`, `L = ln(N − 1) + ln(1 / chance)`.
///
/// 10^−20 and not a usual level: real catalogues cluster (aftershocks) and change their rate
/// over decades, so their longest gaps are far longer than a Poisson process's. Across the
/// USGS feeds the tests read, single catalogues reach 10^−13 (the M 4+ of South America
/// 1921–2021, its sparse early decades) and 10^−5 (the M 2.5+ month of Ridgecrest); the six
/// years between a 2019 month and a 2025 day reach 10^−100,000.
///
/// ```swift
/// let longest = CatalogueCoverage.longestChanceGap(count: 3_278, span: span)   // ms, about 37 days
/// ```
public enum CatalogueCoverage {
    /// The chance below which a gap is not chance: 10^−20 (as a power of ten).
    public static let chanceExponent = -20.0

    /// A gap between consecutive stored quakes that ends the store's coverage.
    public struct Gap: Sendable, Equatable {
        /// ms since the epoch: the last quake before the gap, where the coverage ends.
        public var from: Int64
        /// ms since the epoch: the first quake after it.
        public var to: Int64

        public init(from: Int64, to: Int64) { (self.from, self.to) = (from, to) }

        /// The gap in days.
        public var days: Double { Double(to - from) / 86_400_000 }
    }

    /// The longest gap (ms) between consecutive quakes of a store of `count` quakes spanning
    /// `span` ms that is still chance; a longer one ends the coverage. nil with fewer than three
    /// quakes or no span: no rate to judge a gap by.
    public static func longestChanceGap(count: Int, span: Int64) -> Int64? {
        guard count >= 3, span > 0 else { return nil }
        let l = log(Double(count - 1)) - chanceExponent * log(10)
        let longest = l * Double(span) / (Double(count - 2) + l)
        return Int64(longest.rounded(.down))
    }

    /// Whether a store of `count` quakes from `oldest` to `newest` (ms since the epoch) covers
    /// time up to `now`: the time from its newest quake to `now` is taken as one more gap, and
    /// tested by the rule above (``longestChanceGap(count:span:)`` of the store with `now` as
    /// one more point: the rate is its `N − 1` gaps over its span, the gaps `N`). A `now` at or
    /// before the newest quake is covered; with fewer than two quakes there is no rate to judge
    /// by, and a later `now` is not.
    ///
    /// ```swift
    /// CatalogueCoverage.reachesNow(count: 3_278, oldest: june, newest: july19, now: years later)   // false
    /// ```
    public static func reachesNow(count: Int, oldest: Int64, newest: Int64, now: Int64) -> Bool {
        guard now > newest else { return true }
        let span = now.subtractingReportingOverflow(oldest)
        guard count >= 2, let longest = longestChanceGap(count: count + 1, span: span.overflow ? .max : span.partialValue) else { return false }
        return now - newest <= longest
    }

    /// The first gap longer than `longest` ms between consecutive `times` (in order) from
    /// `start` on: what the store's walk finds, stated plainly (the tests' reference).
    public static func firstGap(in times: [Int64], from start: Int64, longerThan longest: Int64) -> Gap? {
        var previous: Int64?
        for time in times where time >= start {
            if let previous, time - previous > longest { return Gap(from: previous, to: time) }
            previous = time
        }
        return nil
    }
}
