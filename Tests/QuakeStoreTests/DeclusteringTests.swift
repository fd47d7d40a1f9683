import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Declustering (issue 54) of generated catalogues equals the README's algorithm written again
/// with plain loops over every pair (`IndependentDeclustering`), quake by quake.
@Suite struct DeclusteringTests {
    /// A catalogue with a known structure: background quakes (Gutenberg–Richter, b = 1, from
    /// M 2) spread over a region and 300 days, and sequences after mainshocks of M 5.5 … 7.2,
    /// their aftershocks Omori-distributed in time (c = 0.05 days, p = 1.1) within twice the
    /// Gardner–Knopoff distance; a few quakes without a magnitude or a depth, equal times and
    /// equal magnitudes; sequences across the antimeridian and near the pole, where the grid's
    /// cells wrap and narrow.
    static func catalogue(seed: UInt64, background: Int = 1_500) -> [IndependentDeclustering.Quake] {
        var random = SeededGenerator(seed: seed)
        let start: Int64 = 1_700_000_000_000, span = 300 * 86_400_000.0
        func gr(from m0: Double, b: Double = 1) -> Double {
            ((m0 - log10(Double.random(in: Double.ulpOfOne ..< 1, using: &random)) / b) * 10).rounded() / 10
        }
        var quakes: [IndependentDeclustering.Quake] = []
        for _ in 0 ..< background {
            quakes.append(.init(time: start + Int64(Double.random(in: 0 ..< span, using: &random)),
                                latitude: Double.random(in: 30 ..< 40, using: &random), longitude: Double.random(in: 130 ..< 145, using: &random),
                                depth: Double.random(in: 0 ..< 60, using: &random), magnitude: gr(from: 2)))
        }
        let centres: [(Double, Double)] = [(35, 138), (36.5, 141), (33, 132), (-17, 179.95), (88.9, 20), (34, 139.2)]
        for (index, centre) in centres.enumerated() {
            let main = 5.5 + Double(index % 4) * 0.5
            let time = start + Int64(Double.random(in: 0 ..< span * 0.7, using: &random))
            quakes.append(.init(time: time, latitude: centre.0, longitude: centre.1, depth: 10, magnitude: main))
            let radius = 2 * pow(10, 0.1238 * main + 0.983)
            for _ in 0 ..< 150 {
                // Omori: t = c((1 − u)^(1/(1−p)) − 1) days.
                let u = Double.random(in: 0 ..< 0.999, using: &random)
                let days = 0.05 * (pow(1 - u, 1 / (1 - 1.1)) - 1)
                let distance = radius * Double.random(in: 0 ..< 1, using: &random).squareRoot()
                let bearing = Double.random(in: 0 ..< 2 * .pi, using: &random)
                let latitude = max(-89.99, min(89.99, centre.0 + distance / 111.2 * cos(bearing)))
                var longitude = centre.1 + distance / (111.2 * max(0.05, cos(centre.0 * .pi / 180))) * sin(bearing)
                if longitude > 180 { longitude -= 360 }
                if longitude < -180 { longitude += 360 }
                quakes.append(.init(time: time + Int64(min(days, 400) * 86_400_000), latitude: latitude, longitude: longitude,
                                    depth: Double.random(in: 0 ..< 30, using: &random), magnitude: min(main - 0.1, gr(from: 2.5))))
            }
            // A foreshock the day before, and a twin of the mainshock's magnitude a minute after.
            quakes.append(.init(time: time - 86_400_000, latitude: centre.0 + 0.05, longitude: centre.1, depth: 12, magnitude: 4.8))
            quakes.append(.init(time: time + 60_000, latitude: centre.0 - 0.02, longitude: centre.1, depth: 8, magnitude: main))
        }
        // No magnitude, no depth, and equal times.
        for k in 0 ..< 30 {
            var quake = quakes[k * 17]
            quake.time += 1
            if k % 3 == 0 { quake.magnitude = nil }
            if k % 3 == 1 { quake.depth = nil }
            quakes.append(quake)
        }
        return quakes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    static func events(_ quakes: [IndependentDeclustering.Quake]) -> CatalogueEvents {
        var events = CatalogueEvents()
        for (index, quake) in quakes.enumerated() {
            events.append(id: Int64(index + 1), time: quake.time, latitude: quake.latitude, longitude: quake.longitude,
                          depth: quake.depth, magnitude: quake.magnitude, type: "ml", agency: "usgs", region: "Test")
        }
        return events
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func gardnerKnopoffKeepsWhatTheIndependentWindowsKeep(_ seed: UInt64) {
        let quakes = Self.catalogue(seed: seed)
        let expected = IndependentDeclustering.gk(quakes)
        let result = Declustering.gk.decluster(Self.events(quakes))
        let differing = quakes.indices.filter { result.keep[$0] != expected[$0] }
        #expect(differing.isEmpty, "\(differing.count) quakes differ, first \(differing.prefix(5).map { quakes[$0] })")
        #expect(result.removed == expected.filter { !$0 }.count)
        // The sequences are what it removes: most of their 900 aftershocks, and every quake
        // without a magnitude is kept.
        #expect(result.removed > 700, "\(result.removed) removed")
        #expect(quakes.indices.allSatisfy { quakes[$0].magnitude != nil || result.keep[$0] })
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func reasenbergKeepsWhatTheIndependentClustersKeep(_ seed: UInt64) {
        let quakes = Self.catalogue(seed: seed)
        let expected = IndependentDeclustering.reasenberg(quakes)
        let result = Declustering.reasenberg.decluster(Self.events(quakes))
        let differing = quakes.indices.filter { result.keep[$0] != expected[$0] }
        #expect(differing.isEmpty, "\(differing.count) quakes differ, first \(differing.prefix(5).map { quakes[$0] })")
        #expect(result.removed == expected.filter { !$0 }.count)
        // Its interaction radii are small (10 crack radii: 1.1 km at M 2.5, 17 km at M 5.5), so of the
        // aftershocks scattered over twice the Gardner–Knopoff distance it links the near ones only.
        #expect(result.removed > 20, "\(result.removed) removed")
    }

    /// The window's edges: a quake exactly T(M) after and exactly L(M) away is removed, one a
    /// millisecond later is kept; the earlier of two equal magnitudes is the mainshock; a
    /// foreshock within the window goes too.
    @Test func gardnerKnopoffWindowIncludesItsEdges() {
        let m = 6.0
        let days = pow(10, 0.5409 * m - 0.547)
        let edge = Int64((days * 86_400_000).rounded(.down))
        var events = CatalogueEvents()
        let t0: Int64 = 1_000_000_000_000
        events.append(id: 1, time: t0 - 1_000, latitude: 10, longitude: 10.01, depth: 5, magnitude: 4, type: "ml", agency: "usgs", region: "")
        events.append(id: 2, time: t0, latitude: 10, longitude: 10, depth: 5, magnitude: m, type: "ml", agency: "usgs", region: "")
        events.append(id: 3, time: t0 + 5, latitude: 10, longitude: 10, depth: 5, magnitude: m, type: "ml", agency: "usgs", region: "")
        events.append(id: 6, time: t0 + 10, latitude: 11, longitude: 10, depth: 5, magnitude: 3, type: "ml", agency: "usgs", region: "")
        events.append(id: 4, time: t0 + edge, latitude: 10, longitude: 10, depth: 5, magnitude: 3, type: "ml", agency: "usgs", region: "")
        events.append(id: 5, time: t0 + edge + 1, latitude: 10, longitude: 10, depth: 5, magnitude: 3, type: "ml", agency: "usgs", region: "")
        let result = Declustering.gk.decluster(events)
        // L(6) = 53.6 km: the quake 111 km north stays.
        #expect(result.keep == [false, true, false, true, false, true])
    }

    /// Moment per day: every quake's 10^(1.5 M + 9.1) N·m added to its UTC day.
    @Test func momentPerDayAddsEveryQuakesMoment() throws {
        let quakes = Self.catalogue(seed: 4, background: 300)
        let events = Self.events(quakes)
        let statistics = events.statistics(timeZone: TimeZone(identifier: "UTC")!).including(events)
        var expected: [Int64: Double] = [:]
        for quake in quakes {
            guard let m = quake.magnitude else { continue }
            expected[quake.time - ((quake.time % 86_400_000) + 86_400_000) % 86_400_000, default: 0] += pow(10, 1.5 * m + 9.1)
        }
        #expect(Set(statistics.dayMoments.keys) == Set(expected.keys))
        for (day, moment) in expected { #expect(abs(statistics.dayMoments[day]! - moment) <= 1e-9 * moment) }
    }
}
