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

/// The modified Omori law fitted to aftershock times by maximum likelihood (Ogata 1983), with
/// or without a constant background rate, the one Akaike's information criterion prefers, and
/// the standard errors of its parameters from the inverse of the Fisher information.
///
/// The times `tᵢ` (days after the mainshock) of the `N` aftershocks in `[S, T]` are a
/// non-homogeneous Poisson process of rate `λ(t) = K (t + c)^−p` (no background) or
/// `λ(t) = μ + K (t + c)^−p` (a background `μ` a day: the ordinary seismicity of the region,
/// which a long window otherwise fits as aftershocks). Its log-likelihood is
/// `ln L = Σ ln λ(tᵢ) − ∫ from S to T of λ dt` (Ogata 1983, eq. 5).
///
/// - Without a background, `ln L = N ln K − p Σ ln(tᵢ + c) − K A(c, p)`,
///   `A = ∫ from S to T of (t + c)^−p dt`, largest over `K` at `K = N / A`; `c` and `p` maximise
///   what is left, `N ln(N / A) − N − p Σ ln(tᵢ + c)`, found by Nelder–Mead over `(ln c, p)` from
///   the generic `c = 0.05`, `p = 1.08` and polished until neither moves by 1e-10.
/// - With one, at its maximum over `μ` and `K` the rate integrates to `N` (`μ (T − S) + K A = N`),
///   so `μ = N (1 − w) / (T − S)`, `K = N w / A` for a share `w` of aftershocks in `[0, 1]`, and
///   `ln L = N ln N − N + Σ ln((1 − w) / (T − S) + w (tᵢ + c)^−p / A)`, concave in `w`: its
///   maximum is found by Newton's method inside a bisection bracket, and `(ln c, p)` by
///   Nelder–Mead from the answer without a background (so it is never worse) and from the generic.
/// - The model with a background is chosen when its AIC, `2 k − 2 ln L` with `k = 4` against 3
///   (Akaike 1974; as Ogata 1983 compares Omori models), is lower: when it raises `ln L` by more
///   than 1.
///
/// `c` is searched within ``cRange`` and `p` within ``pRange``: a maximum on their edge means the
/// times do not determine it, and there is no fit.
///
/// The errors are the square roots of the diagonal of `J⁻¹`, `J` the Fisher information at the
/// estimate, `Jᵢⱼ = ∫ from S to T of (∂λ/∂θᵢ)(∂λ/∂θⱼ) / λ dt` (Ogata 1983, eq. 8) over `K`, `c`,
/// `p` (and `μ` with a background), integrated over `u = ln(t + c)` by Gauss–Legendre (64 panels
/// of 8 points).
public struct OmoriFit: Sendable, Equatable {
    /// The aftershocks' rate: `K`, `c`, `p` (without the background).
    public let law: OmoriLaw
    public let kError: Double
    public let cError: Double
    public let pError: Double
    /// The background rate, a day, and its standard error, when the model with one is chosen;
    /// nil when the Omori law alone is.
    public let background: Background?
    /// The largest log-likelihood of each model: without a background and with one (which is
    /// never less). Akaike's criterion chose between them (``prefersBackground(_:)``).
    public let logLikelihood: (without: Double, with: Double)
    /// The aftershocks fitted.
    public let n: Int

    /// A constant background rate beside the aftershocks' (quakes a day, at or above `Mc` as the
    /// fitted times are).
    public struct Background: Sendable, Equatable {
        public let rate: Double
        public let error: Double
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

    /// The AIC of the model without a background less the AIC of the one with it:
    /// `(2·3 − 2 ln L₃) − (2·4 − 2 ln L₄)`. Positive: the background is chosen.
    public var aicGainOfBackground: Double { 2 * (logLikelihood.with - logLikelihood.without) - 2 }

    /// Akaike's choice (Akaike 1974): the model with a background when its AIC is lower, that
    /// is when it raises the log-likelihood by more than one for its one more parameter.
    public static func prefersBackground(_ without: Double, _ with: Double) -> Bool { 2 * 4 - 2 * with < 2 * 3 - 2 * without }

    /// The fitted rate of all the quakes fitted (aftershocks and background) from `t1` to `t2`
    /// days: the number expected.
    public func expected(from t1: Double, to t2: Double) -> Double { law.expected(from: t1, to: t2) + (background?.rate ?? 0) * (t2 - t1) }

    public static func == (lhs: OmoriFit, rhs: OmoriFit) -> Bool {
        lhs.law == rhs.law && lhs.kError == rhs.kError && lhs.cError == rhs.cError && lhs.pError == rhs.pError
            && lhs.background == rhs.background && lhs.logLikelihood.without == rhs.logLikelihood.without
            && lhs.logLikelihood.with == rhs.logLikelihood.with && lhs.n == rhs.n
    }

