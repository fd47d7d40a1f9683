import Foundation

/// The modified Omori law (Utsu 1961): aftershocks per day at `t` days after the mainshock,
/// `λ(t) = K / (t + c)^p`.
///
/// ```swift
/// let law = OmoriLaw(k: 120, c: 0.05, p: 1.08)
/// law.rate(at: 1)                    // ≈ 113 a day
/// law.expected(from: 1, to: 8)       // the number expected in the week after the first day
/// ```
public struct OmoriLaw: Sendable, Equatable {
    /// Aftershocks per day at `t + c` = 1 day.
    public var k: Double
    /// Days: how long the rate stays near its peak.
    public var c: Double
    /// The decay's exponent.
    public var p: Double

    public init(k: Double, c: Double, p: Double) {
        (self.k, self.c, self.p) = (k, c, p)
    }

    /// Aftershocks per day at `t` days.
    public func rate(at t: Double) -> Double { k * pow(t + c, -p) }

    /// The number expected from `t1` to `t2` days: `K ∫ (t + c)^−p dt`.
    public func expected(from t1: Double, to t2: Double) -> Double { k * Self.integral(from: t1, to: t2, c: c, p: p) }

    /// `∫ from t1 to t2 of (t + c)^−p dt`: `((t2 + c)^(1−p) − (t1 + c)^(1−p)) / (1 − p)`, and
    /// `ln((t2 + c) / (t1 + c))` at `p = 1`. Near `p = 1` (|1 − p| < 1e-6) the series in `1 − p`
    /// to its second term, where the quotient loses its digits.
    public static func integral(from t1: Double, to t2: Double, c: Double, p: Double) -> Double {
        let lower = log(t1 + c), upper = log(t2 + c)
        let q = 1 - p
        if abs(q) < 1e-6 {
            // e^(q u) / q integrated: (u2 − u1) + q (u2² − u1²) / 2 + q² (u2³ − u1³) / 6.
            return (upper - lower) + q * (upper * upper - lower * lower) / 2 + q * q * (pow(upper, 3) - pow(lower, 3)) / 6
        }
        return (exp(q * upper) - exp(q * lower)) / q
    }
}

/// The modified Omori law fitted to aftershock times by maximum likelihood (Ogata 1983), alone or
/// beside a constant background rate measured before the mainshock and held fixed, with the
/// standard errors of `K`, `c` and `p` from the inverse of the Fisher information.
///
/// The times `tᵢ` (days after the mainshock) of the `N` aftershocks in `[S, T]` are a
/// non-homogeneous Poisson process of rate `λ(t) = K (t + c)^−p`, or `λ(t) = μ + K (t + c)^−p`
/// with a background `μ` a day given (``SequenceBackground``: the rate of the region's quakes in
/// the year before the mainshock, not a parameter of the fit). Its log-likelihood is
/// `ln L = Σ ln λ(tᵢ) − ∫ from S to T of λ dt` (Ogata 1983, eq. 5).
///
/// - Without a background, `ln L = N ln K − p Σ ln(tᵢ + c) − K A(c, p)`,
///   `A = ∫ from S to T of (t + c)^−p dt`, largest over `K` at `K = N / A`; `c` and `p` maximise
///   what is left, `N ln(N / A) − N − p Σ ln(tᵢ + c)`, found by Nelder–Mead over `(ln c, p)` from
///   the generic `c = 0.05`, `p = 1.08` and polished until neither moves by 1e-10.
/// - With `μ` fixed, `ln L = Σ ln(μ + K gᵢ) − μ (T − S) − K A`, `gᵢ = (tᵢ + c)^−p`, is concave in
///   `K`; its slope `Σ gᵢ / (μ + K gᵢ) − A` falls from `K = 0` and is negative past `N / A`, so
///   Newton's method inside a bisection bracket finds `K` at each `(c, p)`, and Nelder–Mead
///   `(ln c, p)` as above, from the answer without a background and from the generic start.
///   A `μ` of 0 (no quake in the year before) is the law alone.
///
/// `c` is searched within ``cRange`` and `p` within ``pRange``: a maximum on their edge means the
/// times do not determine it, and there is no fit.
///
/// The errors are the square roots of the diagonal of `J⁻¹`, `J` the Fisher information at the
/// estimate, `Jᵢⱼ = ∫ from S to T of (∂λ/∂θᵢ)(∂λ/∂θⱼ) / λ dt` (Ogata 1983, eq. 8) over `K`, `c`,
/// `p` (`λ` with the background, which has no error here: it is not fitted), integrated over
/// `u = ln(t + c)` by Gauss–Legendre (64 panels of 8 points).
public struct OmoriFit: Sendable, Equatable {
    /// The aftershocks' rate: `K`, `c`, `p` (without the background).
    public let law: OmoriLaw
    public let kError: Double
    public let cError: Double
    public let pError: Double
    /// The background rate a day held fixed beside the law, and its error as measured; nil
    /// when the law was fitted alone.
    public let background: Background?
    /// The aftershocks fitted.
    public let n: Int

