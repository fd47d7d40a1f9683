import Foundation
import QuakeModel
import QuakeTestSupport
import Testing

/// A magnitude is shown, sectioned, filtered and binned to a tenth, rounded half up
/// (`MagnitudeBin`): what the list shows is what every test of a magnitude tests. Held to an
/// independent reading (`ExpectedResults.shownTenths`: the catalogue's decimal digits rounded in
/// decimal arithmetic), on catalogue-like magnitudes with two and three decimals and the doubles
/// either side of every bin's edge.
@Suite struct MagnitudeBinTests {
    /// Magnitudes as catalogues write them (one to three decimals), and the doubles next to
    /// each edge `x.x5` (the edge itself is the shortest double of the literal).
    static func magnitudes() -> [Double] {
        var random = SeededGenerator(seed: 20_261_205)
        var values: [Double] = []
        for _ in 0..<4_000 {
            let digits = [10.0, 100, 1_000][random.next(3)]
            values.append(Double(random.next(Int(12 * digits)) - Int(2 * digits)) / digits)
        }
        for tenth in -20...100 {
            let edge = Double(tenth * 2 - 1) / 20
            values += [edge, edge.nextDown, edge.nextUp, Double(tenth) / 10]
        }
        return values
    }

    /// `%.1f` rounds an exact tie to even (2.25 → `2.2`); the list says `2.3`, in the bin 2.25 … 2.35.
    @Test func literalCases() {
        #expect(MagnitudeBin.text(2.25) == "2.3")
        #expect(MagnitudeBin.text(2.96) == "3.0")
        #expect(MagnitudeBin.text(2.94) == "2.9")
        #expect(MagnitudeBin.text(-0.05) == "0.0")
        #expect(MagnitudeBin.text(-0.06) == "-0.1")
        #expect(MagnitudeBin.text(7) == "7.0")
        #expect(MagnitudeBin.lowestStored(shownAtLeast: 2.5) == 2.45)
        #expect(MagnitudeBin.lowestStored(shownAtLeast: 2.47) == 2.45)
        #expect(MagnitudeBin.lowestStored(shownAtLeast: 2.43) == 2.45)
        #expect(MagnitudeBin.lowestStored(shownAtLeast: 3) == 2.95)
        #expect(MagnitudeBin.highestStored(shownAtMost: 5) == 5.05.nextDown)
        #expect(MagnitudeBin.lowestStored(shownAtLeast: .greatestFiniteMagnitude) == .greatestFiniteMagnitude)
        // A minimum between two tenths is shown as the tenth it lets through first.
        #expect(MagnitudeBin.threshold(2.44) == "2.5")
        #expect(MagnitudeBin.threshold(2.5) == "2.5")
        #expect(MagnitudeBin.threshold(4.45) == "4.5")
        #expect(MagnitudeBin.whole(of: 0.949) == 0)
        #expect(MagnitudeBin.whole(of: 0.95) == 1)
        #expect(MagnitudeBin.whole(of: 5.95) == 6)
        #expect(MagnitudeBin.whole(of: -3) == 0)
        #expect(MagnitudeBin.whole(of: nil) == nil)
        // USGS's M 2.5+ summary feed holds M 2.45 (../shared/data/usgs/2.5_month-*): it chooses so too.
        #expect(MagnitudeBin.isShown(2.45, atLeast: 2.5))
        #expect(!MagnitudeBin.isShown(2.4499999, atLeast: 2.5))
        // `:mag 4.01-4.04` lies between two tenths: no magnitude is shown within it.
        let empty = MagnitudeBin.storedBounds(shown: 4.01 ... 4.04)
        #expect(empty.low > empty.high)
    }

    /// Two agencies' reports that show the same magnitude are not said to differ in it.
    @Test func reportsShowingOneMagnitudeDoNotDifferInIt() {
        let preferred = QuakeRecord.fixture("us1", magnitude: 3.04, place: "x", time: 0)
        var other = QuakeRecord.fixture("nc1", magnitude: 2.96, place: "x", time: 0)
        #expect(!Association.differences(of: other, from: preferred).contains { $0.contains(" vs ") })
        other.magnitude = 2.94
        #expect(Association.differences(of: other, from: preferred).contains("mb 2.9 vs mb 3.0"))
    }

    @Test func theTextTheSectionAndTheBinAreTheShownValue() {
        for m in Self.magnitudes() {
            let tenths = ExpectedResults.shownTenths(m)
            #expect(MagnitudeBin.tenth(of: m) == tenths, "M \(m)")
            let sign = tenths < 0 ? "-" : ""
            #expect(MagnitudeBin.text(m) == "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)", "M \(m)")
            #expect(MagnitudeBin.whole(of: m) == max(0, min(6, tenths < 0 ? 0 : tenths / 10)), "M \(m)")
            #expect(MagnitudeBin.lowerEdge(tenths) <= m && m < MagnitudeBin.upperEdge(tenths), "M \(m)")
        }
    }

    /// Every threshold a user types (one or two decimals): a magnitude passes exactly when the
    /// value shown for it is at or above the threshold, or within a range.
    @Test func thresholdsTestTheShownValue() {
        var random = SeededGenerator(seed: 55)
        let magnitudes = Self.magnitudes()
        for _ in 0..<300 {
            let low = Double(random.next(1_000) - 100) / [10.0, 100][random.next(2)]
            let high = low + Double(random.next(300)) / [10.0, 100][random.next(2)]
            let bounds = MagnitudeBin.storedBounds(shown: low ... high)
            let lowest = MagnitudeBin.lowestStored(shownAtLeast: low)
            for m in magnitudes {
                let shown = Decimal(ExpectedResults.shownTenths(m)) / 10
                let atLeast = shown >= Decimal(string: "\(low)")!
                #expect((m >= lowest) == atLeast, "M \(m) at least \(low)")
                #expect(MagnitudeBin.isShown(m, atLeast: low) == atLeast, "M \(m) at least \(low)")
                let within = atLeast && shown <= Decimal(string: "\(high)")!
                #expect((m >= bounds.low && m <= bounds.high) == within, "M \(m) within \(low)-\(high)")
            }
        }
    }
}
