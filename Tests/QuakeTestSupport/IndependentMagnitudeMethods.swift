import Foundation

/// The methods as the README states them, written over a plain list of magnitudes.
public enum IndependentMagnitudeMethods {
    /// The bin in tenths whose edges (t − 0.5)/10 ≤ M < (t + 0.5)/10 hold `m`.
    public static func tenth(_ m: Double) -> Int {
        var t = Int((m * 10).rounded())
        if m < (Double(t) * 2 - 1) / 20 { t -= 1 }
        if m >= (Double(t) * 2 + 1) / 20 { t += 1 }
        return t
    }

    /// Aki–Utsu b and Shi–Bolt σ over the binned magnitudes (tenths) at or above `mc`.
    public static func b(_ tenths: [Int], mc: Int) -> (b: Double, sigma: Double, n: Int)? {
        Bins(tenths).b(mc: mc)
    }

    public static func maxc(_ tenths: [Int]) -> Int? {
        var counts: [Int: Int] = [:]
        for t in tenths { counts[t, default: 0] += 1 }
        guard let top = counts.values.max() else { return nil }
        // The fullest bin + 0.2, none above the largest magnitude (every one in one bin, say).
        let mc = counts.filter { $0.value == top }.keys.min()! + 2
        return mc <= counts.keys.max()! ? mc : nil
    }

    public static func gft(_ tenths: [Int], level: Double) -> Int? { Bins(tenths).gft(level: level) }

    public static func mbs(_ tenths: [Int]) -> Int? { Bins(tenths).mbs() }

    public static func mc(_ tenths: [Int], _ method: String) -> Int? {
        switch method {
        case "maxc": maxc(tenths)
        case "gft90": gft(tenths, level: 90)
        case "gft95": gft(tenths, level: 95)
        default: mbs(tenths)
        }
    }

    /// b⁺: successive differences of 0.2 and more, Aki–Utsu with the bin correction.
    public static func bPositive(_ tenthsInTimeOrder: [Int]) -> Double? {
        let differences = zip(tenthsInTimeOrder.dropFirst(), tenthsInTimeOrder).map { Double($0 - $1) / 10 }.filter { $0 >= 0.2 - 1e-9 }
        guard differences.count >= 50 else { return nil }
        return 1 / (log(10) * (differences.reduce(0, +) / Double(differences.count) - 0.15))
    }

    /// The standard deviation of b over 200 resamples drawn quake by quake with replacement.
    public static func bootstrapSigma(_ tenths: [Int], method: String, seed: UInt64) -> Double {
        var random = SeededGenerator(seed: seed)
        var values: [Double] = []
        for _ in 0 ..< 200 {
            let resample = tenths.map { _ in tenths[Int.random(in: 0 ..< tenths.count, using: &random)] }
            if let mc = mc(resample, method), let fit = b(resample, mc: mc), fit.n >= 50 { values.append(fit.b) }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }
}

/// The magnitudes counted by bin, with the count at or above each: every method here reads only
/// these, so a bootstrap's 200 resamples cost a count each, not a pass over the list per bin.
private struct Bins {
    let low: Int, high: Int
    /// `counts[t − low]`: the magnitudes in bin t; `atOrAbove[t − low]`: those in t and above.
    private var counts: [Int], atOrAbove: [Int]

    init(_ tenths: [Int]) {
        low = tenths.min() ?? 0
        high = tenths.max() ?? -1
        counts = Array(repeating: 0, count: max(0, high - low + 1))
        for t in tenths { counts[t - low] += 1 }
        atOrAbove = counts
        for i in atOrAbove.indices.reversed().dropFirst() { atOrAbove[i] += atOrAbove[i + 1] }
    }

    func count(atOrAbove t: Int) -> Int { t > high ? 0 : atOrAbove[max(t, low) - low] }

    func b(mc: Int) -> (b: Double, sigma: Double, n: Int)? {
        guard low <= high, mc <= high else { return nil }
        let bins = (max(mc, low) ... high).filter { counts[$0 - low] > 0 }
        let count = count(atOrAbove: mc)
        guard count >= 2, bins.count >= 2 else { return nil }
        let n = Double(count)
        let mean = bins.reduce(0) { $0 + Double(counts[$1 - low]) * Double($1) / 10 } / n
        let b = 1 / (log(10) * (mean - (Double(mc) / 10 - 0.05)))
        let squares = bins.reduce(0) { $0 + Double(counts[$1 - low]) * (Double($1) / 10 - mean) * (Double($1) / 10 - mean) }
        let sigma = 2.30 * b * b * (squares / (n * (n - 1))).squareRoot()
        return (b, sigma, count)
    }

    func gft(level: Double) -> Int? {
        guard low <= high else { return nil }
        for mc in low ... high {
            let n = count(atOrAbove: mc)
            if n < 50 { return nil }
            guard let fit = b(mc: mc) else { continue }
            let a = log10(Double(n)) + fit.b * Double(mc) / 10
            var misfit = 0.0, total = 0.0
            for m in mc ... high {
                let observed = Double(count(atOrAbove: m))
                misfit += abs(observed - pow(10, a - fit.b * Double(m) / 10))
                total += observed
            }
            if 100 - 100 * misfit / total >= level { return mc }
        }
        return nil
    }

    func mbs() -> Int? {
        guard low <= high else { return nil }
        for mc in low ... high {
            if count(atOrAbove: mc) < 50 { return nil }
            let window = (mc ..< mc + 5).compactMap { b(mc: $0)?.b }
            guard window.count == 5, let here = b(mc: mc) else { continue }
            if abs(window.reduce(0, +) / 5 - here.b) <= here.sigma { return mc }
        }
        return nil
    }
}
