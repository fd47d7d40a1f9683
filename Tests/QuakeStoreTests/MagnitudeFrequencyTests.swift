import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The magnitude–frequency method of the statistics view (issues 32, 54): binning, Mc by maximum
/// curvature + 0.2, Aki–Utsu b, Shi–Bolt σ, a; checked by hand and on catalogues of known b.
@Suite struct MagnitudeFrequencyTests {
    /// Binned the way the method says, `floor(M × 10 + 0.5)`: a half tenth goes up, -0.05 to 0.
    @Test func binsRoundHalfUp() {
        #expect([2.04, 2.05, 2.149, 0.0, -0.05, -0.06, 9.1].map(MagnitudeBin.tenth(of:)) == [20, 21, 21, 0, 0, -1, 91])
    }

    /// 60 quakes at or above Mc 2.0 (the fullest bin, 1.8, + 0.2): 30 at 2.0, 20 at 2.1, 10 at
    /// 2.2, plus 70 below Mc at 1.8 and 2 without a magnitude.
    @Test func aSmallCatalogueByHand() throws {
        let mfd = MagnitudeFrequency(tenths: [18: 70, 20: 30, 21: 20, 22: 10], count: 132)
        #expect(mfd.completenessTenth == 20)
        #expect(mfd.bins.map(\.count) == [70, 0, 30, 20, 10])  // the empty bin of 1.9 too
        #expect(mfd.unusable == 2)
        #expect(mfd.cumulative.map(\.count) == [130, 60, 30, 10])
        let fit = try #require(mfd.fit)
        let mean = (2.0 * 30 + 2.1 * 20 + 2.2 * 10) / 60
        let b = log10(M_E) / (mean - 1.95)
        let squares = 30 * pow(2.0 - mean, 2) + 20 * pow(2.1 - mean, 2) + 10 * pow(2.2 - mean, 2)
        #expect(fit.n == 60)
        #expect(abs(fit.b - b) < 1e-12)
        #expect(abs(fit.bError - 2.30 * b * b * (squares / (60 * 59)).squareRoot()) < 1e-12)
        #expect(abs(fit.a - (log10(60) + b * 2.0)) < 1e-12)
        #expect(mfd.why == nil)
    }

    /// Mc is the most populated bin, the lower magnitude on a tie, + 0.2; too few above it: no b.
    @Test func aTieTakesTheLowerBinAndFewQuakesGiveNoFit() {
        let mfd = MagnitudeFrequency(tenths: [30: 20, 25: 20, 40: 5], count: 45)
        #expect(mfd.completenessTenth == 27)
        #expect(mfd.fit == nil)
        #expect(mfd.why == "Only 25 quakes at or above Mc 2.7; a b-value needs 50.")
        #expect(MagnitudeFrequency(tenths: [:], count: 3).why == "No quake of the list has a usable magnitude.")
    }

    /// Bins so far out that no real magnitude is there count as no magnitude; quakes all in one
    /// bin leave no slope: no fit, rather than b 8.69 (the Utsu correction over a zero spread).
    @Test func binsWithoutASpreadGiveNoFit() {
        let far = MagnitudeFrequency(tenths: [4_400_000_000_000_000_000: 60], count: 60)
        #expect(far.fit == nil && far.unusable == 60)
        #expect(far.why == "No quake of the list has a usable magnitude.")
        let one = MagnitudeFrequency(tenths: [40: 60, 45: 0], count: 60)
        #expect(one.fit == nil)
        #expect(one.why?.hasSuffix("no spread, so no Mc by maximum curvature and no slope to fit.") == true, "\(one.why ?? "nil")")
    }

    /// Catalogues drawn for b = 1.0 above 2.0 (continuous magnitudes from 1.95 up, then
    /// binned; the fullest bin 2.0, so Mc 2.2): the estimate lies within 2σ of 1.0 in at least
    /// 90 of 100 seeded catalogues (95 expected).
    @Test func theEstimateRecoversAKnownBValue() {
        var within = 0
        for seed in 0..<100 {
            var random = SeededGenerator(seed: UInt64(seed) &+ 7)
            var tenths: [Int: Int] = [:]
            let beta = 1.0 * log(10.0)
            for _ in 0..<800 {
                let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
                tenths[MagnitudeBin.tenth(of: 1.95 - log(u) / beta)!, default: 0] += 1
            }
            let fit = MagnitudeFrequency(tenths: tenths, count: 800).fit
            if let fit, fit.completeness == 2.2, abs(fit.b - 1.0) <= 2 * fit.bError { within += 1 }
        }
        // 95 expected; 2.5 standard deviations of the count (√(100 · 0.95 · 0.05) = 2.2) below.
        #expect(within >= 90, "\(within) of 100")
    }

