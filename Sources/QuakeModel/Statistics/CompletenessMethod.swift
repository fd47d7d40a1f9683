import Foundation

/// How the magnitude of completeness `Mc` is estimated from the counts per 0.1 bin (issue 54).
/// Every method reads only the counts per bin, so the statistics of 5,000,000 quakes, tallied in
/// C (`quaketui_digest_tally`), need no second pass over the rows. Trial values of `Mc` run over
/// the bins from the lowest populated one up; "at or above Mc" is every quake of a bin at or
/// above it. The details the papers leave open are stated per case.
///
/// ```swift
/// let counts = BinnedCounts(tenths: [20: 30, 21: 20, 22: 10])
/// CompletenessMethod.maxc.completenessTenth(of: counts)   // 22: the fullest bin 2.0, + 0.2
/// ```
public enum CompletenessMethod: String, CaseIterable, Sendable, Equatable {
    /// Maximum curvature with the +0.2 correction (Woessner & Wiemer 2005): the most populated
    /// bin (the lower magnitude on a tie), plus two bins. None when that is above the highest
    /// populated bin (every magnitude in one bin, or the fullest at the top): a curvature needs
    /// bins above it, and an `Mc` above every quake is not a completeness of any.
    case maxc
    /// Goodness of fit at 90 % (Wiemer & Wyss 2000): the lowest trial `Mc` at which the
    /// Gutenberg–Richter law fitted above it explains at least 90 % of the observed cumulative
    /// counts (`R ≥ 90`).
    case gft90
    /// Goodness of fit at 95 %, as `gft90`.
    case gft95
    /// b-value stability (Cao & Gao 2002, as Woessner & Wiemer 2005 state it): the lowest trial
    /// `Mc` whose b differs from the mean b of the window `Mc … Mc + 0.4` (5 trial values) by no
    /// more than b's Shi–Bolt error.
    case mbs

    /// The fewest quakes at or above a trial `Mc` that a b-value is estimated from, for the fit
    /// and for every trial of `gft` and `mbs`.
    public static let minimumFitCount = 50
    /// The bins `mbs` averages b over: `Mc`, `Mc + 0.1`, …, `Mc + 0.4`. The published
    /// "Mc to Mc + 0.5" with 0.1 bins reads as 5 or 6 values; ZMAP's `calc_McBvalue` averages 5.
    public static let stabilityWindow = 5

    /// The method's `Mc` in whole tenths, nil when the method finds none (no magnitude; for
    /// `maxc` an `Mc` above every quake; for `gft` no trial reaching its level; for `mbs` no
    /// stable trial): one rule for a list, each of its magnitude types and a sequence.
    /// ``failure(for:)`` says why.
    public func completenessTenth(of counts: BinnedCounts) -> Int? {
        guard !counts.isEmpty else { return nil }
        switch self {
        case .maxc:
            let mc = counts.fullestTenth + 2
            return mc <= counts.lowest + counts.counts.count - 1 ? mc : nil
        case .gft90: return goodnessOfFit(counts, level: 90)
        case .gft95: return goodnessOfFit(counts, level: 95)
        case .mbs: return stability(counts)
        }
    }

    /// Why the method gave no `Mc` for `counts`, in a sentence; nil when it gave one.
    public func failure(for counts: BinnedCounts) -> String? {
        guard completenessTenth(of: counts) == nil else { return nil }
        guard !counts.isEmpty else { return "No quake of the list has a usable magnitude." }
        if self != .maxc, counts.total < Self.minimumFitCount {
            return "Only \(CountFormat.quakes(counts.total)) with a usable magnitude: \(rawValue) tries an Mc only with "
                + "\(Self.minimumFitCount) or more at or above it."
        }
        switch self {
        case .maxc:
            let fullest = String(format: "%.1f", Double(counts.fullestTenth) / 10)
            if counts.counts.count == 1 {
                let bin = "the bin of M \(fullest): no spread, so no Mc by maximum curvature and no slope to fit."
                return counts.counts[0] == 1 ? "The one quake with a magnitude is in \(bin)"
                                             : "All \(CountFormat.quakes(counts.counts[0])) with a magnitude are in \(bin)"
            }
            return "No Mc by maxc: the fullest bin is M \(fullest), so Mc would be M "
                + String(format: "%.1f", Double(counts.fullestTenth + 2) / 10) + ", above every quake (the largest is M "
                + String(format: "%.1f", Double(counts.lowest + counts.counts.count - 1) / 10) + ")."
        case .gft90, .gft95:
            return "No Mc by \(rawValue): no trial Mc with \(Self.minimumFitCount) quakes or more above it has a "
                + "Gutenberg–Richter fit explaining \(self == .gft90 ? 90 : 95) % of the counts."
        case .mbs:
            return "No Mc by mbs: no trial Mc with \(Self.minimumFitCount) quakes or more above it has a b-value stable "
                + "within its error over the next \(Self.stabilityWindow - 1) bins."
        }
    }

