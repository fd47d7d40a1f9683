import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The sequence after a mainshock (issue 54): its radius (Wells & Coppersmith 1994), the
/// Reasenberg & Jones (1989) forecast against the closed form computed here, the switch from the
/// generic parameters to the sequence's own, and the store's read against a brute-force one.
@Suite struct AftershockSequenceTests {
    static let day: Int64 = 86_400_000
    static let mainTime: Int64 = 1_700_000_000_000

    /// `log10 L = −3.22 + 0.69 M` km, never under 10 km, up to M 8.1 (Wells & Coppersmith's data).
    @Test func theRadiusIsTheSurfaceRuptureLength() {
        #expect(abs(SequenceRadius.kilometres(magnitude: 7) - 40.738_027_780_411_26) < 1e-9)
        #expect(abs(SequenceRadius.kilometres(magnitude: 8) - 199.526_231_496_887_9) < 1e-9)
        #expect(SequenceRadius.choice(magnitude: 8.1).method == .wellsCoppersmith)
        // 10^(−3.22 + 0.69 × 6.1) = 9.75 km: the floor (from M 6.12 up, the length).
        #expect(SequenceRadius.kilometres(magnitude: 6.1) == 10)
        #expect(abs(SequenceRadius.kilometres(magnitude: 6.2) - pow(10, 1.058)) < 1e-9)
        #expect(SequenceRadius.kilometres(magnitude: 4) == 10)
        #expect(abs(SequenceRadius.kilometres(magnitude: 6.5) - pow(10, 1.265)) < 1e-9)
    }

