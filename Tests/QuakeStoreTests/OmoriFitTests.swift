import Foundation
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The modified Omori law's maximum-likelihood fit (Ogata 1983, issue 54): sequences simulated
/// as a non-homogeneous Poisson process with known K, c and p, fitted, and every number held to
/// one this test computes its own way (another optimiser, another quadrature, another inverse).
@Suite struct OmoriFitTests {
    static let truth = (k: 200.0, c: 0.05, p: 1.1)
    static let days = 100.0

    /// Times of a Poisson process of rate `K (t + c)^−p` on `[0, T]`, by time rescaling: the
    /// unit-rate process's arrivals (sums of exponential gaps) mapped through `Λ⁻¹`, where
    /// `Λ(t) = K ((t + c)^(1−p) − c^(1−p)) / (1 − p)`.
    static func simulate(k: Double, c: Double, p: Double, days: Double, seed: UInt64) -> [Double] {
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
    static func profile(_ times: [Double], c: Double, p: Double, end: Double) -> Double {
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
    static func independentFit(_ times: [Double], end: Double) -> (k: Double, c: Double, p: Double) {
        func bestLogC(_ p: Double) -> Double { goldenMaximum(log(1e-5), log(5)) { profile(times, c: exp($0), p: p, end: end) } }
        let p = goldenMaximum(0.5, 2.0) { profile(times, c: exp(bestLogC($0)), p: $0, end: end) }
        let c = exp(bestLogC(p))
        let q = 1 - p
        return (Double(times.count) / ((pow(end + c, q) - pow(c, q)) / q), c, p)
    }

    /// The expected Fisher information by the trapezoid rule on 200,000 points log-spaced in t,
    /// inverted by Gauss–Jordan elimination: the standard errors of K, c, p.
    static func independentErrors(k: Double, c: Double, p: Double, end: Double) -> [Double] {
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
        // Gauss–Jordan on [J | I].
        var m = j.enumerated().map { index, row in row + (0 ..< 3).map { $0 == index ? 1.0 : 0.0 } }
        for column in 0 ..< 3 {
            let pivot = m[column][column]
            m[column] = m[column].map { $0 / pivot }
            for other in 0 ..< 3 where other != column {
                let factor = m[other][column]
                m[other] = zip(m[other], m[column]).map { $0 - factor * $1 }
            }
        }
        return (0 ..< 3).map { m[$0][3 + $0].squareRoot() }
    }

    @Test func aSimulatedSequenceIsFittedAsAnIndependentMaximumFindsIt() throws {
        let times = Self.simulate(k: Self.truth.k, c: Self.truth.c, p: Self.truth.p, days: Self.days, seed: 54)
        let fit = try OmoriFit.fit(times, to: Self.days).get()
        let independent = Self.independentFit(times, end: Self.days)
        #expect(fit.n == times.count)
        #expect(abs(fit.law.p - independent.p) < 1e-5)
        #expect(abs(log(fit.law.c) - log(independent.c)) < 1e-4)
        #expect(abs(fit.law.k / independent.k - 1) < 1e-4)
        // The standard errors: the inverse of the Fisher information at the estimate.
        let errors = Self.independentErrors(k: fit.law.k, c: fit.law.c, p: fit.law.p, end: Self.days)
        #expect(abs(fit.kError / errors[0] - 1) < 1e-3)
        #expect(abs(fit.cError / errors[1] - 1) < 1e-3)
        #expect(abs(fit.pError / errors[2] - 1) < 1e-3)
        // And the truth within three of them.
        #expect(abs(fit.law.k - Self.truth.k) < 3 * fit.kError)
        #expect(abs(fit.law.c - Self.truth.c) < 3 * fit.cError)
        #expect(abs(fit.law.p - Self.truth.p) < 3 * fit.pError)
    }

    /// The stated errors mean what they say: over 40 seeded sequences the truth is within two
    /// standard errors of the estimate about 95 % of the time (at least 34 of 40 here: the
    /// chance of fewer than 34 when the errors are right is under 2 %).
    @Test func theStatedErrorsCoverTheTruth() throws {
        var covered = (k: 0, c: 0, p: 0)
        for seed in 0 ..< 40 {
            let times = Self.simulate(k: 100, c: 0.05, p: 1.08, days: 30, seed: UInt64(1_000 + seed))
            let fit = try OmoriFit.fit(times, to: 30).get()
            if abs(fit.law.k - 100) <= 2 * fit.kError { covered.k += 1 }
            if abs(fit.law.c - 0.05) <= 2 * fit.cError { covered.c += 1 }
            if abs(fit.law.p - 1.08) <= 2 * fit.pError { covered.p += 1 }
        }
        #expect(covered.k >= 34)
        #expect(covered.c >= 34)
        #expect(covered.p >= 34)
    }

    @Test func tooFewTimesGiveNoFitAndSaySo() {
        let times = Array(Self.simulate(k: 200, c: 0.05, p: 1.1, days: 100, seed: 7).prefix(49))
        #expect(throws: OmoriFit.FitFailure("Only 49 quakes to fit the Omori law to; a fit needs 50.")) {
            try OmoriFit.fit(times, to: 100).get()
        }
    }

    /// A uniform scatter in time has no decay: the likelihood runs p down to its edge, and the
    /// fit is refused rather than reported at the edge.
    @Test func timesWithoutDecayGiveNoFit() {
        let times = (0 ..< 200).map { Double($0) / 2 + 0.25 }
        let result = OmoriFit.fit(times, to: 100)
        guard case .failure(let failure) = result else { Issue.record("fitted \(result)"); return }
        #expect(failure.message.hasPrefix("The Omori fit runs"))
    }

    /// The integral of the rate near p = 1 joins the logarithm continuously.
    @Test func theIntegralIsContinuousAtPOne() {
        let atOne = log(10.05 / 0.05)
        #expect(abs(OmoriLaw.integral(from: 0, to: 10, c: 0.05, p: 1) - atOne) < 1e-12)
        #expect(abs(OmoriLaw.integral(from: 0, to: 10, c: 0.05, p: 1 + 1e-7) - atOne) < 1e-5)
        #expect(abs(OmoriLaw.integral(from: 0, to: 10, c: 0.05, p: 1 + 2e-6) - atOne) < 1e-4)
    }
}
