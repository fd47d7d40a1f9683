import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Where a store stops covering time (`CatalogueCoverage`): the longest gap its rate makes
/// chance, recomputed here by bisection of the stated chance; Poisson catalogues never reach it
/// and a hole cut in one does; no single real feed reaches it and a 2019 month beside a 2025 day
/// does; the store's walk (both ways) finds the gap a plain loop over every time finds.
@Suite struct CatalogueCoverageTests {
    static let day: Int64 = 86_400_000

    /// `(N − 1) e^(−λg)` with `λ = (N − 2) / (S − g)`: the chance the rule bounds.
    static func chance(count: Int, span: Double, gap: Double) -> Double {
        Double(count - 1) * exp(-Double(count - 2) / (span - gap) * gap)
    }

    /// The longest chance gap is where that chance is 10^−20, found here by bisection.
    @Test(arguments: [(3, 1_000 * 86_400_000), (50, 30 * 86_400_000), (3_278, 2_230 * 86_400_000), (5_000_000, 347 * 86_400_000)] as [(Int, Int64)])
    func theLongestChanceGapIsWhereTheChanceIsTenToTheMinusTwenty(count: Int, span: Int64) throws {
        let longest = try #require(CatalogueCoverage.longestChanceGap(count: count, span: span))
        var (low, high) = (0.0, Double(span))
        for _ in 0 ..< 200 {
            let middle = (low + high) / 2
            if Self.chance(count: count, span: Double(span), gap: middle) > 1e-20 { low = middle } else { high = middle }
        }
        #expect(abs(Double(longest) - low) <= 1, "\(longest) vs \(low)")
        #expect(CatalogueCoverage.longestChanceGap(count: 2, span: span) == nil)
        #expect(CatalogueCoverage.longestChanceGap(count: count, span: 0) == nil)
    }

