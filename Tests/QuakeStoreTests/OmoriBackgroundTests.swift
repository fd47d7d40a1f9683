import Foundation
@testable import QuakeModel
import QuakeTestSupport
import Testing

/// The Omori law with a constant background, `λ(t) = μ + K (t + c)^−p`, and Akaike's choice
/// between it and the law alone: catalogues drawn from known parameters (the aftershocks by
/// time rescaling, the background by exponential gaps, superposed), and every number held to
/// what this test computes its own way (the log-likelihood written out, central differences,
/// the Fisher information by the trapezoid rule).
@Suite struct OmoriBackgroundTests {
    static let truth = (k: 50.0, c: 0.05, p: 1.1, mu: 1.0)
    static let days = 100.0

    static func draw(mu: Double, seed: UInt64, k: Double = truth.k, c: Double = truth.c, p: Double = truth.p,
                     days: Double = days) -> [Double] {
        let aftershocks = IndependentOmori.simulate(k: k, c: c, p: p, days: days, seed: seed)
        let background = mu > 0 ? IndependentOmori.simulateBackground(rate: mu, days: days, seed: seed &+ 7_919) : []
        return (aftershocks + background).sorted()
    }

    /// The fit is the maximum of the log-likelihood written out here: each parameter's central
    /// difference is nil within a thousandth of its error's worth, any step of half an error
    /// lowers it; the errors are the independent Fisher information's; and the choice is AIC's
    /// from the two maxima, the one without a background found by the test's own search.
    @Test func theFitWithABackgroundIsTheMaximumAnIndependentLikelihoodHas() throws {
        let times = Self.draw(mu: Self.truth.mu, seed: 21)
        let fit = try OmoriFit.fit(times, to: Self.days).get()
        let background = try #require(fit.background, "AIC chose the law alone for μ = 1")
        let estimate = [fit.law.k, fit.law.c, fit.law.p, background.rate]
        let errors = [fit.kError, fit.cError, fit.pError, background.error]
        func logL(_ x: [Double]) -> Double { IndependentOmori.logLikelihood(times, k: x[0], c: x[1], p: x[2], mu: x[3], end: Self.days) }
        let top = logL(estimate)
        for index in 0 ..< 4 {
            var up = estimate, down = estimate
            let h = errors[index] * 1e-3
            up[index] += h
            down[index] -= h
            // The slope times an error: the change of ln L over one error, about nil at a maximum.
            #expect(abs((logL(up) - logL(down)) / (2 * h) * errors[index]) < 1e-3, "∂/∂θ\(index)")
            up[index] += errors[index] / 2 - h
            down[index] -= errors[index] / 2 - h
            #expect(logL(up) < top && logL(down) < top, "θ\(index) ± half an error")
        }
        let independent = IndependentOmori.errors(k: estimate[0], c: estimate[1], p: estimate[2], mu: estimate[3], end: Self.days)
        for index in 0 ..< 4 { #expect(abs(errors[index] / independent[index] - 1) < 1e-3, "error \(index): \(errors) vs \(independent)") }
        #expect(abs(fit.logLikelihood.with - top) < 1e-6)
        let without = IndependentOmori.logLikelihoodWithoutBackground(times, end: Self.days)
        #expect(abs(fit.logLikelihood.without - without) < 1e-6)
        // AIC = 2k − 2 ln L: 8 − 2 ln L₄ below 6 − 2 ln L₃.
        #expect(8 - 2 * top < 6 - 2 * without)
        #expect(abs(fit.aicGainOfBackground - ((6 - 2 * without) - (8 - 2 * top))) < 1e-6)
        #expect(abs(fit.expected(from: 0, to: Self.days) - Double(times.count)) < 1e-6 * Double(times.count))
    }

    /// The stated errors mean what they say: over 40 draws with μ = 1 a day beside K 50, c 0.05,
    /// p 1.1 for 100 days (about 460 quakes), the truth is within two standard errors in at least
    /// 34 (fewer has a chance under 2 % when the errors are right), and AIC chooses the
    /// background in at least 38 (it adds about 100 quakes the law alone cannot fit).
    @Test func withABackgroundTheTruthIsWithinTwoErrorsAndAICChoosesIt() throws {
        var covered = [0, 0, 0, 0], chosen = 0
        for seed in 0 ..< 40 {
            let fit = try OmoriFit.fit(Self.draw(mu: Self.truth.mu, seed: UInt64(3_000 + seed)), to: Self.days).get()
            guard let background = fit.background else { continue }
            chosen += 1
            if abs(fit.law.k - Self.truth.k) <= 2 * fit.kError { covered[0] += 1 }
            if abs(fit.law.c - Self.truth.c) <= 2 * fit.cError { covered[1] += 1 }
            if abs(fit.law.p - Self.truth.p) <= 2 * fit.pError { covered[2] += 1 }
            if abs(background.rate - Self.truth.mu) <= 2 * background.error { covered[3] += 1 }
        }
        #expect(chosen >= 38, "AIC chose the background in \(chosen) of 40")
        #expect(covered.allSatisfy { $0 >= 34 }, "truth within two errors (K, c, p, μ): \(covered) of \(chosen)")
    }

    /// Without a background (μ = 0: K 100, c 0.05, p 1.08 for 30 days), AIC keeps the Omori law
    /// alone in most draws. The likelihood-ratio statistic of μ on its boundary is half χ²₀, half
    /// χ²₁, so AIC (which takes μ when the statistic passes 2) takes it in about 8 %: 3 of 40 on
    /// average, and 9 or more with a chance under 1 %.
    @Test func withoutABackgroundAICMostlyKeepsTheLawAlone() throws {
        var chosen = 0
        for seed in 0 ..< 40 {
            let fit = try OmoriFit.fit(Self.draw(mu: 0, seed: UInt64(1_000 + seed), k: 100, c: 0.05, p: 1.08, days: 30), to: 30).get()
            if fit.background != nil { chosen += 1 }
            #expect(fit.logLikelihood.with >= fit.logLikelihood.without)
        }
        #expect(chosen <= 8, "AIC chose a background in \(chosen) of 40 draws without one")
    }

    /// Where AIC keeps the law alone, the fit is the one without a background, as it was
    /// (`mu` null): the same K, c, p and errors as a fit that never looked at a background.
    @Test func whenTheLawAloneIsChosenItsFiguresAreTheLawsAlone() throws {
        for seed in UInt64(1_000) ..< 1_010 {
            let times = Self.draw(mu: 0, seed: seed, k: 100, c: 0.05, p: 1.08, days: 30)
            let fit = try OmoriFit.fit(times, to: 30).get()
            guard fit.background == nil else { continue }
            let independent = IndependentOmori.fit(times, end: 30)
            #expect(abs(fit.law.p - independent.p) < 1e-5 && abs(fit.law.k / independent.k - 1) < 1e-4)
            let errors = IndependentOmori.errors(k: fit.law.k, c: fit.law.c, p: fit.law.p, end: 30)
            #expect(abs(fit.pError / errors[2] - 1) < 1e-3 && abs(fit.kError / errors[0] - 1) < 1e-3)
        }
    }
}
