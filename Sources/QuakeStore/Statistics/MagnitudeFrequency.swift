import Foundation

/// The magnitude–frequency distribution of a list and its Gutenberg–Richter fit,
/// `log10 N(≥M) = a − bM`, by the standard methods (ZMAP's, as in Wiemer & Wyss 2000):
///
/// - a quake's bin is `floor(M × 10 + 0.5) / 10` (kept here as whole tenths); quakes without a
///   magnitude count in `count` but in no bin;
/// - `Mc`, the magnitude of completeness, by maximum curvature: the most populated bin, the
///   lower magnitude on a tie;
/// - `b` by Aki's (1965) maximum likelihood with Utsu's (1966) correction for binning:
///   `b = log10(e) / (mean(M ≥ Mc) − (Mc − 0.05))`, over the binned magnitudes;
/// - its error by Shi & Bolt (1982): `σ_b = 2.30 b² √(Σ(Mᵢ − mean)² / (n(n − 1)))`;
/// - `a = log10(n) + b·Mc`, with `n` the quakes at or above `Mc`.
///
/// With fewer than ``minimumFitCount`` quakes at or above `Mc` there is no fit: `fit` is nil and
/// `why` says so.
///
/// ```swift
/// let mfd = MagnitudeFrequency(tenths: [25: 120, 26: 98, 27: 80], count: 310)
/// mfd.fit?.b   // the b-value
/// ```
public struct MagnitudeFrequency: Sendable, Equatable {
    /// Quakes per bin, by whole tenths of magnitude (`25` is M 2.5), every bin that holds any.
    public let tenths: [Int: Int]
    /// Every quake of the list, with or without a magnitude.
    public let count: Int

    /// The fewest quakes at or above `Mc` a b-value is estimated from.
    public static let minimumFitCount = 50

    public init(tenths: [Int: Int], count: Int) {
        self.tenths = tenths.filter { $0.value > 0 }
        self.count = count
    }

    /// The bin of magnitude `m`, in whole tenths: `floor(m × 10 + 0.5)`; nil past what an `Int`
    /// holds (the statistics bin only M -6.4 … 19.1, `CatalogueStatistics.Tally.tenthSlot`).
    public static func tenth(of magnitude: Double) -> Int? { Int(exactly: (magnitude * 10 + 0.5).rounded(.down)) }

    /// The bins in magnitude order, as `(from, to, count)` with `to = from + 0.1`.
    public var bins: [(from: Double, to: Double, count: Int)] {
        tenths.keys.sorted().map { (Double($0) / 10, Double($0 + 1) / 10, tenths[$0]!) }
    }

    /// Quakes at or above each bin, from the largest down: the cumulative curve `N(≥M)`.
    public var cumulative: [(magnitude: Double, count: Int)] {
        var total = 0
        return Array(tenths.keys.sorted(by: >).map { tenth in
            total += tenths[tenth]!
            return (Double(tenth) / 10, total)
        }.reversed())
    }

    /// `Mc` by maximum curvature, in tenths; nil with no magnitude at all.
    public var completenessTenth: Int? {
        tenths.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
    }

    /// The Gutenberg–Richter fit above `Mc`.
    public struct Fit: Sendable, Equatable {
        /// `Mc`, the magnitude of completeness.
        public let completeness: Double
        public let b: Double
        public let bError: Double
        public let a: Double
        /// Quakes at or above `Mc`.
        public let n: Int
    }

    public var fit: Fit? {
        guard let mc = completenessTenth else { return nil }
        // Summed in magnitude order: a dictionary's order changes from one process to the next,
        // and with it the last bits of the sums.
        let above = tenths.filter { $0.key >= mc }.sorted { $0.key < $1.key }
        let n = above.reduce(0) { $0 + $1.value }
        guard n >= Self.minimumFitCount, n > 1 else { return nil }
        let mean = above.reduce(0.0) { $0 + Double($1.key) / 10 * Double($1.value) } / Double(n)
        let completeness = Double(mc) / 10
        let b = log10(M_E) / (mean - (completeness - 0.05))
        let squares = above.reduce(0.0) { $0 + pow(Double($1.key) / 10 - mean, 2) * Double($1.value) }
        let bError = 2.30 * b * b * (squares / Double(n * (n - 1))).squareRoot()
        let a = log10(Double(n)) + b * completeness
        // Bins so far out that the sums lose their tenths leave no slope (b infinite or negative).
        // The statistics bin real magnitudes only, where b stays within (0, 8.69]; this guards
        // a `MagnitudeFrequency` made from other tenths.
        guard b > 0, b.isFinite, bError.isFinite, a.isFinite else { return nil }
        return Fit(completeness: completeness, b: b, bError: bError, a: a, n: n)
    }

    /// Why there is no fit, in a sentence for the view and the table; nil when there is one.
    public var why: String? {
        guard fit == nil else { return nil }
        guard let mc = completenessTenth else { return "No quake of the list has a magnitude." }
        let n = tenths.filter { $0.key >= mc }.values.reduce(0, +)
        guard n < Self.minimumFitCount else {
            return "The magnitudes at or above Mc \(String(format: "%.1f", Double(mc) / 10)) do not spread: no slope to fit."
        }
        return "Only \(CountFormat.quakes(n)) at or above Mc \(String(format: "%.1f", Double(mc) / 10)); "
            + "a b-value needs \(Self.minimumFitCount)."
    }
}

/// Depth bins of a list: 10 km wide to 100 km, 100 km wide below (a quake above sea level, at a
/// negative depth, falls in a 10 km bin above 0).
public enum DepthBins {
    /// The lower edge of the bin that holds `depth` km: always `from(d) <= d < to(from(d))`,
    /// as the depth sort's SQL ranges (`depth >= ? AND depth < ?`) test it.
    public static func from(_ depth: Double) -> Double {
        var from = depth < 100 ? (depth / 10).rounded(.down) * 10 : (depth / 100).rounded(.down) * 100
        // The division rounds (a depth just below an edge can come out on it): step to the bin
        // that holds it, so the histogram and the depth sort's sections never disagree.
        if depth < from {
            from -= from <= 100 ? 10 : 100
        } else if depth >= to(from) {
            from = to(from)
        }
        return from + 0  // a depth of -0 is in the bin 0, not -0
    }

    /// The upper edge of the bin that starts at `from`.
    public static func to(_ from: Double) -> Double { from < 100 ? from + 10 : from + 100 }
}