    /// A constant background rate beside the aftershocks' (quakes a day, at or above `Mc` as the
    /// fitted times are), measured before the mainshock (``SequenceBackground``).
    public struct Background: Sendable, Equatable {
        public let rate: Double
        /// The measurement's standard error; the fit takes `rate` as exact.
        public let error: Double

        public init(rate: Double, error: Double) { (self.rate, self.error) = (rate, error) }
    }

    public init(law: OmoriLaw, kError: Double, cError: Double, pError: Double, background: Background? = nil, n: Int) {
        (self.law, self.kError, self.cError, self.pError, self.background, self.n) = (law, kError, cError, pError, background, n)
    }

    /// The fewest aftershocks a fit is made from. Three parameters from fewer leave `c` and `p`
    /// trading off along a flat ridge of the likelihood, where the Fisher information's
    /// asymptotic errors do not hold; 50 is also the count a b-value needs
    /// (`CompletenessMethod.minimumFitCount`), so the view's numbers start together.
    public static let minimumCount = 50
    /// Where `c` is searched, in days (about 0.1 s to 10 days).
    public static let cRange = 1e-6 ... 10.0
    /// Where `p` is searched.
    public static let pRange = 0.2 ... 3.0

    /// The fitted rate of all the quakes fitted (aftershocks and background) from `t1` to `t2`
    /// days: the number expected.
    public func expected(from t1: Double, to t2: Double) -> Double { law.expected(from: t1, to: t2) + (background?.rate ?? 0) * (t2 - t1) }

    /// Fits the times `times` (days after the mainshock, within `start ... end`), beside the
    /// fixed `background` when one is given; `.failure` with a sentence when no fit can be made.
    public static func fit(_ times: [Double], from start: Double = 0, to end: Double,
                           background: Background? = nil) -> Result<OmoriFit, FitFailure> {
        let inside = times.filter { $0 >= start && $0 <= end }
        guard inside.count >= minimumCount else {
            return .failure(FitFailure("Only \(CountFormat.quakes(inside.count)) to fit the Omori law to; a fit needs \(minimumCount)."))
        }
        guard end > start, Set(inside).count > 1 else {
            return .failure(FitFailure("The aftershocks all have one time: no decay to fit."))
        }
        let n = Double(inside.count)
        // −(profile log-likelihood) without a background, to minimise over (ln c, p).
        func cost(_ x: [Double]) -> Double {
            let c = exp(x[0]), p = x[1]
            guard cRange.contains(c), pRange.contains(p) else { return .infinity }
            let a = OmoriLaw.integral(from: start, to: end, c: c, p: p)
            guard a > 0, a.isFinite else { return .infinity }
            var logs = 0.0
            for t in inside { logs += log(t + c) }
            return -(n * log(n / a) - n - p * logs)
        }
        let alone = polished(cost, from: NelderMead.minimise(cost, from: [log(0.05), 1.08], steps: [1.0, 0.2]))
        guard cost(alone).isFinite else { return .failure(FitFailure("The Omori fit does not fit these times.")) }
        if let background, background.rate > 0 {
            return fit(inside, from: start, to: end, background: background, startingFrom: alone)
        }
        let c = exp(alone[0]), p = alone[1]
        if let failure = edgeFailure(c: c, p: p) { return .failure(failure) }
        let k = n / OmoriLaw.integral(from: start, to: end, c: c, p: p)
        let law = OmoriLaw(k: k, c: c, p: p)
        guard let covariance = FisherInformation.omori(law, from: start, to: end).inverse,
              covariance[0][0] > 0, covariance[1][1] > 0, covariance[2][2] > 0 else {
            return .failure(FitFailure("The Omori fit's Fisher information cannot be inverted: its errors are unknown."))
        }
        return .success(OmoriFit(law: law, kError: covariance[0][0].squareRoot(), cError: covariance[1][1].squareRoot(),
                                 pError: covariance[2][2].squareRoot(), background: background, n: inside.count))
    }