    @Test func depthBinsAreTenKilometresToAHundredThenAHundred() {
        // Of the depth as shown: 9.94 shows `9.9 km`, 9.99 `10.0 km`.
        #expect([-2.0, 0, 9.94, 9.99, 10, 99.9, 100, 250, 699].map(DepthBins.from) == [-10, 0, 0, 10, 10, 90, 100, 200, 600])
        #expect([-10.0, 90, 100, 600].map(DepthBins.to) == [0, 100, 200, 700])
    }
}

/// Days, depths and regions of a list, and its magnitudes through `MagnitudeFrequency`.
@Suite struct CatalogueStatisticsTests {
    static let hour: Int64 = 3_600_000

    /// 2024-03-09 23:30 UTC is the 10th in Kathmandu (+05:45) but the 9th in UTC.
    @Test func daysFollowTheTimeZone() throws {
        let t0: Int64 = 1_710_027_000_000  // 2024-03-09T23:30:00Z
        for (zone, expected) in [("UTC", [("2024-03-09", 1), ("2024-03-10", 2)]), ("Asia/Kathmandu", [("2024-03-10", 3)])] {
            var stats = CatalogueStatistics(timeZone: try #require(TimeZone(identifier: zone)))
            for offset in [0, Self.hour, 2 * Self.hour] {
                stats.add(magnitude: 2.0, depth: 5, time: t0 + offset, region: "Nepal")
            }
            #expect(stats.daily.map(\.day) == expected.map(\.0), "\(zone)")
            #expect(stats.daily.map(\.count) == expected.map(\.1), "\(zone)")
        }
    }

    @Test func depthsRegionsAndMagnitudesAreCountedOnce() throws {
        var stats = CatalogueStatistics(timeZone: try #require(TimeZone(identifier: "UTC")))
        let rows: [(Double?, Double?, String)] = [(2.04, 5, "Alaska"), (2.05, 15, "Alaska"), (nil, 150, "Chile"),
                                                  (5.0, nil, "Chile"), (3.3, -1, "Alaska"), (1.0, 99.9, "Peru")]
        for (magnitude, depth, region) in rows { stats.add(magnitude: magnitude, depth: depth, time: 0, region: region) }
        #expect(stats.count == 6)
        #expect(stats.magnitudes.tenths == [20: 1, 21: 1, 50: 1, 33: 1, 10: 1])
        #expect(stats.depthBins.map(\.from) == [-10, 0, 10, 90, 100])
        #expect(stats.depthBins.map(\.count) == [1, 1, 1, 1, 1])
        #expect(stats.topRegions(2).map(\.region) == ["Alaska", "Chile"])
        #expect(stats.topRegions().map(\.count) == [3, 2, 1])
    }

    /// What a feed may hold but no quake has (a magnitude of 1e17 or 1e308) counts as no
    /// magnitude: no bin, not among the largest. Times at the ends of Int64 (a store edited by
    /// hand) count per day, without an hour that overflows.
    @Test func absurdMagnitudesAndTimesAreCountedWithoutTrapping() throws {
        var stats = CatalogueStatistics(timeZone: try #require(TimeZone(identifier: "UTC")))
        for magnitude in [9e17, -9e17, 4.4e17, 1e308, -1e308, 19.2, -6.5, 2.0] {
            stats.add(magnitude: magnitude, depth: 5, time: 1_700_000_000_000, region: "Chile")
        }
        #expect(stats.count == 8)
        #expect(stats.magnitudes.tenths == [20: 1])
        #expect(stats.largest.map(\.magnitude) == [2.0])
        for time in [Int64.min, .max, .min + 1, .max - 1] {
            var extreme = CatalogueStatistics(timeZone: try #require(TimeZone(identifier: "UTC")))
            extreme.add(magnitude: 2, depth: 5, time: time, region: "Chile")
            extreme.add(magnitude: 2, depth: 5, time: time, region: "Chile")
            #expect(extreme.count == 2)
            #expect(!extreme.isHourly, "\(time)")
        }
    }
}
