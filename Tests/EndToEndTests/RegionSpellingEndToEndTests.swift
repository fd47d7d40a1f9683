import Foundation
import QuakeTestSupport
import Testing

/// A real USGS day writes California both as "…, CA" and as "…, California" (issue 31): the
/// region sort shows one California section holding both, and no `CA` section.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct RegionSpellingEndToEndTests {
    @Test func bothSpellingsOfCaliforniaAreOneSection() throws {
        // 34 places end in ", CA" and 46 in ", California" that day.
        let fixture = try BrowserTests.Fixture(columns: 100, rows: 30, importing: "all_day-2016-11-03.geojson")
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "s", "s")  // time → magnitude → region
        try fixture.tmux.waitFor(pane, "the region sort") {
            BrowserTests.header($0).contains("sort region ↑") && BrowserFeelTests.lines($0)[2].hasPrefix("▾ ")
        }
        // The sort kept the newest quake selected, wherever its region is: g goes to the first region.
        try fixture.tmux.send(pane, "g")
        var screen = try fixture.tmux.waitFor(pane, "the first region") { BrowserFeelTests.lines($0)[2].hasPrefix("▾ Alaska (") }
        // ] puts each next region's header on the list's first line; the regions before C are few.
        // (A `CA` section, folded "ca", would come before "california".)
        for _ in 0..<8 where !BrowserFeelTests.lines(screen)[2].hasPrefix("▾ C") {
            let top = BrowserFeelTests.lines(screen)[2]
            try fixture.tmux.send(pane, "]")
            screen = try fixture.tmux.waitFor(pane, "the next region") {
                let line = BrowserFeelTests.lines($0)[2]
                return line.hasPrefix("▾ ") && line != top
            }
        }
        let lines = BrowserFeelTests.lines(screen)
        let title = "▾ California (80) "
        #expect(lines[2] == title + String(repeating: "─", count: max(0, lines[2].count - title.count)), "\(screen)")
        #expect(!lines.contains { $0.hasPrefix("▾ CA ") }, "\(screen)")
    }
}
