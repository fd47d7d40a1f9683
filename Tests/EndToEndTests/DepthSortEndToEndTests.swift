import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 31 in a real terminal: `s` reaches the depth sort after region, `S` reverses it, and
/// after `kill -9` the relaunched pane draws the same screen; the magnitude sort's first rows
/// show their marks. Whole lines are compared, each computed from the feed, not from the app.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct DepthSortEndToEndTests {
    typealias Fixture = BrowserTests.Fixture
    static let columns = 100

    /// A count as the browser writes it: digits grouped by commas.
    static func grouped(_ count: Int) -> String {
        var digits = Array(String(count)), result = ""
        while digits.count > 3 {
            result = "," + String(digits.suffix(3)) + result
            digits.removeLast(3)
        }
        return String(digits) + result
    }

    /// A section's header line across a full-width list: the title, the count, a rule to the
    /// pane's second-to-last column (the last is the scrollbar's).
    static func sectionLine(_ title: String, _ count: Int) -> String {
        let prefix = "▾ \(title) (\(grouped(count)))"
        return prefix + " " + String(repeating: "─", count: columns - 2 - prefix.count)
    }

    @Test func sReachesDepthAfterRegionSReversesItAndItComesBackAfterKillNine() throws {
        let records = try IndependentParse.distinctRecords(SharedData.url(BrowserTests.feed))
        let depths = records.compactMap(\.depth)
        // The week's shallowest quakes are above sea level (-3.16 km), its deepest at 603.52 km.
        // Bands hold the depths as shown, to a tenth of a km rounded half up (-0.04 km shows `0.0 km`).
        let shallow = depths.filter { (-100 ..< 0).contains(ExpectedResults.shownTenths($0)) }.count
        let deep = depths.filter { (6_000 ..< 7_000).contains(ExpectedResults.shownTenths($0)) }.count
        #expect(depths.count == records.count && depths.min()! >= -10 && depths.max()! < 700)

        let fixture = try Fixture(columns: Self.columns, rows: 30)
        defer { fixture.close() }
        let pane = try fixture.launch()
        let first = try fixture.tmux.waitForScreen(pane, "the time order") { $0.header.sort == "sort time ↓" }
        let timeHeader = first.header.line

        // (Line 1 is the column header row, on from 20 rows: the list starts on line 2.)
        // Magnitude first: its largest quakes carry the week's marks (a tsunami flag with a
        // green alert, a green alert alone, a tsunami flag alone).
        // (The selection stays on its quake through a sort: `g` goes to the top.)
        try fixture.tmux.send(pane, "s")
        try fixture.tmux.waitForScreen(pane, "the magnitude order") { $0.header.sort == "sort magnitude ↓" }
        try fixture.tmux.send(pane, "g")
        let magnitude = try fixture.tmux.waitForScreen(pane, "the largest quake") { $0.rows.first?.section?.title == "M 5" }
        let marked = magnitude.rows.dropFirst().prefix(3).map { [$0.magnitude, $0.mark, $0.place] }
        #expect(marked == [["5.8", "~", "94km SW of Muara Siberut, Indonesia"], ["5.6", "!", "275km W of Puerto Chacabuco, Chile"],
                           ["5.4", "~", "70km WSW of Muara Siberut, Indonesia"]], "\(magnitude)")
        try fixture.tmux.send(pane, "s")
        try fixture.tmux.waitForScreen(pane, "the region order") { $0.header.sort == "sort region ↑" }
        try fixture.tmux.send(pane, "s", "g")
        // The header says the order (one character longer than `time`, so one space less before
        // the scene); the first band is the shallowest, counted.
        let depthHeader = timeHeader.replacingOccurrences(of: "sort time ↓", with: "sort depth ↑")
            .replacingOccurrences(of: "  scene a", with: " scene a")
        let ascending = try fixture.tmux.waitForScreen(pane, "the depth order, shallowest first") { screen in
            screen.header.line == depthHeader && Screen.words(screen.columnHeaders ?? "", separatedBy: 2).filter { $0 == "depth ↑" }.count == 1
                && screen.listLine(1) == Self.sectionLine("-10–0 km deep", shallow)
        }
        // Its first row is the shallowest quake (by time among equal depths).
        let shallowest = records.min { ($0.depth!, $0.time) < ($1.depth!, $1.time) }!
        let magnitude0 = shallowest.magnitude.map { String(format: "%.1f", $0) } ?? "—"
        #expect(ascending.row(at: 1)?.magnitude == magnitude0 && ascending.row(at: 1)?.place == shallowest.place, "\(ascending)")
        try fixture.tmux.send(pane, "S", "g")
        let descending = try fixture.tmux.waitForScreen(pane, "the depth order, deepest first") { screen in
            screen.header.line == depthHeader.replacingOccurrences(of: "sort depth ↑", with: "sort depth ↓")
                && screen.listLine(1) == Self.sectionLine("600–700 km deep", deep)
        }
        let saved = try BrowserTests.waitForSceneFile(fixture) {
            $0["ContentView.sortOrder"] as? String == "depth" && $0["ContentView.sortAscending"] as? Bool == false
        }
        #expect(saved["ContentView.sortOrder"] as? String == "depth")

        kill(try fixture.tmux.pid(pane), SIGKILL)
        #expect(try fixture.tmux.waitForExit(pane) == 128 + SIGKILL)
        let relaunched = try fixture.launch(window: "again")
        // Every line but the status line, whole.
        let list = { (screen: Screen) in [screen.header.line] + screen.listPane.prefix(27) }
        let after = try fixture.tmux.waitForScreen(relaunched, "the restored depth order") { list($0) == list(descending) }
        #expect(list(after) == list(descending))
    }
}
