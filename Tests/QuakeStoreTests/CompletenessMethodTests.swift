import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The methods of Mc and b (issue 54), each recomputed here from a list of magnitudes without
/// quaketui's code (`IndependentMagnitudeMethods`, in QuakeTestSupport), on catalogues drawn from known distributions.
@Suite struct CompletenessMethodTests {
    /// Gutenberg–Richter magnitudes of slope `b` from M 0.95 up, detected with the probability
    /// of a normal ramp (Ogata & Katsura 1993) of mean 1.75 and σ 0.1: complete from about 2.0.
    static func catalogue(b: Double, count: Int, seed: UInt64) -> [Double] {
        var random = SeededGenerator(seed: seed)
        var magnitudes: [Double] = []
        while magnitudes.count < count {
            let m = 0.95 - log(Double.random(in: Double.ulpOfOne ..< 1, using: &random)) / (b * log(10))
            let detection = 0.5 * erfc(-(m - 1.75) / (0.1 * 2.0.squareRoot()))
            if Double.random(in: 0 ..< 1, using: &random) < detection { magnitudes.append(m) }
        }
        return magnitudes
    }

    static func frequency(_ magnitudes: [Double], method: CompletenessMethod = .maxc) -> MagnitudeFrequency {
        var tenths: [Int: Int] = [:]
        for m in magnitudes { tenths[IndependentMagnitudeMethods.tenth(m), default: 0] += 1 }
        return MagnitudeFrequency(tenths: tenths, count: magnitudes.count, method: method)
    }

    /// b = 1.0 and 1.5 above Mc 2.0 with a detection ramp below: every method's Mc and b equal
    /// the independent computation. maxc and mbs land at the ramp's top (1.9 … 2.2) with b within
    /// 3σ (Shi–Bolt) of the truth. gft accepts a trial once 90 (95) % of the cumulative counts
    /// fit, which bins 70–90 % detected pass: on this ramp it takes Mc 1.8 … 1.9, and b comes out
    /// low by up to a tenth of itself (Woessner & Wiemer 2005 report the same underestimate);
    /// that is the tolerance here. The bootstrap's σ of b agrees with one drawn quake by quake
    /// here within a third (Mc's own jumps between resamples make both heavy-tailed).
    @Test(arguments: [1.0, 1.5], CompletenessMethod.allCases)
    func aKnownBValueIsRecoveredByEveryMethod(_ trueB: Double, _ method: CompletenessMethod) throws {
        let magnitudes = Self.catalogue(b: trueB, count: 4_000, seed: UInt64(trueB * 10))
        let tenths = magnitudes.map(IndependentMagnitudeMethods.tenth)
        let mfd = Self.frequency(magnitudes, method: method)
        let mc = try #require(IndependentMagnitudeMethods.mc(tenths, method.rawValue))
        let expected = try #require(IndependentMagnitudeMethods.b(tenths, mc: mc))
        let fit = try #require(mfd.fit, "\(mfd.why ?? "")")
        #expect(mfd.completenessTenth == mc)
        #expect(abs(fit.b - expected.b) < 1e-9 && abs(fit.bError - expected.sigma) < 1e-9 && fit.n == expected.n)
        if method == .maxc || method == .mbs {
            #expect((19 ... 22).contains(mc), "Mc \(mc) for b \(trueB) by \(method)")
            #expect(abs(fit.b - trueB) <= 3 * fit.bError, "b \(fit.b) ± \(fit.bError) for \(trueB) by \(method)")
        } else {
            #expect((18 ... 22).contains(mc), "Mc \(mc) for b \(trueB) by \(method)")
            #expect(abs(fit.b - trueB) <= 0.1 * trueB, "b \(fit.b) ± \(fit.bError) for \(trueB) by \(method)")
        }
        let bootstrap = MagnitudeBootstrap(mfd)
        let sigma = IndependentMagnitudeMethods.bootstrapSigma(tenths, method: method.rawValue, seed: 99)
        let ours = try #require(bootstrap.bError)
        #expect(abs(ours - sigma) <= sigma / 3, "bootstrap σ \(ours), drawn here \(sigma)")
        #expect(bootstrap.samples == 200)
        #expect(try #require(bootstrap.completenessError) < 0.2)
    }

    /// Maximum curvature takes the lower of two equally full bins, then adds 0.2.
    @Test func maxcTakesTheLowerBinOnATieAndAddsTwoTenths() {
        let tenths = [18: 40, 19: 70, 20: 70, 21: 50, 22: 35, 23: 25, 24: 18, 25: 12]
        let mfd = MagnitudeFrequency(tenths: tenths, count: 320)
        #expect(mfd.completenessTenth == IndependentMagnitudeMethods.maxc(tenths.flatMap { Array(repeating: $0.key, count: $0.value) }))
        #expect(mfd.completenessTenth == 21)
        #expect(MagnitudeFrequency(tenths: [30: 9, 31: 9, 32: 9], count: 27).completenessTenth == 32)
    }

