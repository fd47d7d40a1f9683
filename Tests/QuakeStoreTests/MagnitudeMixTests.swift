import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// What a list mixes (issue 54): a catalogue drawn as two magnitude types of different b and
/// completeness gives each type's own fit (as `IndependentMagnitudeMethods` computes it, within
/// its error of the truth), and warns of the mix and of the two modes; one type alone warns of
/// neither.
@Suite struct MagnitudeMixTests {
    /// Gutenberg–Richter magnitudes of slope `b` above `floor`, detected with a normal ramp of
    /// mean `ramp` and σ 0.1 (complete from about `ramp` + 0.25).
    static func draw(b: Double, floor: Double, ramp: Double, count: Int, using random: inout SeededGenerator) -> [Double] {
        var magnitudes: [Double] = []
        while magnitudes.count < count {
            let m = floor - log(Double.random(in: Double.ulpOfOne ..< 1, using: &random)) / (b * log(10))
            let detection = 0.5 * erfc(-(m - ramp) / (0.1 * 2.0.squareRoot()))
            if Double.random(in: 0 ..< 1, using: &random) < detection { magnitudes.append(m) }
        }
        return magnitudes
    }

    /// The quakes of `parts` at random times over 30 days, each part's from its agency (`ci` by default).
    static func events(_ parts: [(type: String, magnitudes: [Double])], seed: UInt64,
                       agencies: [String: String] = [:]) -> CatalogueEvents {
        var random = SeededGenerator(seed: seed)
        var all: [(Int64, Double, String)] = []
        for part in parts {
            for m in part.magnitudes { all.append((Int64.random(in: 0 ..< 30 * 86_400_000, using: &random), m, part.type)) }
        }
        all.sort { $0.0 < $1.0 }
        var events = CatalogueEvents()
        for (index, quake) in all.enumerated() {
            events.append(id: Int64(index), time: quake.0, latitude: 0, longitude: 0, depth: 10, magnitude: quake.1,
                          type: quake.2, agency: agencies[quake.2] ?? "ci", region: "")
        }
        return events
    }

    @Test func aMixtureOfTwoTypesGivesEachItsOwnFitAndWarns() throws {
        var random = SeededGenerator(seed: 54)
        let ml = Self.draw(b: 1.0, floor: 0.45, ramp: 1.0, count: 20_000, using: &random)
        let mb = Self.draw(b: 1.5, floor: 3.45, ramp: 4.2, count: 3_000, using: &random)
        let events = Self.events([("ml", ml), ("mb", mb)], seed: 1, agencies: ["mb": "us"])
        let composition = ListComposition(events)
        #expect(composition.types.map(\.name) == ["ml", "mb"])
        #expect(composition.types.map(\.count) == [20_000, 3_000])
        #expect(abs(composition.types[1].share - 3_000.0 / 23_000) < 1e-12)
        #expect(composition.agencies.map(\.name) == ["ci", "us"])
        #expect(composition.agencies.map(\.count) == [20_000, 3_000])
        #expect(composition.types.map(\.agencyCounts) == [["ci": 20_000], ["us": 3_000]])
        for (part, truth, magnitudes) in [(composition.types[0], 1.0, ml), (composition.types[1], 1.5, mb)] {
            let tenths = magnitudes.map(IndependentMagnitudeMethods.tenth)
            let mc = try #require(IndependentMagnitudeMethods.mc(tenths, "maxc"))
            let expected = try #require(IndependentMagnitudeMethods.b(tenths, mc: mc))
            let fit = try #require(part.frequency(.maxc).fit)
            #expect(Int((fit.completeness * 10).rounded()) == mc)
            #expect(abs(fit.b - expected.b) < 1e-9 && abs(fit.bError - expected.sigma) < 1e-9)
            #expect(abs(fit.b - truth) <= 3 * fit.bError, "\(part.name): b \(fit.b) ± \(fit.bError), truth \(truth)")
        }
        let statistics = events.statistics(timeZone: TimeZone(identifier: "UTC")!).including(events)
        let fit = MagnitudeFit(statistics.magnitudes, composition: statistics.composition)
        #expect(fit.mixWarnings.count == 2, "\(fit.mixWarnings)")
        #expect(fit.mixWarnings.first?.hasPrefix("The fit mixes 2 magnitude types at or above Mc 1.") == true)
        let modes = try #require(Bimodality(statistics.magnitudes.binned))
        #expect((8 ... 12).contains(modes.modes.low) && (40 ... 46).contains(modes.modes.high), "\(modes.modes)")
        #expect(fit.warnings.suffix(2) == fit.mixWarnings)
    }

