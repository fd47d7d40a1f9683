import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The modified Omori law's maximum-likelihood fit (Ogata 1983, issue 54): sequences simulated
/// as a non-homogeneous Poisson process with known K, c and p, fitted, and every number held to
/// one this test computes its own way (another optimiser, another quadrature, another inverse).
@Suite struct OmoriFitTests {
    static let truth = (k: 200.0, c: 0.05, p: 1.1)
    static let days = 100.0

    @Test func aSimulatedSequenceIsFittedAsAnIndependentMaximumFindsIt() throws {
        let times = IndependentOmori.simulate(k: Self.truth.k, c: Self.truth.c, p: Self.truth.p, days: Self.days, seed: 54)
        let fit = try OmoriFit.fit(times, to: Self.days).get()
        let independent = IndependentOmori.fit(times, end: Self.days)
        #expect(fit.n == times.count)
        #expect(abs(fit.law.p - independent.p) < 1e-5)
        #expect(abs(log(fit.law.c) - log(independent.c)) < 1e-4)
        #expect(abs(fit.law.k / independent.k - 1) < 1e-4)
        // The standard errors: the inverse of the Fisher information at the estimate.
        let errors = IndependentOmori.errors(k: fit.law.k, c: fit.law.c, p: fit.law.p, end: Self.days)
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
            let times = IndependentOmori.simulate(k: 100, c: 0.05, p: 1.08, days: 30, seed: UInt64(1_000 + seed))
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
        let times = Array(IndependentOmori.simulate(k: 200, c: 0.05, p: 1.1, days: 100, seed: 7).prefix(49))
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