    /// Fewer than 50 quakes above Mc, or every magnitude in one bin: no fit, and why.
    @Test func aFitThatCannotBeMadeSaysWhy() {
        // The fullest bin is 2.0: Mc 2.2, with 30 + 19 = 49 quakes at or above it.
        let few = MagnitudeFrequency(tenths: [20: 60, 21: 40, 22: 30, 23: 19], count: 149)
        #expect(few.fit == nil)
        #expect(few.why == "Only 49 quakes at or above Mc 2.2; a b-value needs 50.")
        let equal = MagnitudeFrequency(tenths: [40: 200], count: 200)
        #expect(equal.fit == nil)
        #expect(equal.completenessTenth == nil)
        #expect(equal.why == "All 200 quakes with a magnitude are in the bin of M 4.0: no spread, so no Mc by maximum curvature and no slope to fit.")
        // One quake is "the one" (it read "All 1 quake … are").
        #expect(MagnitudeFrequency(tenths: [40: 1], count: 1).why
                == "The one quake with a magnitude is in the bin of M 4.0: no spread, so no Mc by maximum curvature and no slope to fit.")
        // An Mc above every quake is none (it read "Mc 4.2", "Only 0 quakes").
        let top = MagnitudeFrequency(tenths: [40: 5, 41: 1], count: 6)
        #expect(top.completenessTenth == nil)
        #expect(top.why == "No Mc by maxc: the fullest bin is M 4.0, so Mc would be M 4.2, above every quake (the largest is M 4.1).")
        // At the largest, it is one.
        #expect(MagnitudeFrequency(tenths: [40: 5, 41: 1, 42: 1], count: 7).completenessTenth == 42)
        #expect(MagnitudeBootstrap(equal).bError == nil)
        #expect(MagnitudeFrequency(tenths: [:], count: 3).why == "No quake of the list has a usable magnitude.")
        // A method that finds no Mc says so, rather than falling back to another.
        let flat = MagnitudeFrequency(tenths: Dictionary(uniqueKeysWithValues: (10 ... 40).map { ($0, 20) }), count: 620, method: .gft95)
        #expect(flat.completenessTenth == IndependentMagnitudeMethods.gft(Array((10 ... 40).flatMap { Array(repeating: $0, count: 20) }), level: 95))
        #expect(flat.fit == nil)
        #expect(flat.why?.hasPrefix("No Mc by gft95") == true, "\(flat.why ?? "nil")")
        let small = MagnitudeFrequency(tenths: [20: 20, 21: 15, 22: 11], count: 46, method: .mbs)
        #expect(small.fit == nil)
        #expect(small.why == "Only 46 quakes with a usable magnitude: mbs tries an Mc only with 50 or more at or above it.")
    }

    /// Each bin's edges hold its magnitudes, and what is off the usable bins is counted.
    @Test func binsHoldWhatTheirEdgesSayAndTheRestIsCounted() throws {
        let magnitudes = [1.05, 1.1, 1.149, 1.15, -0.05, -0.06, 9.95, 10.0, 2.25, 2.35, 0.15, 4.45]
        let mfd = Self.frequency(magnitudes + [11, -7])
        for bin in mfd.bins {
            #expect(bin.count == magnitudes.filter { bin.from <= $0 && $0 < bin.to }.count, "\(bin)")
        }
        #expect(mfd.bins.first.map { [$0.from, $0.to] } == [-0.15, -0.05])
        // Every bin from the lowest to the highest, the empty ones as 0: no gap is left out.
        #expect(mfd.bins.count == 102 && zip(mfd.bins, mfd.bins.dropFirst()).allSatisfy { $0.to == $1.from })
        #expect(mfd.bins.filter { $0.count == 0 }.count == 102 - 9)  // 9 bins hold the 12 usable magnitudes
        #expect(mfd.bins.reduce(0) { $0 + $1.count } + mfd.unusable == mfd.count)
        #expect(mfd.unusable == 2)
        #expect(magnitudes.map { MagnitudeBin.tenth(of: $0) } == magnitudes.map(IndependentMagnitudeMethods.tenth))
    }

    /// b-positive equals the independent sum on a list in time order, and stays near the true
    /// b while the completeness changes (an incomplete first half): where Aki–Utsu above the
    /// whole list's maxc does not.
    @Test func bPositiveStaysRightWhileCompletenessChanges() throws {
        var random = SeededGenerator(seed: 2021)
        var magnitudes: [Double] = []
        for index in 0 ..< 20_000 {
            let m = 0.95 - log(Double.random(in: Double.ulpOfOne ..< 1, using: &random)) / log(10)
            // The first half is complete above 2.5 only, the second above 1.0.
            if m >= (index < 10_000 ? 2.45 : 0.95) { magnitudes.append(m) }
        }
        var estimate = BPositive()
        magnitudes.forEach { estimate.add($0) }
        let value = try #require(estimate.value)
        let expected = try #require(IndependentMagnitudeMethods.bPositive(magnitudes.map(IndependentMagnitudeMethods.tenth)))
        #expect(abs(value.b - expected) < 1e-9)
        #expect(abs(value.b - 1.0) <= 3 * value.bError, "b+ \(value.b) ± \(value.bError)")
        var few = BPositive()
        [1.0, 1.5, 1.2].forEach { few.add($0) }
        #expect(few.value == nil)
        #expect(few.why == "No b-positive: 1 of the successive magnitude differences are 0.2 or more; it needs 50.")
    }

    /// Errors to two significant digits, the value to the same place: never `± 0.00`.
    @Test func uncertaintiesShowTwoSignificantDigits() {
        #expect(UncertaintyFormat.string(0.95, 0.0048) == "0.9500 ± 0.0048")
        #expect(UncertaintyFormat.string(0.44, 0.0022) == "0.4400 ± 0.0022")
        #expect(UncertaintyFormat.string(1.0213, 0.051) == "1.021 ± 0.051")
        #expect(UncertaintyFormat.string(1.0213, 0.0996) == "1.02 ± 0.10")
        #expect(UncertaintyFormat.string(12.3, 1.34) == "12.3 ± 1.3")
    }
}
