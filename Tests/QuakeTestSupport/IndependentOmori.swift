import Foundation

/// The modified Omori law's maximum-likelihood fit done without quaketui's code (issue 54): a
/// non-homogeneous Poisson process simulated by time rescaling, the profile likelihood maximised
/// by nested golden-section searches, and the Fisher information integrated by the trapezoid
/// rule and inverted by Gauss–Jordan elimination.
public enum IndependentOmori {
    /// Times of a Poisson process of rate `K (t + c)^−p` on `[0, T]`, by time rescaling: the
    /// unit-rate process's arrivals (sums of exponential gaps) mapped through `Λ⁻¹`, where
    /// `Λ(t) = K ((t + c)^(1−p) − c^(1−p)) / (1 − p)`.
    public static func simulate(k: Double, c: Double, p: Double, days: Double, seed: UInt64) -> [Double] {
        var random = SeededGenerator(seed: seed)
        let q = 1 - p
        let total = k * (pow(days + c, q) - pow(c, q)) / q
        var times: [Double] = []
        var u = 0.0
        while true {
            u += -log(Double.random(in: Double.ulpOfOne ..< 1, using: &random))
            guard u < total else { return times }
            times.append(pow(q * u / k + pow(c, q), 1 / q) - c)
        }
    }

    /// The profile log-likelihood the test maximises itself: K = N / A at each (c, p).
    public static func profile(_ times: [Double], c: Double, p: Double, end: Double) -> Double {
        let n = Double(times.count)
        let q = 1 - p
        let a = abs(q) < 1e-9 ? log((end + c) / c) : (pow(end + c, q) - pow(c, q)) / q
        return n * log(n / a) - n - p * times.reduce(0) { $0 + log($1 + c) }
    }

    /// Golden-section search for the maximum of `f` on `[low, high]`.
    static func goldenMaximum(_ low: Double, _ high: Double, _ f: (Double) -> Double) -> Double {
        let ratio = (5.0.squareRoot() - 1) / 2
        var (a, b) = (low, high)
        var x1 = b - ratio * (b - a), x2 = a + ratio * (b - a)
        var f1 = f(x1), f2 = f(x2)
        for _ in 0 ..< 200 where b - a > 1e-12 {
            if f1 < f2 { (a, x1, f1) = (x1, x2, f2); x2 = a + ratio * (b - a); f2 = f(x2) }
            else { (b, x2, f2) = (x2, x1, f1); x1 = b - ratio * (b - a); f1 = f(x1) }
        }
        return (a + b) / 2
    }

    /// The test's own maximum: p by golden section, ln c by golden section inside it.
    public static func fit(_ times: [Double], end: Double) -> (k: Double, c: Double, p: Double) {
        func bestLogC(_ p: Double) -> Double { goldenMaximum(log(1e-5), log(5)) { profile(times, c: exp($0), p: p, end: end) } }
        let p = goldenMaximum(0.5, 2.0) { profile(times, c: exp(bestLogC($0)), p: $0, end: end) }
        let c = exp(bestLogC(p))
        let q = 1 - p
        return (Double(times.count) / ((pow(end + c, q) - pow(c, q)) / q), c, p)
    }

    /// The expected Fisher information by the trapezoid rule on 200,000 points log-spaced in t,
    /// inverted by Gauss–Jordan elimination: the standard errors of K, c, p.
    public static func errors(k: Double, c: Double, p: Double, end: Double) -> [Double] {
        var j = [[Double]](repeating: [0, 0, 0], count: 3)
        let steps = 200_000
        let (lo, hi) = (log(c), log(end + c))
        var previous: [Double]?
        var previousT = 0.0
        for i in 0 ... steps {
            let t = exp(lo + (hi - lo) * Double(i) / Double(steps)) - c
            let lambda = k * pow(t + c, -p)
            let g = [pow(t + c, -p), -p * k * pow(t + c, -p - 1), -k * pow(t + c, -p) * log(t + c)]
            let row = [g[0] * g[0], g[0] * g[1], g[0] * g[2], g[1] * g[1], g[1] * g[2], g[2] * g[2]].map { $0 / lambda }
            if let previous {
                let width = t - previousT
                let area = zip(previous, row).map { ($0 + $1) / 2 * width }
                j[0][0] += area[0]; j[0][1] += area[1]; j[0][2] += area[2]
                j[1][1] += area[3]; j[1][2] += area[4]; j[2][2] += area[5]
            }
            previous = row
            previousT = t
        }
        j[1][0] = j[0][1]; j[2][0] = j[0][2]; j[2][1] = j[1][2]
        return inverseDiagonalRoots(j)
    }

