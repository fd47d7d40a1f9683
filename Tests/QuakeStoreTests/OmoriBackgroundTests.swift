import Foundation
@testable import QuakeModel
import QuakeTestSupport
import Testing

/// The Omori law beside a background measured in the year before the mainshock and held fixed,
/// `λ(t) = μ + K (t + c)^−p`: seeded catalogues with a known background before and after a
/// mainshock and Omori aftershocks, every number held to what this test computes its own way
/// (the log-likelihood written out, central differences, the Fisher information by the trapezoid
/// rule, the background counted from the drawn times) or to the truth drawn.
@Suite struct OmoriBackgroundTests {
    static let day = 86_400_000.0
    static let mainTime: Int64 = 1_700_000_000_000
    /// Truth of every quake drawn, whatever its magnitude: μ a day, K, c, p.
    static let truth = (mu: 2.0, k: 100.0, c: 0.05, p: 1.1)
    static let days = 60.0
    /// Magnitudes: Gutenberg–Richter with b = 1 from 2.95, cut at 4.45 (so no quake is 2 above
    /// Mc and no earlier sequence is left out). Mc is then about 3.0 (the fullest bin) + 0.2, and
    /// the share at or above an Mc `m` (M ≥ m − 0.05) is `(10^−(m − 3) − 10^−1.5) / (1 − 10^−1.5)`.
    static func share(atOrAbove mc: Double) -> Double { (pow(10, -(mc - 3)) - pow(10, -1.5)) / (1 - pow(10, -1.5)) }

    static func mainshock() -> AftershockSequence.Mainshock {
        .init(code: "main", time: mainTime, magnitude: 7.1, latitude: 35.7, longitude: -117.5, place: "Ridgecrest, CA")
    }

    /// A catalogue: the background at μ a day for 400 days before the mainshock and `days` after
    /// it, the aftershocks beside it, magnitudes as above, epicentres within 40 km (the radius is
    /// 47.8 km).
    static func draw(seed: UInt64, mu: Double = truth.mu) -> (before: [SequenceBackground.Quake], after: [AftershockSequence.Aftershock]) {
        var random = SeededGenerator(seed: seed &* 7_919 &+ 13)
        func magnitude() -> Double { 2.95 - log10(1 - Double.random(in: 0 ..< 1, using: &random) * (1 - pow(10, -1.5))) }
        func place() -> (Double, Double) {
            let r = 40 * Double.random(in: 0 ... 1, using: &random).squareRoot(), angle = Double.random(in: 0 ..< 2 * .pi, using: &random)
            return (35.7 + r * cos(angle) / 111.2, -117.5 + r * sin(angle) / (111.2 * cos(35.7 * .pi / 180)))
        }
        let before = IndependentOmori.simulateBackground(rate: mu, days: 400, seed: seed &+ 1).map { t -> SequenceBackground.Quake in
            let (latitude, longitude) = place()
            return .init(time: mainTime - Int64((t * day).rounded(.up)), magnitude: magnitude(), latitude: latitude, longitude: longitude)
        }
        let times = (IndependentOmori.simulate(k: truth.k, c: truth.c, p: truth.p, days: days, seed: seed &+ 2)
            + IndependentOmori.simulateBackground(rate: mu, days: days, seed: seed &+ 3)).sorted()
        let after = times.map { AftershockSequence.Aftershock(time: mainTime + Int64(($0 * day).rounded()), magnitude: magnitude()) }
        return (before, after)
    }

    static func sequence(_ drawn: (before: [SequenceBackground.Quake], after: [AftershockSequence.Aftershock]),
                         coveredFrom: Int64) -> AftershockSequence {
        let end = mainTime + Int64(days * day)
        return AftershockSequence(mainshock: mainshock(), aftershocks: drawn.after, end: end, before: drawn.before,
                                  coveredFrom: coveredFrom, now: end)
    }

    /// The times at or above `mc`, in days.
    static func times(_ after: [AftershockSequence.Aftershock], atOrAbove mc: Double) -> [Double] {
        after.filter { $0.magnitude! >= mc - 0.05 }.map { Double($0.time - mainTime) / day }
    }