    /// The fit beside a fixed background of `background.rate` > 0 a day (``BackgroundProfile``).
    static func fit(_ inside: [Double], from start: Double, to end: Double, background: Background,
                    startingFrom alone: [Double]) -> Result<OmoriFit, FitFailure> {
        let profile = BackgroundProfile(times: inside, start: start, end: end, mu: background.rate)
        let fromAlone = polished(profile.cost, from: NelderMead.minimise(profile.cost, from: alone, steps: [0.5, 0.1]))
        let fromGeneric = polished(profile.cost, from: NelderMead.minimise(profile.cost, from: [log(0.05), 1.08], steps: [1.0, 0.2]))
        let best = profile.cost(fromGeneric) < profile.cost(fromAlone) ? fromGeneric : fromAlone
        let c = exp(best[0]), p = best[1]
        guard let maximum = profile.maximum(c: c, p: p) else { return .failure(FitFailure("The Omori fit does not fit these times.")) }
        guard maximum.k > 0 else {
            return .failure(FitFailure("The times show no decay above the background of " + SequenceText.significant(background.rate)
                                       + " a day: the background alone fits them as well as any Omori law."))
        }
        if let failure = edgeFailure(c: c, p: p) { return .failure(failure) }
        let law = OmoriLaw(k: maximum.k, c: c, p: p)
        guard let covariance = FisherInformation.omori(law, background: background.rate, from: start, to: end).inverse,
              (0 ..< 3).allSatisfy({ covariance[$0][$0] > 0 }) else {
            return .failure(FitFailure("The Omori fit's Fisher information cannot be inverted: its errors are unknown."))
        }
        return .success(OmoriFit(law: law, kError: covariance[0][0].squareRoot(), cError: covariance[1][1].squareRoot(),
                                 pError: covariance[2][2].squareRoot(), background: background, n: inside.count))
    }

    /// Nelder–Mead restarted from its own answer until it stays: a simplex can stall on a ridge.
    static func polished(_ cost: ([Double]) -> Double, from start: [Double]) -> [Double] {
        var best = start
        for _ in 0 ..< 5 {
            let again = NelderMead.minimise(cost, from: best, steps: [0.5, 0.05])
            let moved = abs(again[0] - best[0]) + abs(again[1] - best[1])
            best = again
            if moved < 1e-10 { break }
        }
        return best
    }

    /// The sentence when `c` or `p` lies on the edge of its range (within 1e-3).
    static func edgeFailure(c: Double, p: Double) -> FitFailure? {
        let edge = 1e-3
        if log(c) - log(cRange.lowerBound) < edge || log(cRange.upperBound) - log(c) < edge {
            return FitFailure(String(format: "The Omori fit runs c to the edge of its range (%g to %g days): the times do not determine it.",
                                     cRange.lowerBound, cRange.upperBound))
        }
        if p - pRange.lowerBound < edge || pRange.upperBound - p < edge {
            return FitFailure(String(format: "The Omori fit runs p to the edge of its range (%.1f to %.1f): the times do not determine it.",
                                     pRange.lowerBound, pRange.upperBound))
        }
        return nil
    }

    /// Why a fit could not be made, as a sentence.
    public struct FitFailure: Error, Sendable, Equatable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }
}

/// Ogata's (1983) Fisher information of the modified Omori law over `[S, T]`, as a 3 × 3 matrix
/// in the order K, c, p: `Jᵢⱼ = ∫ (∂λ/∂θᵢ)(∂λ/∂θⱼ) / λ dt` with `∂λ/∂K = (t + c)^−p`,
/// `∂λ/∂c = −p K (t + c)^(−p−1)`, `∂λ/∂p = −K (t + c)^−p ln(t + c)`.
struct FisherInformation {
    var matrix: [[Double]]

    static func omori(_ law: OmoriLaw, from start: Double, to end: Double) -> FisherInformation {
        let (k, c, p) = (law.k, law.c, law.p)
        // Over u = ln(t + c), dt = e^u du: every term is e^(u (1 − p − extra)) times a power of u.
        var sums = [[Double]](repeating: [Double](repeating: 0, count: 3), count: 3)
        let lower = log(start + c), upper = log(end + c)
        GaussLegendre.integrate(from: lower, to: upper, panels: 64) { u, weight in
            let g = exp(u * (1 - p))  // (t + c)^−p dt / du
            let h = exp(-u)           // (t + c)^−1
            let terms = [g / k, -p * g * h, -g * u,
                         p * p * k * g * h * h, p * k * g * h * u, k * g * u * u]
            sums[0][0] += weight * terms[0]
            sums[0][1] += weight * terms[1]
            sums[0][2] += weight * terms[2]
            sums[1][1] += weight * terms[3]
            sums[1][2] += weight * terms[4]
            sums[2][2] += weight * terms[5]
        }
        sums[1][0] = sums[0][1]
        sums[2][0] = sums[0][2]
        sums[2][1] = sums[1][2]
        return FisherInformation(matrix: sums)
    }