    /// One type from several networks (ComCat's md of nc and hv): its fit, the list's once the
    /// list is of that type alone, is said to mix them where the others hold 5 % of it or more.
    @Test func oneTypeFromSeveralAgenciesWarnsOfItsNetworks() throws {
        var random = SeededGenerator(seed: 57)
        let md = Self.draw(b: 1.0, floor: 0.45, ramp: 1.0, count: 10_000, using: &random)
        func warnings(hawaii share: Int) -> [String] {
            var events = CatalogueEvents()
            for (index, m) in md.enumerated() {
                events.append(id: Int64(index), time: Int64(index) * 60_000, latitude: 0, longitude: 0, depth: 10, magnitude: m,
                              type: "md", agency: index % 100 < share ? "hv" : "nc", region: "")
            }
            let statistics = events.statistics(timeZone: TimeZone(identifier: "UTC")!).including(events)
            #expect(statistics.composition?.types.first?.agencyCounts == ["nc": 10_000 - share * 100, "hv": share * 100].filter { $0.value > 0 })
            return MagnitudeFit(statistics.magnitudes, composition: statistics.composition).mixWarnings
        }
        #expect(warnings(hawaii: 30) == ["md comes from 2 agencies (nc 70 %, hv 30 %): each network's md may differ in calibration "
                                         + "and in the magnitude it detects down to, so one Mc and b of md may describe none of them. "
                                         + "Narrow the list to one network's region (--search, --near) before reading its fit."])
        #expect(warnings(hawaii: 5).count == 1)
        #expect(warnings(hawaii: 4).isEmpty && warnings(hawaii: 0).isEmpty)
    }

    /// The two-modes warning says where the Mc computed lies: with the lower mode when the local
    /// catalogue is the larger (maxc at its peak), with the upper when the global one is, and
    /// nothing of an Mc where the method gives none.
    @Test(arguments: [(20_000, 3_000, "below"), (3_000, 20_000, "above")])
    func theTwoModesWarningSaysWhereTheMcComputedLies(local: Int, global: Int, side: String) throws {
        var random = SeededGenerator(seed: 55)
        let ml = Self.draw(b: 1.0, floor: 0.45, ramp: 1.0, count: local, using: &random)
        let mb = Self.draw(b: 1.0, floor: 3.45, ramp: 4.2, count: global, using: &random)
        let events = Self.events([("ml", ml), ("mb", mb)], seed: 2)
        let statistics = events.statistics(timeZone: TimeZone(identifier: "UTC")!).including(events)
        let modes = try #require(Bimodality(statistics.magnitudes.binned))
        let mc = try #require(IndependentMagnitudeMethods.maxc((ml + mb).map(IndependentMagnitudeMethods.tenth)))
        #expect(side == "below" ? mc < modes.valley : mc > modes.valley, "Mc \(mc), valley \(modes.valley)")
        let valley = String(format: "the valley near M %.1f", Double(modes.valley) / 10)
        let said = String(format: "(Mc %.1f by maxc is ", Double(mc) / 10) + (side == "below"
            ? "below \(valley), with the lower mode: the fit runs over both catalogues)"
            : "above \(valley), with the upper mode: the fit leaves out the lower mode's quakes)")
        let warning = try #require(MagnitudeFit(statistics.magnitudes, composition: statistics.composition).mixWarnings.last)
        #expect(warning.contains("describe neither " + said + ". Narrow the list"), "\(warning)")
        #expect(!warning.contains("maximum curvature puts"))
        // gft95 on the same list: its own Mc, or none and no word of one.
        let gft = MagnitudeFit(statistics.magnitudes.using(.gft95), composition: statistics.composition).mixWarnings.last ?? ""
        if let gftMc = statistics.magnitudes.using(.gft95).completenessTenth {
            #expect(gft.contains(String(format: "(Mc %.1f by gft95 is ", Double(gftMc) / 10)), "\(gft)")
        } else {
            #expect(gft.contains("describe neither. Narrow"), "\(gft)")
        }
    }

    /// b-positive takes every magnitude: a list whose magnitudes at or above Mc are all mb, but
    /// which holds ml below, has a fit of one type (no warning) and a b-positive of two (its own
    /// warning, the shares counted here over every magnitude); one type alone warns of neither.
    @Test func bPositiveWarnsOfTheTypesOfEveryMagnitudeItUses() throws {
        var random = SeededGenerator(seed: 56)
        let ml = Self.draw(b: 1.0, floor: 0.45, ramp: 1.0, count: 3_000, using: &random).map { min($0, 2.9) }
        let mb = Self.draw(b: 1.0, floor: 3.45, ramp: 4.2, count: 20_000, using: &random)
        let events = Self.events([("ml", ml), ("mb", mb)], seed: 3)
        let statistics = events.statistics(timeZone: TimeZone(identifier: "UTC")!).including(events)
        let positive = events.bPositive
        #expect(positive.value != nil)
        let fit = MagnitudeFit(statistics.magnitudes, positive: positive, composition: statistics.composition)
        let mc = try #require(fit.mfd.fit?.completeness)
        #expect(mc > 3, "\(mc)")
        #expect(!fit.warnings.contains { $0.hasPrefix("The fit mixes ") }, "\(fit.warnings)")
        let share = { (count: Int) in "\(Int((Double(count) * 100 / 23_000).rounded())) %" }
        #expect(fit.warnings.contains("b-positive mixes 2 magnitude types (mb \(share(20_000)), ml \(share(3_000))): it takes every magnitude, "
                                      + "with no Mc cut, and a difference between two scales is no difference of magnitude. "
                                      + "Fit one type alone with --mag-type TYPE."), "\(fit.warnings)")
        let one = Self.events([("mb", mb)], seed: 3)
        let oneStatistics = one.statistics(timeZone: TimeZone(identifier: "UTC")!).including(one)
        #expect(!MagnitudeFit(oneStatistics.magnitudes, positive: one.bPositive, composition: oneStatistics.composition).warnings
            .contains { $0.hasPrefix("b-positive mixes") })
        // Without a b-positive (the browser's view), nothing.
        #expect(!MagnitudeFit(statistics.magnitudes, composition: statistics.composition).warnings.contains { $0.hasPrefix("b-positive mixes") })
    }

    /// One Gutenberg–Richter distribution with its detection ramp, of b 0.8 … 1.5 and 500 to
    /// 50,000 quakes, never has two modes, and one type warns of no mix.
    @Test(arguments: [0.8, 1.0, 1.5], [500, 5_000, 50_000])
    func oneDistributionHasOneMode(_ b: Double, _ count: Int) {
        for seed in 1 ... 8 as ClosedRange<UInt64> {
            var random = SeededGenerator(seed: seed * 1000 + UInt64(count))
            let events = Self.events([("ml", Self.draw(b: b, floor: 0.95, ramp: 1.75, count: count, using: &random))], seed: seed)
            let statistics = events.statistics(timeZone: TimeZone(identifier: "UTC")!).including(events)
            let warnings = MagnitudeMixWarnings.warnings(statistics.magnitudes, statistics.composition)
            #expect(warnings.isEmpty, "b \(b), \(count) quakes, seed \(seed): \(warnings)")
        }
    }

    /// The smoothed counts, the valley and its significance as the README states them, on a
    /// histogram written by hand: modes at bins 12 and 30, valley between.
    @Test func theTestOfTwoModesIsTheStatedOne() throws {
        var counts = [Int](repeating: 0, count: 41)
        for k in 0 ... 40 { counts[k] = k <= 20 ? max(0, 200 - 15 * abs(k - 12)) : max(0, 120 - 12 * abs(k - 30)) }
        counts[0] = max(counts[0], 1)
        counts[40] = max(counts[40], 1)
        var tenths: [Int: Int] = [:]
        for (k, c) in counts.enumerated() where c > 0 { tenths[k] = c }
        let binned = MagnitudeFrequency(tenths: tenths, count: counts.reduce(0, +)).binned
        let found = try #require(Bimodality(binned))
        // Independently: the five-bin sums, and the best valley by (m − s)/√(m + s).
        func s(_ k: Int) -> Double { Double((max(0, k - 2) ... min(40, k + 2)).reduce(0) { $0 + counts[$1] }) }
        var best = (0.0, 0)
        for k in 5 ... 35 {
            let l = (0 ... k - 5).map(s).max()!, r = (k + 5 ... 40).map(s).max()!
            let m = min(l, r)
            if m - s(k) >= 4 * (m + s(k)).squareRoot(), s(k) <= 0.8 * m, (m - s(k)) / (m + s(k)).squareRoot() > best.0 {
                best = ((m - s(k)) / (m + s(k)).squareRoot(), k)
            }
        }
        #expect(found.valley == best.1 && abs(found.significance - best.0) < 1e-12)
        #expect(found.modes == (12, 30) || (found.modes.low == 12 && found.modes.high == 30))
    }
}