    /// The fit with μ fixed is the maximum of the log-likelihood written out here over K, c, p:
    /// each central difference is nil within a thousandth of its error's worth, any step of half
    /// an error lowers it; the errors are the trapezoid Fisher information's with μ in λ.
    @Test func theFitBesideAFixedBackgroundIsTheMaximumOfAnIndependentLikelihood() throws {
        let times = (IndependentOmori.simulate(k: 50, c: 0.05, p: 1.1, days: 100, seed: 21)
            + IndependentOmori.simulateBackground(rate: 1, days: 100, seed: 7_940)).sorted()
        let fit = try OmoriFit.fit(times, to: 100, background: .init(rate: 1, error: 0.05)).get()
        #expect(fit.background == .init(rate: 1, error: 0.05))
        let estimate = [fit.law.k, fit.law.c, fit.law.p]
        let errors = [fit.kError, fit.cError, fit.pError]
        func logL(_ x: [Double]) -> Double { IndependentOmori.logLikelihood(times, k: x[0], c: x[1], p: x[2], mu: 1, end: 100) }
        let top = logL(estimate)
        for index in 0 ..< 3 {
            var up = estimate, down = estimate
            let h = errors[index] * 1e-3
            (up[index], down[index]) = (up[index] + h, down[index] - h)
            #expect(abs((logL(up) - logL(down)) / (2 * h) * errors[index]) < 1e-3, "∂/∂θ\(index)")
            (up[index], down[index]) = (estimate[index] + errors[index] / 2, estimate[index] - errors[index] / 2)
            #expect(logL(up) < top && logL(down) < top, "θ\(index) ± half an error")
        }
        let independent = IndependentOmori.errors(k: estimate[0], c: estimate[1], p: estimate[2], mu: 1, end: 100)
        for index in 0 ..< 3 { #expect(abs(errors[index] / independent[index] - 1) < 1e-3, "error \(index): \(errors) vs \(independent)") }
    }

    /// The whole sequence from a drawn catalogue: the background counted in the year before (as
    /// counted here from the drawn times), and over 40 draws the truth at or above Mc (μ, K times
    /// the share at or above Mc; c, p) within two stated errors in at least 34 of 40 for each (fewer
    /// has a chance under 2 % when the errors are right).
    @Test func aBackgroundMeasuredBeforeTheMainshockAndTheFitBesideItHoldTheTruth() throws {
        var covered = [0, 0, 0, 0]
        let draws = 40
        for seed in 0 ..< UInt64(draws) {
            let drawn = Self.draw(seed: 500 + seed)
            let sequence = Self.sequence(drawn, coveredFrom: Self.mainTime - 400 * Int64(Self.day))
            let mc = try #require(sequence.completeness)
            #expect(mc >= 3.2 && mc <= 3.4, "seed \(seed): Mc \(mc)")
            let background = try #require(try? sequence.background?.get())
            let year = Self.mainTime - Int64((365.25 * Self.day).rounded())
            let counted = drawn.before.filter { $0.time >= year && $0.magnitude! >= mc - 0.05 }.count
            #expect(background.count == counted && background.inRadius == counted && background.days == 365.25)
            let omori = try #require(sequence.omori, "seed \(seed): \(sequence.warnings)")
            #expect(omori.background?.rate == Double(counted) / 365.25 && omori.background?.error == Double(counted).squareRoot() / 365.25)
            let mu = Self.truth.mu * Self.share(atOrAbove: mc), k = Self.truth.k * Self.share(atOrAbove: mc)
            if abs(background.rate - mu) <= 2 * background.error { covered[0] += 1 }
            if abs(omori.law.k - k) <= 2 * omori.kError { covered[1] += 1 }
            if abs(omori.law.c - Self.truth.c) <= 2 * omori.cError { covered[2] += 1 }
            if abs(omori.law.p - Self.truth.p) <= 2 * omori.pError { covered[3] += 1 }
        }
        #expect(covered.allSatisfy { $0 >= 34 }, "truth within two errors (μ, K, c, p): \(covered) of \(draws)")
    }

    /// A store that does not cover the year before the mainshock gives no background: one
    /// sentence says why, and the fit is the law alone, with the figures it gives without one
    /// (the test's own maximum).
    @Test func withoutTheYearBeforeTheFitIsTheLawAlone() throws {
        let drawn = Self.draw(seed: 77)
        let sequence = Self.sequence(drawn, coveredFrom: Self.mainTime - 100 * Int64(Self.day))
        #expect(sequence.background == .failure(.init("No background term: the store covers 100.0 days before the mainshock; "
                                                      + "a background needs the 365 days before it, all covered.")))
        #expect(sequence.backgroundLine == "No background term: the store covers 100.0 days before the mainshock; "
                + "a background needs the 365 days before it, all covered.")
        let omori = try #require(sequence.omori)
        #expect(omori.background == nil && sequence.forecastBackgroundNote == nil)
        let times = Self.times(drawn.after, atOrAbove: try #require(sequence.completeness))
        #expect(omori == (try OmoriFit.fit(times, to: Self.days).get()))
        let independent = IndependentOmori.fit(times, end: Self.days)
        #expect(abs(omori.law.p - independent.p) < 1e-4 && abs(log(omori.law.c) - log(independent.c)) < 1e-3
                && abs(omori.law.k / independent.k - 1) < 1e-3, "\(omori.law) vs \(independent)")
        // A gap's end is said as such.
        let afterGap = AftershockSequence(mainshock: Self.mainshock(), aftershocks: drawn.after, end: Self.mainTime + Int64(Self.days * Self.day),
                                          before: drawn.before, coveredFrom: Self.mainTime - 3 * Int64(Self.day) / 2, coveredAfterGap: true,
                                          now: Self.mainTime)
        #expect(afterGap.backgroundLine == "No background term: the store covers 1.5 days before the mainshock (after a gap in its coverage); "
                + "a background needs the 365 days before it, all covered.")
    }

    /// The year's quakes in the sequence of an earlier quake 2 or more above Mc (within its own
    /// radius, after it, smaller) are not counted; the earlier quake is, and so are quakes beyond
    /// its radius and the sequence of a quake less than 2 above Mc.
    @Test func anEarlierLargerSequenceIsNotCounted() throws {
        let main = Self.mainshock()
        func quake(_ daysBefore: Double, _ magnitude: Double, east km: Double) -> SequenceBackground.Quake {
            .init(time: Self.mainTime - Int64(daysBefore * Self.day), magnitude: magnitude, latitude: 35.7,
                  longitude: -117.5 + km / (111.2 * cos(35.7 * .pi / 180)))
        }
        // Mc 3.2: an M 5.3 (radius 10 km) 200 days before, 12 quakes 3 km from it after it, 5 at 25 km
        // from it; an M 4.9 with 6 quakes 2 km from it after it; 2 before the M 5.3 beside it; one
        // 400 days before (outside the year).
        var quakes = [quake(200, 5.3, east: -20)]
        quakes += (0 ..< 12).map { quake(199 - Double($0), 3.4, east: -17) }
        quakes += (0 ..< 5).map { quake(150 - Double($0), 3.6, east: 5) }
        quakes += [quake(100, 4.9, east: 20)] + (0 ..< 6).map { quake(99 - Double($0), 3.3, east: 22) }
        quakes += [quake(250, 3.5, east: -20), quake(240, 3.2, east: -19), quake(400, 3.5, east: 0), quake(10, 3.1, east: 0)]
        let measured = try SequenceBackground.measure(mainshock: main, quakes: quakes, coveredFrom: Self.mainTime - 500 * Int64(Self.day),
                                                      mcTenth: 32).get()
        #expect(measured.inRadius == 1 + 12 + 5 + 7 + 2 && measured.count == measured.inRadius - 12)
        #expect(abs(measured.rate - 15 / 365.25) < 1e-15 && abs(measured.error - 15.0.squareRoot() / 365.25) < 1e-15)
    }
}
