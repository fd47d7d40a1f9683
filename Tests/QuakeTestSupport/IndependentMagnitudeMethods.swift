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
        let above = tenths.filter { $0 >= mc }.map { Double($0) / 10 }
        guard above.count >= 2, Set(above).count >= 2 else { return nil }
        let n = Double(above.count)
        let mean = above.reduce(0, +) / n
        let b = 1 / (log(10) * (mean - (Double(mc) / 10 - 0.05)))
        let sigma = 2.30 * b * b * (above.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n * (n - 1))).squareRoot()
        return (b, sigma, above.count)
    }

    public static func maxc(_ tenths: [Int]) -> Int? {
        var counts: [Int: Int] = [:]
        for t in tenths { counts[t, default: 0] += 1 }
        guard let top = counts.values.max() else { return nil }
        return counts.filter { $0.value == top }.keys.min()! + 2
    }

    public static func gft(_ tenths: [Int], level: Double) -> Int? {
        guard let low = tenths.min(), let high = tenths.max() else { return nil }
        for mc in low ... high {
            let n = tenths.filter { $0 >= mc }.count
            if n < 50 { return nil }
            guard let fit = b(tenths, mc: mc) else { continue }
            let a = log10(Double(n)) + fit.b * Double(mc) / 10
            var misfit = 0.0, total = 0.0
            for m in mc ... high {
                let observed = Double(tenths.filter { $0 >= m }.count)
                misfit += abs(observed - pow(10, a - fit.b * Double(m) / 10))
                total += observed
            }
            if 100 - 100 * misfit / total >= level { return mc }
        }
        return nil
    }

    public static func mbs(_ tenths: [Int]) -> Int? {
        guard let low = tenths.min(), let high = tenths.max() else { return nil }
        for mc in low ... high {
            if tenths.filter({ $0 >= mc }).count < 50 { return nil }
            let window = (mc ..< mc + 5).compactMap { b(tenths, mc: $0)?.b }
            guard window.count == 5, let here = b(tenths, mc: mc) else { continue }
            if abs(window.reduce(0, +) / 5 - here.b) <= here.sigma { return mc }
        }
        return nil
    }

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
