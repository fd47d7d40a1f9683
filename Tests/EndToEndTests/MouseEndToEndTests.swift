import Foundation
import QuakeTestSupport
import Testing

/// The mouse in the real browser in tmux (SPEC §8): SGR reporting (mode 1006) is on, so a
/// click lands at any column of a wide terminal; the wheel scrolls the view at the top, middle
/// and bottom of the list; a release is never read as a key (it used to be read as Esc).
/// Reports are sent as raw bytes (`send-keys -l`), as the terminal would write them.
@Suite(.waitsOnProcesses, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct MouseEndToEndTests {
    @Test func aClickAtColumn240Of250SelectsAndItsReleaseIsNotEsc() throws {
        let pane = try BrowserPane(columns: 250, rows: 40, scene: "click")
        defer { pane.close() }
        let (tmux, dir) = (pane.tmux, pane.dir)
        _ = try pane.settle()
        #expect(try tmux.format(pane.target, "#{mouse_sgr_flag}") == "1")

        // Column 240, row 9 (1-based): the 7th line of the list (below the header and the column headers).
        try pane.send(.raw("\u{1B}[<0;240;9M", keys: 1))
        _ = try pane.settle()
        var saved = try dir.scenePlist("click")
        #expect(saved["ContentView.selectionLine"] as? Int == 6)
        let code = try #require(saved["ContentView.selectedQuake"] as? String)
        // Row 9 is drawn selected, and it is the quake's row.
        let styled = try tmux.styledScreen(pane.target)
        #expect(styled.selectedLine == 8 && styled.selectedRow != nil && styled.selectedRow == styled.row(code: code),
                "row 9 shows \(styled.lines[8])")

        // Open the detail, then the release: nothing happens (an Esc would close the detail).
        try pane.send(.keys(["Enter"]))
        _ = try pane.settle()
        try pane.send(.raw("\u{1B}[<0;240;9m", keys: 0))
        try pane.send(.keys(["C-l"]))
        let after = try pane.settle()
        saved = try dir.scenePlist("click")
        #expect(saved["DetailView.isPresented"] as? Bool == true)
        #expect(Screen(after).detailTabs != nil, "\(after)")

        try pane.send(.keys(["q"]))
        #expect(try tmux.waitForExit(pane.target) == 0)
        #expect(try tmux.format(pane.target, "#{mouse_sgr_flag}") == "0")
    }

    @Test func theWheelScrollsTheViewAtTheTopMiddleAndBottomOfTheList() throws {
        let pane = try BrowserPane(columns: 120, rows: 40, scene: "wheel")
        defer { pane.close() }
        let dir = pane.dir
        var before = Screen(try pane.settle()).lines
        // Rows 3 (the list's first, below the column headers), 20 and 39 (its last): each notch
        // moves the view 3 lines.
        for y in [3, 20, 39] {
            try pane.send(.wheel(down: true, x: 30, y: y))
            let after = Screen(try pane.settle()).lines
            // The list's first line names the top row's section (a sticky header over a row).
            #expect(after[2].hasPrefix("▾ "), "wheel at row \(y)")
            for line in 3..<30 {
                // The list's text, without the scrollbar in its last column.
                #expect(after[line].prefix(110) == before[line + 3].prefix(110), "wheel at row \(y), line \(line)")
            }
            before = after
        }
        // The selection was dragged along: it stays on the first line of the list not under
        // the sticky header.
        #expect([0, 1].contains(try dir.scenePlist("wheel")["ContentView.selectionLine"] as? Int ?? -1))

        // At the end the view stops and the selection walks down to the last row.
        try pane.send(.keys(["G", "k", "k", "k"]))
        let bottom = Screen(try pane.settle()).lines
        try pane.send(.wheel(down: true, x: 30, y: 39))
        let moved = Screen(try pane.settle()).lines
        #expect(moved[1...37].map { $0.prefix(110) } == bottom[1...37].map { $0.prefix(110) })
        #expect(try dir.scenePlist("wheel")["ContentView.selectionLine"] as? Int == 36)
        // And back up from the bottom row: the view moves again.
        try pane.send(.wheel(down: false, x: 30, y: 39))
        let up = Screen(try pane.settle()).lines
        #expect(up[6].prefix(110) == moved[3].prefix(110))
    }
}
