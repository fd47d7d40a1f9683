import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// `:mc METHOD` (issue 54): the statistics view's method of Mc, chosen on the `:` line; no
/// filter, the list and its filters stay; the view names the method beside Mc.
@Suite struct CompletenessCommandTests {
    @Test func theCommandLineChoosesTheMethodAndKeepsTheList() throws {
        #expect(FilterCommand.parse("mc gft95", now: 0) == .success(.completeness(.gft95)))
        #expect(FilterCommand.parse("mc MBS", now: 0) == .success(.completeness(.mbs)))
        let refused = FilterCommand.parse("mc best", now: 0)
        #expect(refused == .failure(FilterCommandError( "mc takes a method of Mc for the statistics (=): :mc maxc, :mc gft90, :mc gft95 or :mc mbs")))
        #expect(FilterCommand.complete("m") == nil && FilterCommand.complete("mc") == "mc ")
        let (source, _) = try FilterCommandTests.makeSource()
        let model = try BrowserModelTests.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: nil, topCode: nil)
        try FilterCommandTests.run("depth 0-30", model)
        let filters = model.state.filters
        try FilterCommandTests.run("mc gft90", model)
        #expect(model.state.statistics.method == .gft90)
        #expect(model.state.filters == filters)
        #expect(model.state.status.message == "Mc by gft90 in the statistics (=)")
        #expect(!model.state.status.isError)
    }

    /// The view's fit line names the method and uses its Mc (the maxc Mc of these counts is
    /// 2.2, the fullest bin 2.0 + 0.2; gft95's is recomputed here as the README states it).
    @Test func theViewNamesTheMethodBesideMc() {
        var stats = CatalogueStatistics(timeZone: TimeZone(identifier: "UTC")!)
        var tenths: [Int] = []
        for tenth in 15 ... 45 {
            let count = tenth < 20 ? 40 * (tenth - 14) : Int(240 * pow(10, -Double(tenth - 20) / 10))
            tenths += Array(repeating: tenth, count: count)
        }
        for (index, tenth) in tenths.enumerated() {
            stats.add(magnitude: Double(tenth) / 10, depth: 10, time: 1_700_000_000_000 + Int64(index) * 1000, region: "Chile")
        }
        let maxc = StatsView.fitLine(StatisticsModel(statistics: stats)).0
        #expect(maxc.hasPrefix("Mc 2.2 (maxc) · b "), "\(maxc)")
        let gft = StatsView.fitLine(StatisticsModel(statistics: stats, method: .gft95)).0
        let expected = IndependentMagnitudeMethods.gft(tenths, level: 95).map { String(format: "Mc %.1f (gft95)", Double($0) / 10) }
        #expect(expected != nil && gft.hasPrefix(expected!), "\(gft), expected \(expected ?? "none")")
    }
}
