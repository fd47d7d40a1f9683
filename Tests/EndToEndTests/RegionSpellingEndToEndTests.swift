import Foundation
import QuakeTestSupport
import Testing

/// A real USGS day writes California both as "…, CA" and as "…, California" (issue 31): the
/// region sort shows one California section holding both, and no `CA` section.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct RegionSpellingEndToEndTests {
    @Test func bothSpellingsOfCaliforniaAreOneSection() throws {
        // 34 places end in ", CA" and 46 in ", California" that day.
        let fixture = try BrowserTests.Fixture(columns: 100, rows: 30, importing: "all_day-2016-11-03.geojson")
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, "s", "s")  // time → magnitude → region
        try fixture.tmux.waitForScreen(pane, "the region sort") { $0.header.sort == "sort region ↑" && $0.row(at: 0)?.section != nil }
        // The sort kept the newest quake selected, wherever its region is: g goes to the first region.
        try fixture.tmux.send(pane, "g")
        var screen = try fixture.tmux.waitForScreen(pane, "the first region") { $0.row(at: 0)?.section?.title == "Alaska" }
        // ] puts each next region's header on the list's first line; the regions before C are few.
        // (A `CA` section, folded "ca", would come before "california".)
        for _ in 0..<8 where screen.row(at: 0)?.section?.title.hasPrefix("C") != true {
            let top = screen.row(at: 0)
            try fixture.tmux.send(pane, "]")
            screen = try fixture.tmux.waitForScreen(pane, "the next region") { $0.row(at: 0)?.section != nil && $0.row(at: 0) != top }
        }
        let line = screen.listLine(1) ?? ""
        let title = "▾ California (80) "
        #expect(screen.row(at: 0)?.section == Screen.Section(title: "California", count: "80"), "\(screen)")
        #expect(line == title + String(repeating: "─", count: max(0, line.count - title.count)), "\(screen)")
        #expect(screen.sections.allSatisfy { $0.title != "CA" }, "\(screen)")
    }
}