    /// The square roots of the diagonal of `j`'s inverse (3 × 3): Gauss–Jordan on [J | I], the
    /// largest pivot of each column first.
    static func inverseDiagonalRoots(_ j: [[Double]]) -> [Double] {
        var m = j.enumerated().map { index, row in row + (0 ..< 3).map { $0 == index ? 1.0 : 0.0 } }
        for column in 0 ..< 3 {
            let pivotRow = (column ..< 3).max { abs(m[$0][column]) < abs(m[$1][column]) }!
            m.swapAt(column, pivotRow)
            let pivot = m[column][column]
            m[column] = m[column].map { $0 / pivot }
            for other in 0 ..< 3 where other != column {
                let factor = m[other][column]
                m[other] = zip(m[other], m[column]).map { $0 - factor * $1 }
            }
        }
        return (0 ..< 3).map { m[$0][3 + $0].squareRoot() }
    }

    /// Times of a homogeneous Poisson process of `rate` a day on `[0, T]`: exponential gaps
    /// (the inverse transform of their distribution) summed until past `T`.
    public static func simulateBackground(rate: Double, days: Double, seed: UInt64) -> [Double] {
        var random = SeededGenerator(seed: seed)
        var times: [Double] = []
        var t = 0.0
        while true {
            t += -log(Double.random(in: Double.ulpOfOne ..< 1, using: &random)) / rate
            guard t < days else { return times }
            times.append(t)
        }
    }

    /// `ln L = Σ ln(μ + K (tᵢ + c)^−p) − μ T − K ((T + c)^(1−p) − c^(1−p)) / (1 − p)`, written out.
    public static func logLikelihood(_ times: [Double], k: Double, c: Double, p: Double, mu: Double, end: Double) -> Double {
        let integral = abs(1 - p) < 1e-12 ? log((end + c) / c) : (pow(end + c, 1 - p) - pow(c, 1 - p)) / (1 - p)
        return times.reduce(0) { $0 + log(mu + k * pow($1 + c, -p)) } - mu * end - k * integral
    }

    /// The standard errors of K, c, p of `μ + K (t + c)^−p` on `[0, T]` with `μ` fixed (not a
    /// parameter): the expected Fisher information by the trapezoid rule on 200,000 points
    /// log-spaced in t, `λ` with `μ` in it, inverted by Gauss–Jordan elimination with the largest pivot.
    public static func errors(k: Double, c: Double, p: Double, mu: Double, end: Double) -> [Double] {
        var j = [[Double]](repeating: [0, 0, 0], count: 3)
        let steps = 200_000
        let (lo, hi) = (log(c), log(end + c))
        var previous: [[Double]]?
        var previousT = 0.0
        for i in 0 ... steps {
            let t = exp(lo + (hi - lo) * Double(i) / Double(steps)) - c
            let lambda = mu + k * pow(t + c, -p)
            let g = [pow(t + c, -p), -p * k * pow(t + c, -p - 1), -k * pow(t + c, -p) * log(t + c)]
            let row = g.map { a in g.map { b in a * b / lambda } }
            if let previous {
                let width = t - previousT
                for a in 0 ..< 3 { for b in 0 ..< 3 { j[a][b] += (previous[a][b] + row[a][b]) / 2 * width } }
            }
            previous = row
            previousT = t
        }
        return inverseDiagonalRoots(j)
    }
}
