import Foundation

/// Whether a magnitude–frequency distribution has two modes (issue 54): the sign of a list that
/// mixes catalogues of different completeness (a local network's M 1 and a global one's M 4.5),
/// where a single `Mc` and b describe neither part.
///
/// The test, on the counts per 0.1 bin (every bin from the lowest populated to the highest):
/// 1. each bin's count is smoothed to the sum `sₖ` over the five bins `k − 2 … k + 2` (0.5
///    magnitude units, so that a catalogue rounded to 0.5 or with a preference for whole tenths
///    shows no false valleys);
/// 2. for each bin k taken as a valley, the highest smoothed count at least five bins below it,
///    `L`, and at least five bins above it, `R` (their windows and the valley's do not overlap,
///    so the three are independent Poisson counts);
/// 3. with `m = min(L, R)`, the valley is significant when `m − sₖ ≥ 4 √(m + sₖ)` (four
///    standard deviations of the difference of two Poisson counts: the maxima are chosen among
///    many bins, so a stricter level than the usual 2–3 keeps a single Gutenberg–Richter
///    distribution with its detection ramp from ever reaching it in the tests' thousands of
///    draws) and `sₖ ≤ 0.8 m` (a dip of at least a fifth, so that a huge list does not report
///    a trace);
/// 4. the distribution is bimodal when some valley is significant; the modes reported are the
///    centres of `L`'s and `R`'s windows for the valley with the largest `(m − sₖ) / √(m + sₖ)`.
///
/// ```swift
/// Bimodality(counts)?.modes   // (10, 44): M 1.0 and M 4.4, or nil for one mode
/// ```
public struct Bimodality: Sendable, Equatable {
    /// The two modes' bins in whole tenths, lower first.
    public let modes: (low: Int, high: Int)
    /// The valley's bin in whole tenths.
    public let valley: Int
    /// `(m − sₖ) / √(m + sₖ)` of that valley.
    public let significance: Double

    public static let window = 2
    public static let separation = 5
    public static let level = 4.0
    public static let depth = 0.8

    public init?(_ counts: BinnedCounts) {
        let n = counts.counts.count
        guard n > 2 * Self.separation else { return nil }
        var smoothed = [Int](repeating: 0, count: n)
        for k in 0 ..< n {
            for i in max(0, k - Self.window) ... min(n - 1, k + Self.window) { smoothed[k] += counts.counts[i] }
        }
        // The highest smoothed count (the lower bin on a tie) at or below each bin, and at or above it.
        var leftBest = [Int](repeating: 0, count: n), rightBest = [Int](repeating: 0, count: n)
        for k in 0 ..< n { leftBest[k] = k > 0 && smoothed[leftBest[k - 1]] >= smoothed[k] ? leftBest[k - 1] : k }
        for k in stride(from: n - 1, through: 0, by: -1) {
            rightBest[k] = k < n - 1 && smoothed[rightBest[k + 1]] > smoothed[k] ? rightBest[k + 1] : k
        }
        var best: (Int, Int, Int, Double)?
        for k in Self.separation ..< (n - Self.separation) {
            let l = leftBest[k - Self.separation], r = rightBest[k + Self.separation]
            let m = Double(min(smoothed[l], smoothed[r])), s = Double(smoothed[k])
            guard m > 0, m - s >= Self.level * (m + s).squareRoot(), s <= Self.depth * m else { continue }
            let z = (m - s) / (m + s).squareRoot()
            if best == nil || z > best!.3 { best = (l, k, r, z) }
        }
        guard let (l, k, r, z) = best else { return nil }
        modes = (counts.lowest + l, counts.lowest + r)
        valley = counts.lowest + k
        significance = z
    }

    public static func == (lhs: Bimodality, rhs: Bimodality) -> Bool {
        lhs.modes == rhs.modes && lhs.valley == rhs.valley && lhs.significance == rhs.significance
    }
}
