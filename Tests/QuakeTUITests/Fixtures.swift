import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime

/// Small, fixed models for rendering tests: the same clock, zone and quakes every run.
enum Fixtures {
    /// 2024-05-06 12:00:00 UTC.
    static let now: Int64 = 1_714_996_800_000
    static let hour: Int64 = 3_600_000

    /// The request of the list `model` shows, without its sort: what the statistics and the
    /// map's density are asked for.
    static func listRequest(_ model: BrowserModel) -> SectionedFetchRequest {
        SectionedFetchRequest(predicate: model.state.request.predicate, timeZone: model.state.request.timeZone)
    }

    static let display = DisplaySettings(now: now, timeZone: .utc, localTimeZone: TimeZone(identifier: "Asia/Tokyo")!)

    /// Magnitude types as the feeds write them (a long one cut in the list: `mb_…`), and two
    /// events several agencies reported (issue 53: `6.4 mww`, `3 ag`).
    static let quakes: [QuakeLine] = [
        reported(QuakeLine(code: "us7000m1a1", magnitude: 6.4, place: "45 km SSE of Hualien City, Taiwan", time: now - 2 * hour,
                           depth: 12.3, hasNotes: true, latitude: 23.58, longitude: 121.77), "mww", agencies: 3),
        reported(QuakeLine(code: "ak024abc12", magnitude: 2.1, place: "12 km NW of Anchorage, Alaska", time: now - 5 * hour,
                           depth: 40.1, latitude: 61.3, longitude: -150.1), "ml"),
        reported(QuakeLine(code: "nc73900001", magnitude: 3.3, place: "5km N of The Geysers, CA", time: now - 9 * hour,
                           depth: 1.9, latitude: 38.83, longitude: -122.8), "md"),
        reported(QuakeLine(code: "us7000m2b2", magnitude: 5.1, place: "Kermadec Islands region", time: now - 26 * hour,
                           depth: 35, latitude: -29.9, longitude: -177.8), "mb", agencies: 2),
        QuakeLine(code: "hv74500001", magnitude: nil, place: "", time: now - 30 * hour),
        reported(QuakeLine(code: "jp2024tok1", magnitude: 4.6, place: "東京都の南東 20 km, Japan 🌋", time: now - 31 * hour,
                           depth: 50), "mb_lg"),
    ]

    /// `line` with its magnitude type and the number of agencies that reported it.
    static func reported(_ line: QuakeLine, _ magType: String?, agencies: Int = 1) -> QuakeLine {
        var line = line
        line.magType = magType
        line.agencies = agencies
        return line
    }

    /// Day sections: today (3), yesterday (3).
    static func dayLines(collapsedYesterday: Bool = false) -> [ListLine] {
        var lines: [ListLine] = [.section(SectionLine(id: "2024-05-06", title: "Monday, 6 May 2024", count: 3))]
        lines += quakes[0..<3].map { .quake($0) }
        lines.append(.section(SectionLine(id: "2024-05-05", title: "Sunday, 5 May 2024", count: 3,
                                          isCollapsed: collapsedYesterday)))
        if !collapsedYesterday { lines += quakes[3...].map { .quake($0) } }
        return lines
    }

    static func magnitudeLines() -> [ListLine] {
        let byBucket: [(String, String, [QuakeLine])] = [
            ("M 6+", "M 6+", [quakes[0]]),
            ("M 5", "M 5", [quakes[3]]),
            ("M 4", "M 4", [quakes[5]]),
            ("M 3", "M 3", [quakes[2]]),
            ("M 2", "M 2", [quakes[1]]),
            ("unknown", "unknown", [quakes[4]]),
        ]
        return byBucket.flatMap { id, title, rows in
            [ListLine.section(SectionLine(id: id, title: title, count: rows.count))] + rows.map { .quake($0) }
        }
    }

    static let record = QuakeRecord(
        code: "us7000m1a1", magnitude: 6.4, magType: "mww", place: "45 km SSE of Hualien City, Taiwan",
        time: now - 2 * hour, updated: now - hour, latitude: 23.59, longitude: 121.73, depth: 12.3,
        status: "reviewed", type: "earthquake", tsunami: 1, felt: 321, alert: "orange", sig: 912, net: "us",
        url: "https://earthquake.usgs.gov/earthquakes/eventpage/us7000m1a1", title: "M 6.4 - 45 km SSE of Hualien City, Taiwan")

    static func model(columns: Int = 80, rows: Int = 24, lines: [ListLine]? = nil, selected: Int? = 1,
                      sort: QuakeSortOrder = .time, detail: DetailModel? = nil) -> ScreenModel {
        let lines = lines ?? dayLines()
        var model = ScreenModel(
            size: Size(columns: columns, rows: rows),
            header: HeaderModel(count: 6, sortOrder: sort, ascending: false, sceneID: "main"),
            list: ListModel(lines: lines, selectedIndex: selected),
            detail: detail,
            status: StatusModel(isLive: true, lastRefresh: now - 5 * 60_000),
            display: display)
        // As the browser draws a scene that never pressed `c`.
        model.showsColumnHeaders = rows >= AppState.columnHeadersMinimumRows
        return model
    }
}
