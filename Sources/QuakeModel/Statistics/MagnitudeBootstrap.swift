import Foundation

/// The bootstrap of `Mc` and b (issue 54): ``resamples`` catalogues of the list's size drawn
/// with replacement from its magnitudes, each given its own `Mc` (by the same method) and its
/// Aki–Utsu b above it; the standard deviations (n − 1 in the denominator) of those values are
/// the errors. Drawing `n` quakes with replacement from binned magnitudes is a multinomial draw
/// over the bins with the observed shares, so a resample is drawn from the counts per bin alone
/// (as a binomial per bin, conditioned on the bins before it: exact, and 256 draws whatever the
/// list's size), never from the rows. The generator is seeded with ``seed``: the same list gives
/// the same errors every time.
///
/// ```swift
/// let bootstrap = MagnitudeBootstrap(mfd)   // of a MagnitudeFrequency
/// bootstrap.bError                          // the standard deviation of b over the resamples
/// ```
public struct MagnitudeBootstrap: Sendable, Equatable {
    /// How many resamples are drawn.
    public static let resamples = 200
    /// The generator's seed (SplitMix64).
    public static let seed: UInt64 = 54

    /// The standard deviation of `Mc` over the resamples that gave one; nil with fewer than two.
    public let completenessError: Double?
    /// The standard deviation of b over the resamples that gave a fit; nil with fewer than two.
    public let bError: Double?
    /// The resamples that gave a fit (`Mc` and b), of ``resamples``.
    public let samples: Int

    public init(_ mfd: MagnitudeFrequency, resamples: Int = Self.resamples, seed: UInt64 = Self.seed) {
        var generator = SplitMix64(seed: seed)
        var completeness: [Double] = [], b: [Double] = []
        let binned = mfd.binned
        if !binned.isEmpty {
            for _ in 0 ..< resamples {
                let resample = BinnedCounts(lowest: binned.lowest, counts: Self.multinomial(binned.counts, using: &generator))
                guard let mc = mfd.method.completenessTenth(of: resample) else { continue }
                completeness.append(Double(mc))  // whole tenths: equal values have an SD of exactly 0
                if let fit = MagnitudeFrequency.fit(resample, above: mc) { b.append(fit.b) }
            }
        }
        completenessError = Self.standardDeviation(completeness).map { $0 / 10 }
        bError = Self.standardDeviation(b)
        samples = b.count
    }

    /// The sample standard deviation (n − 1), nil with fewer than two values.
    package static func standardDeviation(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }

    /// `sum(counts)` draws with replacement over the bins, bin `i` with probability
    /// `counts[i] / sum`: bin by bin, a binomial of the draws left with the bin's share of the
    /// quakes left.
    package static func multinomial(_ counts: [Int], using generator: inout SplitMix64) -> [Int] {
        var drawsLeft = counts.reduce(0, +), weightLeft = drawsLeft
        return counts.map { count in
            guard drawsLeft > 0, weightLeft > 0 else { return 0 }
            let drawn = count == weightLeft ? drawsLeft : binomial(drawsLeft, Double(count) / Double(weightLeft), using: &generator)
            drawsLeft -= drawn
            weightLeft -= count
            return drawn
        }
    }

    /// A binomial draw of `n` trials of probability `p`: by inversion where `n·min(p, 1 − p)`
    /// is under 10 (as numpy's `random_binomial_inversion`), else by Hörmann's (1993) BTRS
    /// transformed rejection: exact draws in constant expected time, whatever `n`.
    package static func binomial(_ n: Int, _ p: Double, using generator: inout SplitMix64) -> Int {
        guard n > 0, p > 0 else { return 0 }
        guard p < 1 else { return n }
        if p > 0.5 { return n - binomial(n, 1 - p, using: &generator) }
        let q = 1 - p, count = Double(n)
        if count * p < 10 {
            // Inversion: walk the probabilities from 0 until the uniform is used up.
            let s = p / q, a = (count + 1) * s
            let bound = min(count, count * p + 10 * (count * p * q + 1).squareRoot())
            while true {
                var r = exp(count * log1p(-p)), u = generator.nextUniform(), x = 0.0
                while u > r {
                    u -= r
                    x += 1
                    if x > bound { break }
                    r *= a / x - s
                }
                if x <= bound { return Int(x) }
            }
        }
        // BTRS (Hörmann 1993, "The generation of binomial random variates", algorithm BTRS).
        let spq = (count * p * q).squareRoot()
        let b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p, c = count * p + 0.5
        let alpha = (2.83 + 5.1 / b) * spq, vr = 0.92 - 4.2 / b, lpq = log(p / q)
        let m = ((count + 1) * p).rounded(.down)
        let h = lgamma(m + 1) + lgamma(count - m + 1)
        while true {
            let u = generator.nextUniform() - 0.5
            var v = generator.nextUniform()
            let us = 0.5 - abs(u)
            let k = ((2 * a / us + b) * u + c).rounded(.down)
            guard k >= 0, k <= count else { continue }
            if us >= 0.07, v <= vr { return Int(k) }
            v = log(v * alpha / (a / (us * us) + b))
            if v <= h - lgamma(k + 1) - lgamma(count - k + 1) + (k - m) * lpq { return Int(k) }
        }
    }
}

/// Steele, Lea & Flood's SplitMix64: a small seeded generator, the same numbers on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in (0, 1): 53 random bits, never 0.
    package mutating func nextUniform() -> Double { (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992 }
}
