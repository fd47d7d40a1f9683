import Foundation

/// The magnitude–frequency distribution of a list and its Gutenberg–Richter fit,
/// `log10 N(≥M) = a − bM`, by the standard methods (ZMAP's, as in Wiemer & Wyss 2000; issue 54):
///
/// - a quake's bin is `floor(M × 10 + 0.5)` whole tenths, the bin of `t` tenths holding exactly
///   the magnitudes `(t − 0.5)/10 ≤ M < (t + 0.5)/10` (its edges, ``bins``); only magnitudes within
///   ``usableTenths`` (M −5 … 10, what imports accept) are binned, and the quakes without one
///   are counted in ``unusable``, so `bins` and `unusable` add up to `count`;
/// - `Mc`, the magnitude of completeness, by ``method`` (``CompletenessMethod``; maximum
///   curvature + 0.2 by default);
/// - `b` by Aki's (1965) maximum likelihood with Utsu's (1966) correction for binning:
///   `b = log10(e) / (mean(M ≥ Mc) − (Mc − 0.05))`, over the binned magnitudes;
/// - its error by Shi & Bolt (1982): `σ_b = 2.30 b² √(Σ(Mᵢ − mean)² / (n(n − 1)))`;
/// - `a = log10(n) + b·Mc`, with `n` the quakes at or above `Mc`.
///
/// With no `Mc` (the method cannot give one: ``CompletenessMethod``), fewer than
/// ``minimumFitCount`` quakes at or above it, or all of them in one bin (no spread), there is
/// no fit: `fit` is nil and `why` says so.
///
/// ```swift
/// let mfd = MagnitudeFrequency(tenths: [25: 120, 26: 98, 27: 80], count: 310)
/// mfd.fit?.b   // the b-value
/// ```
public struct MagnitudeFrequency: Sendable, Equatable {
    /// Quakes per bin, by whole tenths of magnitude (`25` is M 2.5), every usable bin that holds any.
    public let tenths: [Int: Int]
    /// Every quake of the list, with or without a magnitude.
    public let count: Int
    /// How `Mc` is estimated.
    public let method: CompletenessMethod
    /// The bins as a dense run of counts, what the methods read.
    public let binned: BinnedCounts

    /// The fewest quakes at or above `Mc` a b-value is estimated from.
    public static let minimumFitCount = CompletenessMethod.minimumFitCount
    /// The bins of usable magnitudes, M −5 … 10 (`QuakeRecord.supportedMagnitudes`): the bin of
    /// M 10 is 100 tenths. A magnitude outside (in a store written before imports refused them)
    /// counts as none.
    public static let usableTenths = -50 ... 100

    public init(tenths: [Int: Int], count: Int, method: CompletenessMethod = .maxc) {
        self.tenths = tenths.filter { $0.value > 0 && Self.usableTenths.contains($0.key) }
        self.count = count
        self.method = method
        self.binned = BinnedCounts(tenths: self.tenths)
    }

    /// The same counts with `Mc` by another method.
    public func using(_ method: CompletenessMethod) -> MagnitudeFrequency {
        MagnitudeFrequency(tenths: tenths, count: count, method: method)
    }

    /// The quakes of the list without a usable magnitude (none, or outside M −5 … 10).
    public var unusable: Int { count - binned.total }

    /// The bins in magnitude order, as `(from, to, count)`: the bin holds `from ≤ M < to`
    /// (the bin of M 1.1 is 1.05 … 1.15); every bin from the lowest to the highest that holds a
    /// quake, empty ones too (a gap in the distribution is a count of 0, not a missing line).
    public var bins: [(from: Double, to: Double, count: Int)] {
        guard let lowest = tenths.keys.min(), let highest = tenths.keys.max() else { return [] }
        return (lowest...highest).map { (MagnitudeBin.lowerEdge($0), MagnitudeBin.upperEdge($0), tenths[$0] ?? 0) }
    }

    /// Quakes at or above each bin, from the largest down: the cumulative curve `N(≥M)`.
    public var cumulative: [(magnitude: Double, count: Int)] {
        var total = 0
        return Array(tenths.keys.sorted(by: >).map { tenth in
            total += tenths[tenth]!
            return (Double(tenth) / 10, total)
        }.reversed())
    }