    /// The goodness of fit (Wiemer & Wyss 2000, eq. 1): for each trial `Mc` with at least
    /// ``minimumFitCount`` quakes at or above it and an Aki–Utsu b, `a = log10(n) + b·Mc` and
    /// `R = 100 − 100 · Σ|Bᵢ − Sᵢ| / Σ Bᵢ`, summed over every bin `Mᵢ` from `Mc` to the highest
    /// populated bin (empty bins between included), `Bᵢ` the observed number at or above `Mᵢ`
    /// (cumulative, as the paper states) and `Sᵢ = 10^(a − b·Mᵢ)`. `Mc` is the lowest trial with
    /// `R ≥ level`; nil when none reaches it (no fallback to another method).
    package func goodnessOfFit(_ counts: BinnedCounts, level: Double) -> Int? {
        let atOrAbove = counts.atOrAbove
        for index in counts.counts.indices {
            guard atOrAbove[index] >= Self.minimumFitCount else { return nil }
            let mc = counts.lowest + index
            guard let fit = AkiUtsu(counts, from: mc) else { continue }
            let a = log10(Double(fit.n)) + fit.b * Double(mc) / 10
            var misfit = 0.0, observed = 0.0
            for bin in index ..< counts.counts.count {
                let b = Double(atOrAbove[bin])
                misfit += abs(b - pow(10, a - fit.b * Double(counts.lowest + bin) / 10))
                observed += b
            }
            if 100 - 100 * misfit / observed >= level { return mc }
        }
        return nil
    }

    /// b-value stability: for each trial `Mc` with at least ``minimumFitCount`` quakes at or
    /// above it, the Aki–Utsu b at `Mc` and at the next ``stabilityWindow`` − 1 bins (each with
    /// at least two quakes and a spread; a window that lacks one fails the trial);
    /// `Mc` is the lowest trial where `|mean(b window) − b(Mc)| ≤ σ_b(Mc)`, Shi–Bolt's error.
    package func stability(_ counts: BinnedCounts) -> Int? {
        let atOrAbove = counts.atOrAbove
        for index in counts.counts.indices {
            guard atOrAbove[index] >= Self.minimumFitCount else { return nil }
            let mc = counts.lowest + index
            let window = (0 ..< Self.stabilityWindow).compactMap { AkiUtsu(counts, from: mc + $0) }
            guard window.count == Self.stabilityWindow else { continue }
            let mean = window.reduce(0) { $0 + $1.b } / Double(window.count)
            if abs(mean - window[0].b) <= window[0].bError { return mc }
        }
        return nil
    }
}

/// Quakes per 0.1 bin from `lowest` (in whole tenths) up to the highest populated bin, every bin
/// between included: what the completeness methods and the fit read.
public struct BinnedCounts: Sendable, Equatable {
    /// The lowest populated bin, in whole tenths (`25` is M 2.5).
    public let lowest: Int
    /// `counts[i]` quakes in bin `lowest + i`; the first and last are not zero.
    public let counts: [Int]

    /// The bins of `tenths` within ``MagnitudeFrequency/usableTenths`` (the others hold no
    /// usable magnitude).
    public init(tenths: [Int: Int]) {
        let populated = tenths.filter { $0.value > 0 && MagnitudeFrequency.usableTenths.contains($0.key) }
        guard let low = populated.keys.min(), let high = populated.keys.max() else {
            (lowest, counts) = (0, [])
            return
        }
        lowest = low
        counts = (low ... high).map { populated[$0] ?? 0 }
    }

    package init(lowest: Int, counts: [Int]) {
        (self.lowest, self.counts) = (lowest, counts)
    }

    public var isEmpty: Bool { counts.isEmpty }
    public var total: Int { counts.reduce(0, +) }

    /// The most populated bin, the lower magnitude on a tie (of a non-empty list).
    public var fullestTenth: Int {
        var best = 0
        for index in counts.indices where counts[index] > counts[best] { best = index }
        return lowest + best
    }

    /// `atOrAbove[i]`: the quakes in bin `lowest + i` and above.
    package var atOrAbove: [Int] {
        var total = 0
        return counts.reversed().map { total += $0; return total }.reversed()
    }
}

/// Aki's (1965) maximum-likelihood b with Utsu's (1966) correction for 0.1 bins, over the binned
/// magnitudes at or above `Mc`: `b = log10(e) / (mean − (Mc − 0.05))`, and its error by Shi &
/// Bolt (1982): `σ_b = 2.30 b² √(Σ(Mᵢ − mean)² / (n(n − 1)))`. Sums run in magnitude order over
/// whole tenths (exact integers until the last division).
package struct AkiUtsu: Equatable {
    package let b: Double
    package let bError: Double
    package let n: Int

    /// nil with fewer than two quakes at or above `mc`, or all of them in one bin (no spread: no
    /// slope), or a b that is not a positive finite number.
    package init?(_ counts: BinnedCounts, from mc: Int) {
        let start = max(0, mc - counts.lowest)
        guard start < counts.counts.count else { return nil }
        var n = 0, tenths = 0, populated = 0
        for index in start ..< counts.counts.count where counts.counts[index] > 0 {
            n += counts.counts[index]
            tenths += counts.counts[index] * (counts.lowest + index)
            populated += 1
        }
        guard n >= 2, populated >= 2 else { return nil }
        let mean = Double(tenths) / Double(n) / 10
        var squares = 0.0
        for index in start ..< counts.counts.count where counts.counts[index] > 0 {
            let d = Double(counts.lowest + index) / 10 - mean
            squares += d * d * Double(counts.counts[index])
        }
        let b = log10(M_E) / (mean - (Double(mc) / 10 - 0.05))
        let bError = 2.30 * b * b * (squares / Double(n * (n - 1))).squareRoot()
        guard b > 0, b.isFinite, bError.isFinite else { return nil }
        (self.b, self.bError, self.n) = (b, bError, n)
    }
}