    /// Seeded Poisson catalogues of 100 to 20,000 quakes: no gap ends their coverage; the same
    /// catalogue with a hole of ten times the longest chance gap cut into it ends there.
    @Test(arguments: [100, 2_000, 20_000])
    func poissonCatalogues(count: Int) throws {
        for seed in 0 ..< 20 as Range<UInt64> {
            var random = SeededGenerator(seed: seed * 31 + UInt64(count))
            let rate = Double(count) / 30 / Double(Self.day)
            var time = 1_500_000_000_000.0
            let times = (0 ..< count).map { _ -> Int64 in
                time += -log(Double.random(in: Double.ulpOfOne ..< 1, using: &random)) / rate
                return Int64(time)
            }
            let longest = try #require(CatalogueCoverage.longestChanceGap(count: count, span: times.last! - times.first!))
            #expect(CatalogueCoverage.firstGap(in: times, from: times[0], longerThan: longest) == nil, "seed \(seed)")
            let hole = 10 * longest
            let cut = count * 2 / 3
            let holed = times.prefix(cut) + times.dropFirst(cut).map { $0 + hole }
            let holedLongest = try #require(CatalogueCoverage.longestChanceGap(count: count, span: holed.last! - holed.first!))
            #expect(CatalogueCoverage.firstGap(in: Array(holed), from: times[0], longerThan: holedLongest)
                    == CatalogueCoverage.Gap(from: times[cut - 1], to: times[cut] + hole), "seed \(seed)")
            // From after the hole, nothing.
            #expect(CatalogueCoverage.firstGap(in: Array(holed), from: holed[cut], longerThan: holedLongest) == nil)
        }
    }

    /// Every real feed alone is covered throughout (the clustered Ridgecrest month and a
    /// century of South America included); a 2019 month and a 2025 day together end on
    /// 2019-07-19, the month's last quake, 6.0 years before the day's first.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func realFeedsAloneAreCoveredAndTwoYearsApartAreNot() throws {
        var read = 0
        for url in SharedData.feedFiles() {
            guard let rows = try? IndependentParse.expected(for: url), rows.count >= 3 else { continue }
            let times = rows.map(\.time).sorted()
            let longest = try #require(CatalogueCoverage.longestChanceGap(count: times.count, span: times.last! - times.first!))
            #expect(CatalogueCoverage.firstGap(in: times, from: times[0], longerThan: longest) == nil, "\(url.lastPathComponent)")
            read += 1
        }
        #expect(read >= 30)
        let month = try IndependentParse.expected(for: SharedData.url("2.5_month-2019-07-19.geojson")).map(\.time)
        let day = try IndependentParse.expected(for: SharedData.url("1.0_day-2025-07-27.geojson")).map(\.time)
        let times = (month + day).sorted()
        let longest = try #require(CatalogueCoverage.longestChanceGap(count: times.count, span: times.last! - times.first!))
        let gap = try #require(CatalogueCoverage.firstGap(in: times, from: times[0], longerThan: longest))
        #expect(gap == CatalogueCoverage.Gap(from: month.max()!, to: day.min()!))
        #expect(IndependentParse.isoString(milliseconds: gap.from).hasPrefix("2019-07-19T"))
        #expect(SequenceText.duration(gap.to - gap.from) == "6.0 years")
    }

    /// The store's walk equals a plain loop over every stored time, from every kind of start:
    /// sparse stores (the longest chance gap 15 minutes or more: the buckets' walk) and dense
    /// ones (under 15 minutes: the time index's), with and without holes.
    @Test(arguments: [(Int64(3_600_000), false), (3_600_000, true), (5_000, false), (5_000, true)])
    func theStoresWalkFindsTheGapAPlainLoopFinds(spacing: Int64, holed: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: UInt64(spacing) + (holed ? 1 : 0))
        var time: Int64 = 1_600_000_000_000
        var times: [Int64] = []
        for index in 0 ..< 3_000 {
            time += Int64.random(in: 1 ... 2 * spacing, using: &random)
            // Holes of 200 mean gaps, far past chance, at a third and two thirds.
            if holed, index == 1_000 || index == 2_000 { time += 200 * spacing }
            times.append(time)
        }
        try store.upsert(times.enumerated().map { QuakeRecord.fixture("q\($0.offset)", time: $0.element) })
        let longest = try #require(CatalogueCoverage.longestChanceGap(count: times.count, span: times.last! - times.first!))
        #expect((longest >= 900_000) == (spacing >= 3_600_000))
        for start in [times[0], times[500], times[999], times[1_000], times[1_500], times[2_999]] {
            let expected = CatalogueCoverage.firstGap(in: times, from: start, longerThan: longest)
            #expect(try store.read { try $0.coverageGap(from: start) } == expected, "from \(start)")
            if holed, start < times[1_000] { #expect(expected == CatalogueCoverage.Gap(from: times[999], to: times[1_000])) }
            if !holed { #expect(expected == nil) }
        }
    }

    /// Where the time the store covers before a quake starts (`coverageStart`): the later of the
    /// earliest time asked about and the oldest quake, moved on past every gap ending before the
    /// quake, a gap across the earliest time included. 300 daily quakes, a 400-day hole (a gap:
    /// the longest chance one is 85 days), 200 daily quakes.
    @Test func theCoverageBeforeAQuakeStartsAfterItsLastGap() throws {
        let store = try TestStore()
        defer { store.remove() }
        let start: Int64 = 1_600_000_000_000
        let times = (0 ..< 300).map { start + Int64($0) * Self.day } + (0 ..< 200).map { start + Int64(700 + $0) * Self.day }
        try store.upsert(times.enumerated().map { QuakeRecord.fixture("q\($0.offset)", time: $0.element) })
        let longest = try #require(CatalogueCoverage.longestChanceGap(count: times.count, span: times.last! - times.first!))
        #expect(longest > 80 * Self.day && longest < 90 * Self.day)
        let last = times.last!, afterHole = start + 700 * Self.day
        func coverageStart(before time: Int64, notBefore earliest: Int64) throws -> (Int64, Bool) {
            let found = try store.read { try $0.coverageStart(before: time, notBefore: earliest) }
            return (found.time, found.afterGap)
        }
        // The year before the last quake reaches into the hole: coverage starts after it.
        #expect(try coverageStart(before: last, notBefore: last - 365 * Self.day) == (afterHole, true))
        // Asked from inside the hole: the gap across it counts.
        #expect(try coverageStart(before: last, notBefore: start + 400 * Self.day) == (afterHole, true))
        // Before the hole: the earliest time asked, or the oldest quake.
        #expect(try coverageStart(before: start + 299 * Self.day, notBefore: start + 10 * Self.day) == (start + 10 * Self.day, false))
        #expect(try coverageStart(before: start + 299 * Self.day, notBefore: start - 50 * Self.day) == (start, false))
        // After the hole, from after it: no gap.
        #expect(try coverageStart(before: last, notBefore: afterHole + Self.day) == (afterHole + Self.day, false))
    }
}