    /// `Mc` by ``method``, in tenths; nil with no usable magnitude or when the method finds none.
    public var completenessTenth: Int? { method.completenessTenth(of: binned) }

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
        return Self.fit(binned, above: mc)
    }

    /// The fit above `mc` tenths: nil with fewer than ``minimumFitCount`` quakes there or no spread.
    package static func fit(_ binned: BinnedCounts, above mc: Int) -> Fit? {
        guard let estimate = AkiUtsu(binned, from: mc), estimate.n >= minimumFitCount else { return nil }
        let completeness = Double(mc) / 10
        let a = log10(Double(estimate.n)) + estimate.b * completeness
        guard a.isFinite else { return nil }
        return Fit(completeness: completeness, b: estimate.b, bError: estimate.bError, a: a, n: estimate.n)
    }

    /// Why there is no fit, in a sentence for the view, the table and `warnings`; nil when there is one.
    public var why: String? {
        guard fit == nil else { return nil }
        if let failure = method.failure(for: binned) { return failure }
        let counts = binned.counts
        if counts.count == 1 {
            let bin = "the bin of M \(String(format: "%.1f", Double(binned.lowest) / 10)): no spread, no slope to fit."
            return counts[0] == 1 ? "The one quake with a magnitude is in \(bin)"
                                  : "All \(CountFormat.quakes(counts[0])) with a magnitude are in \(bin)"
        }
        guard let mc = completenessTenth else { return nil }
        let mcText = String(format: "%.1f", Double(mc) / 10)
        let start = max(0, mc - binned.lowest)
        let above = start < counts.count ? counts[start...] : []
        let n = above.reduce(0, +)
        guard n < Self.minimumFitCount else {
            return "The magnitudes at or above Mc \(mcText) do not spread: no slope to fit."
        }
        return n == 0 ? "No quake at or above Mc \(mcText); a b-value needs \(Self.minimumFitCount)."
                      : "Only \(CountFormat.quakes(n)) at or above Mc \(mcText); a b-value needs \(Self.minimumFitCount)."
    }
}

/// Depth bins of a list: 10 km wide to 100 km, 100 km wide below (a quake shown above sea level,
/// at a negative depth, falls in a 10 km bin above 0), of the depth as the list shows it, to a tenth of
/// a km rounded half up (``Tenths``): `0–10 km` holds the depths shown 0.0 … 9.9 km, stored
/// -0.05 ..< 9.95 (``storedEdges(_:)``); a depth of 9.96 km, shown `10.0 km`, is in `10–20 km`.
public enum DepthBins {
    /// The lower edge (whole km) of the bin that holds `depth` km as shown. A depth past what a
    /// tenth holds (9.2e17 km) has a bin of its own hundreds.
    public static func from(_ depth: Double) -> Double {
        guard let tenth = Tenths.tenth(of: depth) else { return (depth / 100).rounded(.down) * 100 }
        // Floored integer divisions of the tenth: exact, and -0.3 km (shown `-0.3`) is in -10 … 0.
        func floored(_ value: Int, by divisor: Int) -> Int {
            let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
            return remainder < 0 ? quotient - 1 : quotient
        }
        return Double(tenth < 1_000 ? floored(tenth, by: 100) * 10 : floored(tenth, by: 1_000) * 100)
    }

    /// The upper edge of the bin that starts at `from`.
    public static func to(_ from: Double) -> Double { from < 100 ? from + 10 : from + 100 }

    /// The stored depths the bin from `from` holds, `lower ..< upper`: those shown from `from` to
    /// just below `to(from)` (`10` → 9.95 ..< 19.95). `from(d) == f` exactly when `d` is in them,
    /// as SQL (`Schema.depthBucket`) and the depth sort's ranges test it.
    public static func storedEdges(_ from: Double) -> (lower: Double, upper: Double) {
        (storedLowerEdge(from), storedLowerEdge(to(from)))
    }

    /// The lowest stored depth shown at `edge` km or more, a whole km edge: `(20 × edge − 1) / 20`
    /// (an edge past 1e15 km is its own).
    private static func storedLowerEdge(_ edge: Double) -> Double {
        abs(edge) < 1e15 ? Tenths.lowerEdge(Int(edge) * 10) : edge
    }
}
