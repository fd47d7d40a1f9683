import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// The statistics view (`=`, issue 32) drawn from plain values: full screen below 120 columns,
/// beside the list from 120, with `…` until the numbers are there.
@Suite struct StatsViewSnapshotTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let day: Int64 = 86_400_000
    static let regions = ["Alaska", "California", "Japan", "Chile", "Indonesia", "Tonga", "Iceland", "Greece",
                          "Nevada", "Hawaii", "Peru", "Fiji"]

    /// 2,400 quakes over 30 days ending at `Fixtures.now`: magnitudes from the exponential law
    /// for b = 1 above M 2.0 (at evenly spaced quantiles, so the same every run) with fewer
    /// quakes below it, a swarm on days 20–22, depths mostly shallow, a dozen regions.
    static func catalogue(count: Int = 2_400, span: Int64 = 30 * day) -> CatalogueStatistics {
        var stats = CatalogueStatistics(timeZone: utc)
        let start = Fixtures.now - span
        for index in 0..<count {
            let u = (Double(index) + 0.5) / Double(count)
            let magnitude = index % 5 == 0 ? 1.0 + Double(index % 10) / 10 : 2.0 - 0.05 - log10(1 - u)
            let position = Double((index * 7_919) % count) / Double(count)
            let swarm = index % 3 == 0 ? 0.66 + position * 0.1 : position
            let time = start + Int64(swarm * Double(span))
            let depth = index % 11 == 0 ? 100 + Double(index % 600) : pow(Double(index % 50) / 50, 2) * 90
            // Region k gets 2k + 1 of every 144 quakes.
            let region = regions[regions.count - 1 - Int(Double(index % 144).squareRoot())]
            stats.add(magnitude: index == 7 ? nil : magnitude, depth: depth, time: time, region: region)
        }
        return stats
    }

    static func model(columns: Int, rows: Int, _ statistics: StatisticsModel) -> ScreenModel {
        var model = Fixtures.model(columns: columns, rows: rows)
        model.statistics = statistics
        return model
    }

    @Test(arguments: [(80, 24), (120, 35), (200, 50)])
    func statisticsOfTheList(columns: Int, rows: Int) {
        let model = Self.model(columns: columns, rows: rows, StatisticsModel(statistics: Self.catalogue()))
        assertSnapshot(Screen.render(model), named: "stats-\(columns)x\(rows)")
    }

    /// The timeline in calendar bins across the whole width (issue 54): the finest unit whose
    /// bins fit the columns (700 days in 60 columns: months), every bin's count the days in it.
    @Test func aLongListsTimelineIsInCalendarBins() throws {
        let stats = Self.catalogue(span: 700 * Self.day)
        let timeline = try #require(CalendarTimeline(stats, columns: 40))
        #expect(timeline.unit == .month)
        #expect(timeline.total == stats.count)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.utc
        for bin in timeline.bins {
            let start = Date(timeIntervalSince1970: Double(bin.start) / 1000)
            #expect(calendar.component(.day, from: start) == 1 && calendar.component(.hour, from: start) == 0)
            let end = calendar.date(byAdding: .month, value: 1, to: start)!
            let days = stats.days.filter { Double($0.key) >= start.timeIntervalSince1970 * 1000 && Double($0.key) < end.timeIntervalSince1970 * 1000 }
            #expect(bin.count == days.values.reduce(0, +))
        }
        #expect(try #require(CalendarTimeline(stats, columns: 200)).unit == .week)
        #expect(try #require(CalendarTimeline(stats, columns: 800)).unit == .day)
        #expect(try #require(CalendarTimeline(stats, columns: 10)).unit == .year)
        var buffer = CellBuffer(size: Size(columns: 60, rows: 10))
        TimelineChart.render(stats, in: Rect(x: 0, y: 0, width: 60, height: 10), into: &buffer)
        assertSnapshot(buffer, named: "timeline-months-60x10")
        #expect(buffer.lines[0].hasPrefix("Quakes per month (UTC)  • cumulative"), "\(buffer.lines[0])")
    }

    /// The moment curve and the right-hand scale of the cumulative count, and counts grouped
    /// by thousands, on a list whose quakes were read one by one.
    @Test func theTimelineDrawsTheCumulativeMomentAndCount() throws {
        var events = CatalogueEvents()
        for index in 0 ..< 4_800 {
            let magnitude = index == 3_000 ? 7.0 : 2.0 + Double(index % 20) / 10
            events.append(id: Int64(index), time: Fixtures.now - 10 * Self.day + Int64(index) * 180_000, latitude: 0, longitude: 0,
                          depth: 10, magnitude: magnitude, type: index % 3 == 0 ? "mb" : "ml", agency: "usgs", region: "Chile")
        }
        let stats = events.statistics(timeZone: Self.utc).including(events)
        var buffer = CellBuffer(size: Size(columns: 60, rows: 10))
        TimelineChart.render(stats, in: Rect(x: 0, y: 0, width: 60, height: 10), into: &buffer)
        assertSnapshot(buffer, named: "timeline-moment-60x10")
        #expect(buffer.lines[1].hasSuffix("4,800"), "\(buffer.lines[1])")
        // ml and mb taken as Mw: the title says so (cut short at 60 columns, whole at 100).
        var wide = CellBuffer(size: Size(columns: 100, rows: 10))
        TimelineChart.render(stats, in: Rect(x: 0, y: 0, width: 100, height: 10), into: &wide)
        #expect(wide.lines[0].contains("◦ moment 4.1e19 N·m (as Mw)  ▼ M7.0"), "\(wide.lines[0])")
        let model = Self.model(columns: 120, rows: 35, StatisticsModel(statistics: stats))
        assertSnapshot(Screen.render(model), named: "stats-types-120x35")
    }

    /// A list of moment magnitudes alone sums its moment as it is: no `(as Mw)`.
    @Test func aListOfMomentMagnitudesSaysNothingOfMw() throws {
        var events = CatalogueEvents()
        for index in 0 ..< 100 {
            events.append(id: Int64(index), time: Fixtures.now - 10 * Self.day + Int64(index) * 180_000, latitude: 0, longitude: 0,
                          depth: 10, magnitude: 5 + Double(index % 10) / 10, type: index % 2 == 0 ? "mww" : "Mwr", agency: "usgs",
                          region: "Chile")
        }
        events.append(id: 100, time: Fixtures.now - Self.day, latitude: 0, longitude: 0, depth: 10, magnitude: nil, type: "ml",
                      agency: "usgs", region: "Chile")
        let stats = events.statistics(timeZone: Self.utc).including(events)
        var buffer = CellBuffer(size: Size(columns: 100, rows: 10))
        TimelineChart.render(stats, in: Rect(x: 0, y: 0, width: 100, height: 10), into: &buffer)
        #expect(buffer.lines[0].contains("◦ moment ") && !buffer.lines[0].contains("as Mw"), "\(buffer.lines[0])")
    }

    @Test func dotsUntilTheNumbersAreThere() {
        let model = Self.model(columns: 120, rows: 35, StatisticsModel(statistics: nil, isPending: true))
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "stats-pending-120x35")
        #expect(buffer.lines[1].contains("Statistics of the list  …") && buffer.lines[2].contains("Mc …  b …  a …  n …"))
    }

    /// Forty quakes over a day and a half: per hour, and no b-value, with the reason.
    @Test func fewQuakesSayWhyThereIsNoBValue() {
        let model = Self.model(columns: 80, rows: 24,
                               StatisticsModel(statistics: Self.catalogue(count: 40, span: 36 * Fixtures.hour)))
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "stats-no-b-value-80x24")
        #expect(buffer.text.contains("a b-value needs 50"))
        #expect(buffer.text.contains("Quakes per hour (UTC)"))
    }

    @Test func aFailedComputationSaysWhy() {
        let model = Self.model(columns: 80, rows: 24, StatisticsModel(statistics: nil, failure: "Could not read the store: disk I/O error."))
        #expect(Screen.render(model).lines[2].contains("Not computed: Could not read the store: disk I/O error."))
    }

    /// What a feed may hold but no quake has (magnitudes of ±9e17 and 4.4e17, depths of ±1e308)
    /// draws at once: such a magnitude counts as none, so the chart spans the real ones only.
    @Test func absurdValuesDraw() {
        var stats = CatalogueStatistics(timeZone: Self.utc)
        for (index, magnitude) in [9e17, -9e17, 4.4e17, 2.0, 2.1].enumerated() {
            stats.add(magnitude: magnitude, depth: index % 2 == 0 ? 1e308 : -1e308, time: Fixtures.now - Int64(index) * Self.day,
                      region: "Chile")
        }
        let text = Screen.render(Self.model(columns: 120, rows: 35, StatisticsModel(statistics: stats))).text
        #expect(text.contains("Statistics of the list  5 quakes"), "\(text)")
    }

    /// The view has the detail's pane: no tab bar to click, and the list keeps its rows beside it.
    @Test func sideBySideFrom120Columns() {
        let narrow = ScreenLayout(Self.model(columns: 119, rows: 30, StatisticsModel(statistics: nil)))
        #expect(narrow.list == nil && narrow.detail != nil && narrow.tabBar == nil)
        let wide = ScreenLayout(Self.model(columns: 120, rows: 30, StatisticsModel(statistics: nil)))
        #expect(wide.list != nil && wide.detail != nil && wide.tabBar == nil)
    }

    /// Once the list is of one type (`:magtype md`), a fit over several networks' md says so and
    /// what narrows it, instead of `:magtype`, which the list has already.
    @Test func aFitOfOneTypeFromSeveralNetworksSaysSo() {
        var events = CatalogueEvents()
        for index in 0 ..< 2_000 {
            events.append(id: Int64(index), time: Fixtures.now - Int64(2_000 - index) * 60_000, latitude: 0, longitude: 0, depth: 10,
                          magnitude: 1.0 + Double(index % 25) / 10, type: "md", agency: index % 10 < 3 ? "hv" : "nc", region: "Hawaii")
        }
        let stats = events.statistics(timeZone: Self.utc).including(events)
        #expect(StatsView.mixWarning(stats, method: .maxc) == "Warning: its md comes from 2 agencies (nc 70 %, hv 30 %); a region fits one network")
    }
}