    /// Fits the times `times` (days after the mainshock, within `start ... end`); `.failure`
    /// with a sentence when no fit can be made.
    public static func fit(_ times: [Double], from start: Double = 0, to end: Double) -> Result<OmoriFit, FitFailure> {
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
        let best = polished(cost, from: NelderMead.minimise(cost, from: [log(0.05), 1.08], steps: [1.0, 0.2]))
        guard cost(best).isFinite else { return .failure(FitFailure("The Omori fit does not fit these times.")) }
        let withoutLogL = -cost(best)
        // With a background: from the answer without one (never worse) and from the generic start.
        let background = BackgroundProfile(times: inside, start: start, end: end)
        let fromBest = polished(background.cost, from: NelderMead.minimise(background.cost, from: best, steps: [0.5, 0.1]))
        let fromGeneric = polished(background.cost, from: NelderMead.minimise(background.cost, from: [log(0.05), 1.08], steps: [1.0, 0.2]))
        let withBest = background.cost(fromGeneric) < background.cost(fromBest) ? fromGeneric : fromBest
        let withLogL = max(withoutLogL, -background.cost(withBest))
        let logLikelihood = (without: withoutLogL, with: withLogL)
        if prefersBackground(withoutLogL, withLogL) {
            let c = exp(withBest[0]), p = withBest[1]
            let share = background.share(c: c, p: p)
            if let failure = edgeFailure(c: c, p: p) { return .failure(failure) }
            guard share > 0 else {
                return .failure(FitFailure("The times show no decay: a constant rate alone fits them better than any Omori law (Akaike's criterion)."))
            }
            let a = OmoriLaw.integral(from: start, to: end, c: c, p: p)
            let law = OmoriLaw(k: n * share / a, c: c, p: p)
            let mu = n * (1 - share) / (end - start)
            guard let covariance = FisherInformation.omori(law, background: mu, from: start, to: end).inverse,
                  (0 ..< 4).allSatisfy({ covariance[$0][$0] > 0 }) else {
                return .failure(FitFailure("The Omori fit's Fisher information cannot be inverted: its errors are unknown."))
            }
            return .success(OmoriFit(law: law, kError: covariance[0][0].squareRoot(), cError: covariance[1][1].squareRoot(),
                                     pError: covariance[2][2].squareRoot(),
                                     background: Background(rate: mu, error: covariance[3][3].squareRoot()),
                                     logLikelihood: logLikelihood, n: inside.count))
        }
        let c = exp(best[0]), p = best[1]
        if let failure = edgeFailure(c: c, p: p) { return .failure(failure) }
        let k = n / OmoriLaw.integral(from: start, to: end, c: c, p: p)
        let law = OmoriLaw(k: k, c: c, p: p)
        guard let covariance = FisherInformation.omori(law, from: start, to: end).inverse,
              covariance[0][0] > 0, covariance[1][1] > 0, covariance[2][2] > 0 else {
            return .failure(FitFailure("The Omori fit's Fisher information cannot be inverted: its errors are unknown."))
        }
        return .success(OmoriFit(law: law, kError: covariance[0][0].squareRoot(), cError: covariance[1][1].squareRoot(),
                                 pError: covariance[2][2].squareRoot(), background: nil, logLikelihood: logLikelihood, n: inside.count))
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

    /// The inverse, nil when the matrix is singular: by cofactors for 3 × 3 (nil when the
    /// determinant is not a positive finite number), else by Gauss–Jordan elimination with
    /// partial pivoting.
    var inverse: [[Double]]? {
        let m = matrix
        guard m.count == 3 else { return Self.gaussJordanInverse(m) }
        func cofactor(_ i: Int, _ j: Int) -> Double {
            let rows = [0, 1, 2].filter { $0 != i }, columns = [0, 1, 2].filter { $0 != j }
            let minor = m[rows[0]][columns[0]] * m[rows[1]][columns[1]] - m[rows[0]][columns[1]] * m[rows[1]][columns[0]]
            return (i + j) % 2 == 0 ? minor : -minor
        }
        let determinant = (0 ..< 3).reduce(0.0) { $0 + m[0][$1] * cofactor(0, $1) }
        guard determinant.isFinite, determinant > 0 else { return nil }
        return (0 ..< 3).map { i in (0 ..< 3).map { j in cofactor(j, i) / determinant } }
    }

    /// `m⁻¹` by Gauss–Jordan elimination on `[m | I]`, the largest pivot of each column first;
    /// nil when a pivot is not a finite number above 1e-300 or an entry comes out non-finite.
    static func gaussJordanInverse(_ m: [[Double]]) -> [[Double]]? {
        let size = m.count
        var rows = m.enumerated().map { index, row in row + (0 ..< size).map { $0 == index ? 1.0 : 0.0 } }
        for column in 0 ..< size {
            guard let pivotRow = (column ..< size).max(by: { abs(rows[$0][column]) < abs(rows[$1][column]) }) else { return nil }
            rows.swapAt(column, pivotRow)
            let pivot = rows[column][column]
            guard pivot.isFinite, abs(pivot) > 1e-300 else { return nil }
            rows[column] = rows[column].map { $0 / pivot }
            for other in 0 ..< size where other != column {
                let factor = rows[other][column]
                if factor != 0 { rows[other] = zip(rows[other], rows[column]).map { $0 - factor * $1 } }
            }
        }
        let inverse = rows.map { Array($0[size...]) }
        return inverse.allSatisfy({ $0.allSatisfy(\.isFinite) }) ? inverse : nil
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
