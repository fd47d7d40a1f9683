import Foundation

/// The log-likelihood of `λ(t) = μ + K (t + c)^−p` at given `c` and `p`, maximised over `μ` and
/// `K` (``OmoriFit``). At that maximum the rate integrates to `N`, so `μ = N (1 − w) / (T − S)`
/// and `K = N w / A` for the share `w` of aftershocks, and
/// `ln L = N ln N − N + Σ ln((1 − w) / (T − S) + w gᵢ / A)`, `gᵢ = (tᵢ + c)^−p`,
/// `A = ∫ from S to T of (t + c)^−p dt`: a sum of logarithms of functions linear in `w`, so
/// concave, and its derivative falls from `w = 0` to `w = 1`.
struct BackgroundProfile {
    let times: [Double]
    let start: Double
    let end: Double

    /// The share of aftershocks `w` at `c` and `p`, and the log-likelihood there.
    func maximum(c: Double, p: Double) -> (share: Double, logLikelihood: Double)? {
        guard OmoriFit.cRange.contains(c), OmoriFit.pRange.contains(p) else { return nil }
        let a = OmoriLaw.integral(from: start, to: end, c: c, p: p)
        guard a > 0, a.isFinite else { return nil }
        let s = 1 / (end - start)
        let r = times.map { exp(-p * log($0 + c)) / a }
        let n = Double(times.count)
        // f'(w) = Σ (rᵢ − s) / ((1 − w) s + w rᵢ); f''(w) = −Σ ((rᵢ − s) / (…))².
        func slopes(_ w: Double) -> (first: Double, second: Double) {
            var first = 0.0, second = 0.0
            for ri in r {
                let q = (ri - s) / ((1 - w) * s + w * ri)
                first += q
                second -= q * q
            }
            return (first, second)
        }
        let share: Double
        if slopes(1).first >= 0 {
            share = 1
        } else if slopes(0).first <= 0 {
            share = 0
        } else {
            // Newton's steps inside a bracket that bisection keeps.
            var (low, high, w) = (0.0, 1.0, 0.5)
            for _ in 0 ..< 100 {
                let (first, second) = slopes(w)
                if first > 0 { low = w } else { high = w }
                var next = second < 0 ? w - first / second : (low + high) / 2
                if !(next > low && next < high) { next = (low + high) / 2 }
                if abs(next - w) <= 1e-15 || high - low <= 1e-15 { w = next; break }
                w = next
            }
            share = w
        }
        var sum = 0.0
        for ri in r { sum += log((1 - share) * s + share * ri) }
        let logLikelihood = n * log(n) - n + sum
        guard logLikelihood.isFinite else { return nil }
        return (share, logLikelihood)
    }

    /// −(profile log-likelihood) at `x = (ln c, p)`, for Nelder–Mead to minimise.
    func cost(_ x: [Double]) -> Double {
        maximum(c: exp(x[0]), p: x[1]).map { -$0.logLikelihood } ?? .infinity
    }

    /// The share of aftershocks at `c` and `p` (0 when the background alone fits best).
    func share(c: Double, p: Double) -> Double { maximum(c: c, p: p)?.share ?? 0 }
}

extension FisherInformation {
    /// The Fisher information of `λ(t) = μ + K (t + c)^−p` over `[S, T]`, as a 4 × 4 matrix in
    /// the order K, c, p, μ: Ogata's (1983) three with `∂λ/∂μ = 1`, every term over `λ`.
    static func omori(_ law: OmoriLaw, background mu: Double, from start: Double, to end: Double) -> FisherInformation {
        let (k, c, p) = (law.k, law.c, law.p)
        var sums = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 4)
        GaussLegendre.integrate(from: log(start + c), to: log(end + c), panels: 64) { u, weight in
            let dt = exp(u)                 // dt / du
            let g = exp(-p * u)             // (t + c)^−p
            let lambda = mu + k * g
            let derivatives = [g, -p * k * g / dt, -k * g * u, 1]
            for i in 0 ..< 4 {
                for j in i ..< 4 { sums[i][j] += weight * derivatives[i] * derivatives[j] / lambda * dt }
            }
        }
        for i in 0 ..< 4 {
            for j in 0 ..< i { sums[i][j] = sums[j][i] }
        }
        return FisherInformation(matrix: sums)
    }
}