    /// Above M 8.1, where Wells & Coppersmith's data end, Strasser et al.'s (2010) interface
    /// length `log10 L = −2.477 + 0.585 M`, never less than Wells & Coppersmith's at M 8.1
    /// (10^(−3.22 + 5.589) = 233.9 km), so the radius grows with the magnitude; M 9.5 is past the
    /// M 9.4 of Strasser's data, and the line says so. (Wells & Coppersmith at M 9.5: 2,163 km.)
    @Test func aboveMagnitude8Point1TheRadiusIsStrassersInterfaceLength() {
        let top = pow(10, -3.22 + 0.69 * 8.1)
        #expect(abs(top - 233.883_724_1) < 1e-6)
        for magnitude in [8.15, 8.2, 8.25] {
            let choice = SequenceRadius.choice(magnitude: magnitude)
            #expect(pow(10, -2.477 + 0.585 * magnitude) < top)
            #expect(choice.method == .wellsCoppersmithTop && abs(choice.km - top) < 1e-9, "M \(magnitude): \(choice)")
        }
        for magnitude in [8.3, 8.8, 9.0, 9.5] {
            let choice = SequenceRadius.choice(magnitude: magnitude)
            #expect(choice.method == .strasserInterface && abs(choice.km - pow(10, -2.477 + 0.585 * magnitude)) < 1e-9, "M \(magnitude): \(choice)")
        }
        #expect(abs(SequenceRadius.kilometres(magnitude: 9.5) - 1_203.6) < 0.05)
        let radii = stride(from: 5.0, through: 9.6, by: 0.01).map { SequenceRadius.kilometres(magnitude: $0) }
        #expect(zip(radii, radii.dropFirst()).allSatisfy { $0 <= $1 })
        let now = Self.mainTime + Self.day
        func sequence(_ magnitude: Double) -> AftershockSequence {
            AftershockSequence(mainshock: Self.mainshock(magnitude: magnitude), aftershocks: [], end: now, now: now)
        }
        #expect(sequence(9.5).radiusLine == "Radius 1203.6 km (Strasser et al. 2010 subduction-interface rupture length: M 9.5 is above "
                + "Wells & Coppersmith's M 8.1, and above the M 9.4 of Strasser's data too: extrapolated)")
        #expect(sequence(9.0).radiusLine == "Radius 613.8 km (Strasser et al. 2010 subduction-interface rupture length: M 9.0 is above "
                + "Wells & Coppersmith's M 8.1)")
        #expect(sequence(8.2).radiusLine == "Radius 233.9 km (Wells & Coppersmith 1994 rupture length at M 8.1, the top of their data; "
                + "M 8.2 is above it, and Strasser et al. 2010's subduction-interface length is less)")
        #expect(sequence(7.1).radiusLine == "Radius 47.8 km (Wells & Coppersmith 1994 rupture length)" && sequence(7.1).radiusNote == nil)
        #expect(sequence(5).radiusLine == "Radius 10.0 km (the least; Wells & Coppersmith 1994 give less)")
    }

    /// The forecast starts at the clock's now only when the store covers time up to now: the
    /// time from its newest quake to now, as one more gap, is not one a Poisson process at the
    /// store's rate ((N − 1) gaps over its span) has among its N gaps with a chance below 1e-20.
    /// Otherwise it starts where the window ends, and a sentence says so.
    @Test func theForecastStartsNowOnlyWhenTheStoreReachesNow() throws {
        let aftershocks = (0 ..< 30).map { AftershockSequence.Aftershock(time: Self.mainTime + Int64($0) * 3_600_000, magnitude: 2.5) }
        let oldest = Self.mainTime - 30 * Self.day, newest = Self.mainTime + 29 * 3_600_000
        let count = 1_000
        // Solved here: N e^(−λ g) = 1e-20 with λ = (N − 1) / (now − oldest − g), g = now − newest.
        func chance(now: Int64) -> Double {
            let g = Double(now - newest), rate = Double(count - 1) / Double(newest - oldest)
            return Double(count) * exp(-rate * g)
        }
        func sequence(now: Int64) -> AftershockSequence {
            AftershockSequence(mainshock: Self.mainshock(), aftershocks: aftershocks, end: newest, storeCount: count, storeOldest: oldest, now: now)
        }
        let soon = newest + Self.day / 2, late = newest + 2 * Self.day
        #expect(chance(now: soon) > 1e-20 && chance(now: late) < 1e-20)
        let covered = sequence(now: soon)
        #expect(covered.forecastStart == .now && covered.forecast.allSatisfy { $0.start == soon } && covered.forecastStartNote == nil)
        let stale = sequence(now: late)
        #expect(stale.forecastStart == .dataEnd && stale.forecast.allSatisfy { $0.start == newest } && stale.forecast.count == 9)
        #expect(stale.forecastStartNote == "The forecast starts 2023-11-16 03:13 UTC, where the sequence's data end, 2.0 days before now: "
                + "the store does not cover time up to now (nothing is stored after its newest quake for far too long for its rate to be chance), "
                + "so these are the numbers expected then, not now.")
        // From the data's end: t1 is the window's end in days.
        let t1 = Double(newest - Self.mainTime) / Double(Self.day)
        for entry in stale.forecast {
            let expected = Self.closedForm(a: -1.67, b: 0.91, p: 1.08, c: 0.05, mainshock: 7.1, magnitude: entry.magnitude, from: t1, days: entry.days)
            #expect(abs(entry.expected / expected.expected - 1) < 1e-12)
        }
        // A store of one quake has no rate: a later clock is not covered.
        let alone = AftershockSequence(mainshock: Self.mainshock(), aftershocks: [], end: Self.mainTime, storeCount: 1, storeOldest: Self.mainTime,
                                       now: Self.mainTime + 1_000)
        #expect(alone.forecastStart == .dataEnd)
    }

    /// A sequence ended by a larger quake has no forecast of its own: the larger quake's is the
    /// one to read, and a warning says so.
    @Test func aSequenceEndedByALargerQuakeHasNoForecast() {
        let larger = Self.mainTime + 3 * Self.day
        let aftershocks = (0 ..< 30).map { AftershockSequence.Aftershock(time: Self.mainTime + Int64($0) * 3_600_000, magnitude: 2.5) }
            + [.init(time: larger, magnitude: 7.3, code: "us7000big")]
        let sequence = AftershockSequence(mainshock: Self.mainshock(), aftershocks: aftershocks, end: larger, now: larger)
        #expect(sequence.forecast.isEmpty && sequence.forecastStart == nil && sequence.forecastMagnitudes.isEmpty)
        #expect(sequence.warnings.last == "No forecast: this quake was a foreshock of the M 7.3 of 2023-11-17 22:13 UTC; "
                + "that quake's sequence and forecast are the ones to read (`sequence us7000big`).")
    }

    /// A parameter whose error is larger than its value is said not to be resolved.
    @Test func aParameterWithAnErrorLargerThanItselfIsSaidUnresolved() {
        let fit = OmoriFit(law: OmoriLaw(k: 120, c: 0.003, p: 1.1), kError: 10, cError: 0.0049, pError: 0.05,
                           background: .init(rate: 0.01, error: 0.01), n: 100)
        #expect(AftershockSequence.unresolved(fit) == [
            "The Omori fit's c (0.0030 ± 0.0049 d) is not resolved by the data: its error is larger than its value.",
        ])
    }

    /// `N = 10^(a + b (Mm − M)) ((t2 + c)^(1−p) − (t1 + c)^(1−p)) / (1 − p)`, `P = 1 − e^−N`.
    static func closedForm(a: Double, b: Double, p: Double, c: Double, mainshock: Double, magnitude: Double,
                           from t1: Double, days: Double) -> (expected: Double, probability: Double) {
        let t2 = t1 + days
        let n = pow(10, a + b * (mainshock - magnitude)) * (pow(t2 + c, 1 - p) - pow(t1 + c, 1 - p)) / (1 - p)
        return (n, 1 - exp(-n))
    }

    static func mainshock(magnitude: Double = 7.1) -> AftershockSequence.Mainshock {
        .init(code: "us7000main", time: mainTime, magnitude: magnitude, latitude: 35.7, longitude: -117.5, place: "Ridgecrest, CA")
    }

    /// A mainshock of M 5.96 shows `6.0`: its forecast row is M 6's, not a second row also
    /// labelled `M ≥ 6.0`.
    @Test func aMainshockShownAtSixHasOneRowWithMSix() {
        let now = Self.mainTime + 2 * Self.day
        let aftershocks = (0 ..< 30).map { AftershockSequence.Aftershock(time: Self.mainTime + Int64($0) * 3_600_000, magnitude: 2.5) }
        let sequence = AftershockSequence(mainshock: Self.mainshock(magnitude: 5.96), aftershocks: aftershocks, end: now, now: now)
        #expect(sequence.forecastMagnitudes == [5, 6])
    }

    /// Fewer than 100 aftershocks at or above Mc: the generic parameters, each of the nine
    /// numbers (M 5, 6 and the mainshock's; 1, 7 and 30 days from now) as the closed form gives.
    @Test func theGenericForecastIsTheClosedForm() throws {
        let now = Self.mainTime + 2 * Self.day + 3_600_000
        let aftershocks = (0 ..< 30).map { AftershockSequence.Aftershock(time: Self.mainTime + Int64($0) * 3_600_000, magnitude: 2.5 + Double($0 % 7) / 10) }
        let sequence = AftershockSequence(mainshock: Self.mainshock(), aftershocks: aftershocks, end: now, now: now)
        #expect(sequence.parameters == .generic)
        #expect(sequence.count == 30)
        #expect(sequence.omori == nil)
        #expect(sequence.warnings == ["No Omori fit: 20 quakes at or above the sequence's Mc 2.7; a fit needs 50."])
        let t1 = Double(now - Self.mainTime) / Double(Self.day)
        #expect(sequence.forecast.map(\.magnitude) == [5, 5, 5, 6, 6, 6, 7.1, 7.1, 7.1])
        #expect(sequence.forecast.map(\.days) == [1, 7, 30, 1, 7, 30, 1, 7, 30])
        for entry in sequence.forecast {
            let expected = Self.closedForm(a: -1.67, b: 0.91, p: 1.08, c: 0.05, mainshock: 7.1, magnitude: entry.magnitude,
                                           from: t1, days: entry.days)
            #expect(entry.start == now)
            #expect(abs(entry.expected / expected.expected - 1) < 1e-12)
            #expect(abs(entry.probability / expected.probability - 1) < 1e-12)
        }
    }

    /// Aftershocks at or above Mc of several magnitude types are said to mix scales, with each
    /// type's share (as `stats` says of a list), and those below Mc do not count; one type alone,
    /// or types only below Mc, say nothing.
    @Test func aftershocksOfSeveralMagnitudeTypesAboveMcAreSaidToMixScales() {
        let now = Self.mainTime + 2 * Self.day
        // Mc by maximum curvature: 2.7 (the most common tenth, 20 of the 30 at or above it).
        func sequence(_ typeOf: (Int, Double) -> String?) -> AftershockSequence {
            let aftershocks = (0 ..< 30).map { index -> AftershockSequence.Aftershock in
                let magnitude = 2.5 + Double(index % 7) / 10
                return .init(time: Self.mainTime + Int64(index) * 3_600_000, magnitude: magnitude, magType: typeOf(index, magnitude))
            }
            return AftershockSequence(mainshock: Self.mainshock(), aftershocks: aftershocks, end: now, now: now)
        }
        let mixed = sequence { index, magnitude in magnitude >= 2.65 ? (index % 5 == 0 ? "Mw" : "ml") : "md" }
        #expect(mixed.completeness == 2.7)
        #expect(mixed.warnings.contains("The aftershocks at or above Mc 2.7 have 2 magnitude types (ml 80 %, mw 20 %): "
                                        + "Mc, the b-value and a forecast from them mix scales that are not one."), "\(mixed.warnings)")
        #expect(!sequence { _, magnitude in magnitude >= 2.65 ? "ml" : "md" }.warnings.contains { $0.contains("magnitude types") })
        #expect(!sequence { _, _ in nil }.warnings.contains { $0.contains("magnitude types") })
        let unknown = sequence { index, _ in index % 2 == 0 ? "ml" : nil }
        #expect(unknown.warnings.contains { $0.contains("have 2 magnitude types (") && $0.contains("unknown ") }, "\(unknown.warnings)")
    }

    /// A log-time bin's days as the table names them: three significant digits, the last bin
    /// ending where the catalogue does (the bin 12.59–15.85 read `13–16` in a catalogue that
    /// ends at 12.98 days).
    @Test func aBinIsNamedByItsEdgesAndTheLastEndsWithTheCatalogue() {
        #expect(LogTimeBins.bin(of: 12.98) == 51)
        #expect(SequenceText.binDays(51, endDays: 12.98) == "12.6–13.0")
        #expect(SequenceText.binDays(51, endDays: 100) == "12.6–15.8")
        #expect(SequenceText.binDays(40, endDays: 100) == "1.00–1.26")
        #expect(SequenceText.binDays(0, endDays: 100) == "0–1.26e-04")
        #expect(SequenceText.significant(15.85) == "16" && SequenceText.significant(0.0123) == "0.012")
    }

    /// A share is never said to be all when it is not, nor none when it is some (`stats` said
    /// `usgs 100 %, emsc < 1 %` of 15,604 in 15,610).
    @Test func aShareNearAllIsNotAll() {
        #expect(ListComposition.percent(15_604.0 / 15_610) == "> 99 %")
        #expect(ListComposition.percent(1) == "100 %")
        #expect(ListComposition.percent(0.994) == "99 %")
        #expect(ListComposition.percent(3.0 / 15_610) == "< 1 %")
        #expect(ListComposition.percent(0) == "0 %")
    }

    /// A simulated sequence (Omori times, Gutenberg–Richter magnitudes with b = 1 from M 2.0)
    /// past 100 aftershocks at or above its Mc: its own parameters, `a = log10 K − b (Mm − Mc)`,
    /// and the forecast their closed form.
    @Test func theSequencesOwnParametersTakeOverAtOneHundred() throws {
        let times = IndependentOmori.simulate(k: 60, c: 0.05, p: 1.1, days: 20, seed: 99)
        var random = SeededGenerator(seed: 5)
        let aftershocks = times.map { t in
            let magnitude = ((2.0 - log10(Double.random(in: Double.ulpOfOne ..< 1, using: &random))) * 10).rounded() / 10
            return AftershockSequence.Aftershock(time: Self.mainTime + Int64(t * Double(Self.day)), magnitude: magnitude)
        }
        let end = Self.mainTime + 20 * Self.day
        let sequence = AftershockSequence(mainshock: Self.mainshock(), aftershocks: aftershocks, end: end, now: end)
        #expect(sequence.aboveCompleteness >= 100)
        let omori = try #require(sequence.omori)
        let b = try #require(sequence.bValue)
        let mc = try #require(sequence.completeness)
        #expect(sequence.parameters == .sequence)
        // The fit is of the aftershocks at or above Mc, over the whole catalogue's span.
        let above = aftershocks.filter { $0.magnitude! >= mc - 0.05 }.map { Double($0.time - Self.mainTime) / Double(Self.day) }
        #expect(omori == (try OmoriFit.fit(above, to: 20).get()))
        // Aki–Utsu above Mc, computed here.
        let magnitudes = aftershocks.compactMap(\.magnitude).filter { $0 >= mc - 0.05 }
        let mean = magnitudes.reduce(0, +) / Double(magnitudes.count)
        #expect(abs(b.b - log10(M_E) / (mean - (mc - 0.05))) < 1e-9)
        let a = log10(omori.law.k) - b.b * (7.1 - mc)
        for entry in sequence.forecast {
            let expected = Self.closedForm(a: a, b: b.b, p: omori.law.p, c: omori.law.c, mainshock: 7.1, magnitude: entry.magnitude,
                                           from: 20, days: entry.days)
            #expect(abs(entry.expected / expected.expected - 1) < 1e-9)
            #expect(abs(entry.probability / expected.probability - 1) < 1e-9)
        }
    }

    /// Aftershocks at `times` (days), their magnitudes Gutenberg–Richter with b = 1 from M 2.0, at most M 5.
    static func aftershocks(_ times: [Double], seed: UInt64) -> [AftershockSequence.Aftershock] {
        var random = SeededGenerator(seed: seed)
        return times.map { t in
            let magnitude = min(5, ((2.0 - log10(Double.random(in: Double.ulpOfOne ..< 1, using: &random))) * 10).rounded() / 10)
            return AftershockSequence.Aftershock(time: Self.mainTime + Int64(t * Double(Self.day)), magnitude: magnitude)
        }
    }

    /// The days after the mainshock of `aftershocks` at or above `mc` (binned, as the fit reads them).
    static func days(_ aftershocks: [AftershockSequence.Aftershock], atOrAbove mc: Double) -> [Double] {
        aftershocks.filter { $0.magnitude! >= mc - 0.05 }.map { Double($0.time - Self.mainTime) / Double(Self.day) }
    }

    /// A quake within the radius larger than the mainshock (as shown) ends its sequence: the
    /// count, the histogram and the fit stop at its time, and a sentence names it. One shown
    /// at the mainshock's magnitude (7.14 beside 7.1) does not.
    @Test func aLargerQuakeEndsTheSequenceAtItsTime() throws {
        let times = IndependentOmori.simulate(k: 60, c: 0.05, p: 1.1, days: 20, seed: 7)
        let larger = Self.mainTime + 3 * Self.day + 3_600_000
        var aftershocks = Self.aftershocks(times, seed: 7)
        aftershocks.append(.init(time: Self.mainTime + Self.day, magnitude: 6.44, code: "same"))     // shown 6.4: not larger
        aftershocks.append(.init(time: larger, magnitude: 6.46, code: "ci38457511"))                 // shown 6.5
        aftershocks.append(.init(time: larger + Self.day, magnitude: 7.0, code: "later"))
        let end = Self.mainTime + 20 * Self.day
        let sequence = AftershockSequence(mainshock: Self.mainshock(magnitude: 6.4), aftershocks: aftershocks, end: end, now: end)
        let before = aftershocks.filter { $0.time < larger }
        #expect(sequence.count == before.count)
        #expect(sequence.end == larger)
        #expect(sequence.ending == .largerQuake(code: "ci38457511", time: larger, magnitude: 6.46))
        #expect(sequence.endNote == "The sequence ends at the M 6.5 of 2023-11-17 23:13 UTC, a larger quake: its own sequence is `sequence ci38457511`, and its forecast is the one to read: this one gives none.")
        let omori = try #require(sequence.omori)
        let mc = try #require(sequence.completeness)
        #expect(omori == (try OmoriFit.fit(Self.days(before, atOrAbove: mc), to: 3 + 1.0 / 24).get()))
        #expect(sequence.histogram.reduce(0, +) == before.count)
        // Nothing larger: the store's newest quake, no sentence.
        let alone = AftershockSequence(mainshock: Self.mainshock(magnitude: 7.1), aftershocks: aftershocks, end: end, now: end)
        #expect(alone.ending == .catalogue && alone.end == end && alone.count == aftershocks.count && alone.endNote == nil)
    }

    /// A gap in the store's coverage ends the sequence at its last quake before it: the quakes
    /// after are not counted and the fit ends there. The earliest of the gap and a larger
    /// quake ends it.
    @Test func aGapInTheStoresCoverageEndsTheSequence() throws {
        let times = IndependentOmori.simulate(k: 60, c: 0.05, p: 1.1, days: 13, seed: 8)
        var aftershocks = Self.aftershocks(times, seed: 8)
        let covered = aftershocks
        let last = Self.mainTime + 13 * Self.day
        let gap = CatalogueCoverage.Gap(from: last, to: last + 2_199 * Self.day)
        aftershocks += [.init(time: gap.to, magnitude: 3.0), .init(time: gap.to + 1_000, magnitude: 7.5, code: "after")]
        let sequence = AftershockSequence(mainshock: Self.mainshock(), aftershocks: aftershocks, end: gap.to + 1_000, coverageGap: gap, now: gap.to)
        #expect(sequence.count == times.count)
        #expect(sequence.end == last && sequence.ending == .coverageGap(gap))
        #expect(sequence.endNote == "The sequence ends 2023-11-27 22:13 UTC: no quake is stored for 6.0 years after that, "
                + "too long for the store's rate to be chance, so the count and the fit end there.")
        let omori = try #require(sequence.omori)
        #expect(omori == (try OmoriFit.fit(Self.days(covered, atOrAbove: try #require(sequence.completeness)), to: 13).get()))
        // Without the gap, as before: every quake to the store's newest.
        let unaware = AftershockSequence(mainshock: Self.mainshock(), aftershocks: aftershocks, end: gap.to + 1_000, now: gap.to)
        #expect(unaware.ending == .largerQuake(code: "after", time: gap.to + 1_000, magnitude: 7.5) && unaware.count == times.count + 1)
        // A larger quake before the gap ends it first.
        let larger = AftershockSequence(mainshock: Self.mainshock(), aftershocks: aftershocks + [.init(time: Self.mainTime + 2 * Self.day, magnitude: 7.2)],
                                        end: gap.to + 1_000, coverageGap: gap, now: gap.to)
        #expect(larger.ending == .largerQuake(code: nil, time: Self.mainTime + 2 * Self.day, magnitude: 7.2))
        #expect(larger.endNote == "The sequence ends at the M 7.2 of 2023-11-16 22:13 UTC, a larger quake: the quakes from it on are its own sequence, and its forecast is the one to read: this one gives none.")
    }

    /// The store ends a sequence at the first gap in its coverage: a sequence's month beside a
    /// single quake six years on, in its radius, reads as the month alone would, with the gap.
    @Test func theStoresCoverageGapEndsTheSequence() throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: 3)
        var records = [QuakeRecord.fixture("main", magnitude: 7.1, time: Self.mainTime)]
        for index in 0 ..< 400 {
            records.append(.fixture("q\(index)", magnitude: Double(Int.random(in: 25 ... 45, using: &random)) / 10,
                                    time: Self.mainTime + Int64.random(in: 1 ... 30 * Self.day, using: &random)))
        }
        for index in records.indices { (records[index].latitude, records[index].longitude) = (35.7, -117.5) }
        try store.upsert(records)
        let month = try store.read { try $0.aftershockSequence(of: "main", now: Self.mainTime + 40 * Self.day) }.get()
        #expect(month.ending == .catalogue)
        let newest = records.map(\.time).max()!
        // The store's 401 quakes over 30 days: ten days after the newest is a gap (the forecast
        // starts at the data's end), an hour is not (it starts now).
        #expect(month.forecastStart == .dataEnd && month.forecast.first?.start == newest)
        let recent = try store.read { try $0.aftershockSequence(of: "main", now: newest + 3_600_000) }.get()
        #expect(recent.forecastStart == .now && recent.forecast.first?.start == newest + 3_600_000)
        var later = QuakeRecord.fixture("later", magnitude: 3, time: newest + 2_199 * Self.day)
        (later.latitude, later.longitude) = (35.7, -117.5)
        try store.upsert([later])
        let both = try store.read { try $0.aftershockSequence(of: "main", now: Self.mainTime + 40 * Self.day) }.get()
        #expect(both.ending == .coverageGap(.init(from: newest, to: later.time)))
        #expect(both.count == month.count && both.end == month.end && both.omori == month.omori && both.histogram == month.histogram)
    }

    /// The store reads the background's year: the quakes within the radius (by a brute-force
    /// haversine here) in the 365.25 days before the mainshock, at or above the sequence's Mc;
    /// with less than a year stored before it, none and the sentence.
    @Test func theStoreMeasuresTheBackgroundInTheYearBefore() throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: 11)
        var records = [QuakeRecord.fixture("main", magnitude: 7.1, time: Self.mainTime)]
        (records[0].latitude, records[0].longitude) = (35.7, -117.5)
        func place(_ record: inout QuakeRecord) {
            (record.latitude, record.longitude) = (35.7 + Double.random(in: -0.6 ... 0.6, using: &random),
                                                   -117.5 + Double.random(in: -0.7 ... 0.7, using: &random))
        }
        // Omori aftershocks, a third of them at M 2.5 (the fullest bin: Mc 2.7), none 2 above Mc.
        for (index, t) in IndependentOmori.simulate(k: 50, c: 0.05, p: 1.1, days: 30, seed: 12).enumerated() {
            let magnitude = index % 3 == 0 ? 2.5 : Double(Int.random(in: 26 ... 45, using: &random)) / 10
            var record = QuakeRecord.fixture("a\(index)", magnitude: magnitude, time: Self.mainTime + 1 + Int64(t * Double(Self.day)))
            (record.latitude, record.longitude) = (35.7, -117.5)
            records.append(record)
        }
        for index in 0 ..< 600 {
            var record = QuakeRecord.fixture("b\(index)", magnitude: Double(Int.random(in: 25 ... 45, using: &random)) / 10,
                                             time: Self.mainTime - Int64.random(in: 1 ... 400 * Self.day, using: &random))
            place(&record)
            records.append(record)
        }
        try store.upsert(records)
        let sequence = try store.read { try $0.aftershockSequence(of: "main", now: Self.mainTime + 40 * Self.day) }.get()
        let mc = try #require(sequence.completeness)
        let main = GeoPoint(latitude: 35.7, longitude: -117.5)
        let year = Self.mainTime - Int64((365.25 * Double(Self.day)).rounded())
        let expected = records.filter {
            $0.code.hasPrefix("b") && $0.time >= year && $0.magnitude! >= mc - 0.05
                && main.distance(to: GeoPoint(latitude: $0.latitude, longitude: $0.longitude)) <= sequence.radiusKm
        }.count
        let background = try #require(try? sequence.background?.get())
        #expect(background.count == expected && background.inRadius == expected && expected > 50)
        #expect(sequence.omori?.background == .init(rate: Double(expected) / 365.25, error: Double(expected).squareRoot() / 365.25))
        // The quakes more than a year back removed: the store holds less than a year before.
        let shorter = try TestStore()
        defer { shorter.remove() }
        try shorter.upsert(records.filter { $0.time >= Self.mainTime - 200 * Self.day })
        let without = try shorter.read { try $0.aftershockSequence(of: "main", now: Self.mainTime + 40 * Self.day) }.get()
        let oldest = records.filter { $0.time >= Self.mainTime - 200 * Self.day }.map(\.time).min()!
        #expect(without.background == .failure(.init("No background term: the store covers "
                                                     + SequenceText.duration(Self.mainTime - oldest) + " before the mainshock; "
                                                     + "a background needs the 365 days before it, all covered.")))
        #expect(without.omori?.background == nil)
    }

    /// The log-time bins hold what their edges say.
    @Test func theLogTimeBinsHoldTheirEdges() {
        for days in [0.0, 1e-5, 1.2e-4, 0.01, 0.5, 1, 1.01, 9.99, 10, 365.25, 3_000] {
            let bin = LogTimeBins.bin(of: days)
            let edges = LogTimeBins.edges(bin)
            #expect(edges.from <= days && days < edges.to * (1 + 1e-12), "\(days) in bin \(bin) \(edges)")
        }
    }

    /// The store's read, both ways (the time index for a recent mainshock, the bounding box
    /// otherwise), equals the quakes a brute-force haversine over every row keeps.
    @Test(arguments: [0, 1_000_000]) func theStoreReadsTheQuakesWithinTheRadiusFromTheMainshockOn(limit: Int) throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: 12)
        var records = [QuakeRecord.fixture("main", magnitude: 7.1, time: Self.mainTime)]
        records[0].latitude = 35.7
        records[0].longitude = -117.5
        for index in 0 ..< 600 {
            var record = QuakeRecord.fixture("q\(index)", magnitude: Double(Int.random(in: 10 ... 50, using: &random)) / 10,
                                             time: Self.mainTime + Int64.random(in: -5 * Self.day ... 30 * Self.day, using: &random))
            record.latitude = 35.7 + Double.random(in: -0.8 ... 0.8, using: &random)
            record.longitude = -117.5 + Double.random(in: -0.8 ... 0.8, using: &random)
            records.append(record)
        }
        // A year and more before, for the background's read (both ways too).
        for index in 0 ..< 300 {
            var record = QuakeRecord.fixture("b\(index)", magnitude: Double(Int.random(in: 10 ... 50, using: &random)) / 10,
                                             time: Self.mainTime - Int64.random(in: 5 * Self.day ... 400 * Self.day, using: &random))
            record.latitude = 35.7 + Double.random(in: -0.8 ... 0.8, using: &random)
            record.longitude = -117.5 + Double.random(in: -0.8 ... 0.8, using: &random)
            records.append(record)
        }
        try store.upsert(records)
        let now = Self.mainTime + 40 * Self.day
        let radius = SequenceRadius.kilometres(magnitude: 7.1)
        let centre = GeoPoint(latitude: 35.7, longitude: -117.5)
        let kept = records.dropFirst().filter {
            $0.time >= Self.mainTime && centre.distance(to: GeoPoint(latitude: $0.latitude, longitude: $0.longitude)) <= radius
        }
        #expect(kept.count > 50 && kept.count < 400)
        let sequence = try store.read { try $0.aftershockSequence(of: "main", now: now, timeWalkLimit: limit) }.get()
        let expected = AftershockSequence(mainshock: .init(code: "main", time: Self.mainTime, magnitude: 7.1, latitude: 35.7, longitude: -117.5,
                                                           place: records[0].place),
                                          aftershocks: kept.map { .init(time: $0.time, magnitude: $0.magnitude) },
                                          end: records.map(\.time).max()!, storeCount: records.count, storeOldest: records.map(\.time).min()!,
                                          before: records.dropFirst().filter {
                                              $0.time < Self.mainTime && centre.distance(to: GeoPoint(latitude: $0.latitude, longitude: $0.longitude)) <= radius
                                          }.map { .init(time: $0.time, magnitude: $0.magnitude, latitude: $0.latitude, longitude: $0.longitude) },
                                          coveredFrom: records.map(\.time).min()!, now: now)
        #expect(sequence == expected)
        #expect((try? sequence.background?.get())?.inRadius ?? 0 > 10, "\(String(describing: sequence.background))")
        #expect(sequence.count == kept.count)
        #expect(abs(sequence.radiusKm - radius) < 1e-12)
    }

    @Test func aQuakeWithoutAMagnitudeOrNotStoredHasNoSequence() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([QuakeRecord.fixture("nomag", magnitude: nil)])
        #expect(try store.read { try $0.aftershockSequence(of: "nomag", now: 0) } == .failure(SequenceUnavailable(
            "Quake nomag has no usable magnitude: a sequence's radius comes from its mainshock's magnitude.")))
        #expect(try store.read { try $0.aftershockSequence(of: "gone", now: 0) } == .failure(SequenceUnavailable("No quake gone in the store.")))
    }
}