    /// The inverse by cofactors, nil when the determinant is not a positive finite number.
    var inverse: [[Double]]? {
        let m = matrix
        func cofactor(_ i: Int, _ j: Int) -> Double {
            let rows = [0, 1, 2].filter { $0 != i }, columns = [0, 1, 2].filter { $0 != j }
            let minor = m[rows[0]][columns[0]] * m[rows[1]][columns[1]] - m[rows[0]][columns[1]] * m[rows[1]][columns[0]]
            return (i + j) % 2 == 0 ? minor : -minor
        }
        let determinant = (0 ..< 3).reduce(0.0) { $0 + m[0][$1] * cofactor(0, $1) }
        guard determinant.isFinite, determinant > 0 else { return nil }
        return (0 ..< 3).map { i in (0 ..< 3).map { j in cofactor(j, i) / determinant } }
    }
}

/// Composite Gauss–Legendre quadrature, 8 points a panel.
enum GaussLegendre {
    static let nodes: [Double] = [-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
                                  0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363]
    static let weights: [Double] = [0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
                                    0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763]

    /// Calls `body(x, w)` for every node `x` of `panels` equal panels of `[a, b]`, `w` its
    /// weight, so that `Σ w f(x)` is `∫ f`.
    static func integrate(from a: Double, to b: Double, panels: Int, _ body: (Double, Double) -> Void) {
        let width = (b - a) / Double(panels)
        for panel in 0 ..< panels {
            let mid = a + (Double(panel) + 0.5) * width
            for (node, weight) in zip(nodes, weights) {
                body(mid + node * width / 2, weight * width / 2)
            }
        }
    }
}

/// The Nelder–Mead simplex (Nelder & Mead 1965; reflection 1, expansion 2, contraction ½,
/// shrink ½), minimising `f` from `start` with the first simplex `start + stepᵢ eᵢ`, until the
/// simplex's values differ by less than 1e-12 (relative) or after 2,000 steps.
enum NelderMead {
    static func minimise(_ f: ([Double]) -> Double, from start: [Double], steps: [Double]) -> [Double] {
        let dimension = start.count
        var simplex = [start] + (0 ..< dimension).map { i in
            var point = start
            point[i] += steps[i]
            return point
        }
        var values = simplex.map(f)
        for _ in 0 ..< 2_000 {
            let order = values.indices.sorted { values[$0] < values[$1] }
            simplex = order.map { simplex[$0] }
            values = order.map { values[$0] }
            let spread = abs(values[dimension] - values[0])
            if spread <= 1e-12 * max(1, abs(values[0])) { break }
            let centroid = (0 ..< dimension).map { i in simplex[..<dimension].reduce(0) { $0 + $1[i] } / Double(dimension) }
            func toward(_ t: Double) -> [Double] { (0 ..< dimension).map { centroid[$0] + t * (simplex[dimension][$0] - centroid[$0]) } }
            let reflected = toward(-1), reflectedValue = f(reflected)
            if reflectedValue < values[0] {
                let expanded = toward(-2), expandedValue = f(expanded)
                (simplex[dimension], values[dimension]) = expandedValue < reflectedValue ? (expanded, expandedValue) : (reflected, reflectedValue)
            } else if reflectedValue < values[dimension - 1] {
                (simplex[dimension], values[dimension]) = (reflected, reflectedValue)
            } else {
                let outside = reflectedValue < values[dimension]
                let contracted = toward(outside ? -0.5 : 0.5), contractedValue = f(contracted)
                if contractedValue < (outside ? reflectedValue : values[dimension]) {
                    (simplex[dimension], values[dimension]) = (contracted, contractedValue)
                } else {
                    for i in 1 ... dimension {
                        simplex[i] = (0 ..< dimension).map { (j: Int) -> Double in simplex[0][j] + 0.5 * (simplex[i][j] - simplex[0][j]) }
                        values[i] = f(simplex[i])
                    }
                }
            }
        }
        return simplex[values.indices.min { values[$0] < values[$1] }!]
    }
}
