import Foundation

/// The log-likelihood of `λ(t) = μ + K (t + c)^−p` with `μ` fixed, at given `c` and `p`, maximised
/// over `K` (``OmoriFit``): `ln L = Σ ln(μ + K gᵢ) − μ (T − S) − K A`, `gᵢ = (tᵢ + c)^−p`,
/// `A = ∫ from S to T of (t + c)^−p dt`. It is concave in `K` (a sum of logarithms of functions
/// linear in it, less a line), its slope `Σ gᵢ / (μ + K gᵢ) − A` falls as `K` grows, and past
/// `N / A` the slope is negative (each term is below `1 / K`): the maximum is `K = 0` when the
/// slope there is not positive, else inside `(0, N / A)`.
struct BackgroundProfile {
    let times: [Double]
    let start: Double
    let end: Double
    let mu: Double

    /// `K` at `c` and `p`, and the log-likelihood there; nil outside the search ranges.
    func maximum(c: Double, p: Double) -> (k: Double, logLikelihood: Double)? {
        guard OmoriFit.cRange.contains(c), OmoriFit.pRange.contains(p) else { return nil }
        let a = OmoriLaw.integral(from: start, to: end, c: c, p: p)
        guard a > 0, a.isFinite else { return nil }
        let g = times.map { exp(-p * log($0 + c)) }
        // ln L's first and second derivatives in K.
        func slopes(_ k: Double) -> (first: Double, second: Double) {
            var first = -a, second = 0.0
            for gi in g {
                let q = gi / (mu + k * gi)
                first += q
                second -= q * q
            }
            return (first, second)
        }
        var k = 0.0
        if slopes(0).first > 0 {
            // Newton's steps inside a bracket that bisection keeps.
            var (low, high) = (0.0, Double(times.count) / a)
            k = high / 2
            for _ in 0 ..< 200 {
                let (first, second) = slopes(k)
                if first > 0 { low = k } else { high = k }
                var next = second < 0 ? k - first / second : (low + high) / 2
                if !(next > low && next < high) { next = (low + high) / 2 }
                if abs(next - k) <= 1e-14 * high || high - low <= 1e-14 * high { k = next; break }
                k = next
            }
        }
        var sum = 0.0
        for gi in g { sum += log(mu + k * gi) }
        let logLikelihood = sum - mu * (end - start) - k * a
        guard logLikelihood.isFinite else { return nil }
        return (k, logLikelihood)
    }

    /// −(profile log-likelihood) at `x = (ln c, p)`, for Nelder–Mead to minimise.
    func cost(_ x: [Double]) -> Double {
        maximum(c: exp(x[0]), p: x[1]).map { -$0.logLikelihood } ?? .infinity
    }
}

extension FisherInformation {
    /// The Fisher information of `λ(t) = μ + K (t + c)^−p` over `[S, T]` with `μ` fixed, as a
    /// 3 × 3 matrix in the order K, c, p: Ogata's (1983) three, every term over `λ` with `μ` in it.
    static func omori(_ law: OmoriLaw, background mu: Double, from start: Double, to end: Double) -> FisherInformation {
        let (k, c, p) = (law.k, law.c, law.p)
        var sums = [[Double]](repeating: [Double](repeating: 0, count: 3), count: 3)
        GaussLegendre.integrate(from: log(start + c), to: log(end + c), panels: 64) { u, weight in
            let dt = exp(u)                 // dt / du
            let g = exp(-p * u)             // (t + c)^−p
            let lambda = mu + k * g
            let derivatives = [g, -p * k * g / dt, -k * g * u]
            for i in 0 ..< 3 {
                for j in i ..< 3 { sums[i][j] += weight * derivatives[i] * derivatives[j] / lambda * dt }
            }
        }
        for i in 0 ..< 3 {
            for j in 0 ..< i { sums[i][j] = sums[j][i] }
        }
        return FisherInformation(matrix: sums)
    }
}
