import Foundation
import QuakeTestSupport
import Testing

/// Issue 31 in a real terminal: the row naming the list's columns (and `c`, which turns it off
/// for the scene), and where a jump puts what it jumped to. Whole lines of the screen are
/// compared; every wait is on a condition.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct ColumnHeaderTests {
    typealias Fixture = BrowserTests.Fixture

    /// At 100 columns, local time (the default `timeZone`): the columns the rows show, by name.
    /// The magnitude's type sits under `mag` (`6.4 mww`); sorted by magnitude it takes the code's room.
    static let timeHeaders = "mag        place                                        local      depth  code            time ↓"
    static let magnitudeHeaders = "mag ↓        place                                           local                 depth      time"

    @Test func theColumnsAreNamedTheSortColumnMarkedAndCTurnsThemOffForTheScene() throws {
        let fixture = try Fixture(columns: 100, rows: 30)
        defer { fixture.close() }
        let pane = try fixture.launch()
        let first = try fixture.tmux.waitForScreen(pane, "the column headers") { $0.columnHeaders == Self.timeHeaders }
        #expect(first.listLine(1)?.hasPrefix("▾ ") == true, "the list starts below them:\n\(first)")
        // The magnitude sort: the date takes the time of day's place, and `mag` is marked.
        try fixture.tmux.send(pane, "s")
        try fixture.tmux.waitForScreen(pane, "the magnitude sort's headers") { $0.columnHeaders == Self.magnitudeHeaders }
        // `c`: the row goes, the list takes its line, and the scene keeps it off.
        try fixture.tmux.send(pane, "c")
        let off = try fixture.tmux.waitForScreen(pane, "no column headers") { $0.listLine(0)?.hasPrefix("▾ M ") == true }
        #expect(off.columnHeaders == nil && off.rows.count == off.listPane.count, "\(off)")
        _ = try BrowserTests.waitForSceneFile(fixture) { $0["ContentView.showsColumnHeaders"] as? Bool == false }
        try fixture.tmux.send(pane, "q")
        #expect(try fixture.tmux.waitForExit(pane) == 0)
        let again = try fixture.launch(window: "again")
        let relaunched = try fixture.tmux.waitForScreen(again, "the relaunched list") { $0.listLine(0)?.hasPrefix("▾ M ") == true }
        #expect(relaunched.columnHeaders == nil && relaunched.rows.count == relaunched.listPane.count, "\(relaunched)")
        // And on again.
        try fixture.tmux.send(again, "c")
        try fixture.tmux.waitForScreen(again, "the headers back") { $0.columnHeaders == Self.magnitudeHeaders }
        try fixture.tmux.send(again, "q")
        #expect(try fixture.tmux.waitForExit(again) == 0)
    }

    /// `open CODE` for a quake far below the screen: it lands on the list's upper third (line 9
    /// of 27), the quakes after it in view, not on the bottom row.
    @Test func anOpenedQuakeLandsInTheUpperThirdOfTheList() throws {
        let fixture = try Fixture(columns: 100, rows: 30)
        defer { fixture.close() }
        let pane = try fixture.launch()
        try fixture.tmux.waitForScreen(pane, "the column headers") { $0.columnHeaders == Self.timeHeaders }
        // The third quake of the second day, and the whole line the list shows for it.
        try fixture.tmux.send(pane, "]", "j", "j")
        let target = try BrowserTests.waitForSceneFile(fixture) { $0["ContentView.selectionLine"] as? Int == 3 }
        let code = try #require(target["ContentView.selectedQuake"] as? String)
        let screen = try fixture.tmux.waitForScreen(pane, "the third quake of the second day") { _ in true }
        let row = try #require(screen.row(at: 3))
        // Back to the top, so it is far below the screen.
        try fixture.tmux.send(pane, "g")
        _ = try BrowserTests.waitForSceneFile(fixture) { $0["ContentView.selectedQuake"] as? String != code }
        let open = try QuaketuiBinary.run(["open", code, "--scene", "a"], stateDirectory: fixture.dir.url,
                                          environment: OpenCommandTests.plainEnvironment)
        #expect(open.status == 0, "\(open.stderr)")
        let opened = try BrowserTests.waitForSceneFile(fixture) { $0["ContentView.selectedQuake"] as? String == code }
        // 30 rows: the header, the column headers, 27 list lines and the status line.
        #expect(opened["ContentView.selectionLine"] as? Int == 27 / 3)
        try fixture.tmux.send(pane, "Escape")  // the detail opened with it; the list again
        let shown = try fixture.tmux.waitForScreen(pane, "the quake on line 9 of the list") { $0.row(at: 9) == row }
        #expect(shown.row(at: 9) == row, "\(shown)")
    }
}
