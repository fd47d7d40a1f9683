import Foundation
import QuakeTestSupport
import Testing

/// The help (`?`) and the message log (`L`) in a real terminal (issue 31): clean boxes between
/// the header line and the status line, with no sliver of the list beside or below them, and
/// `G`/`g` scroll the help to its end and back. Whole lines of the screen are compared.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct OverlayScreenTests {
    typealias Fixture = BrowserTests.Fixture

    /// A box's top or bottom border `width` wide with `label` after its corner.
    static func border(_ left: String, _ label: String, _ right: String, width: Int) -> String {
        left + "─" + label + String(repeating: "─", count: width - 3 - label.count) + right
    }

    /// Whether `screen` shows a whole box from line 1 to the line above the status line, and the
    /// status line of a box that has the keys ("Esc close"). Waiting for the top border alone
    /// returned a frame tmux had applied only in part under load (a stress run: the border on
    /// line 1, the list still below it, two captures in a row).
    static func isWholeBox(_ screen: Screen, _ top: String, _ bottom: String, rows: Int) -> Bool {
        let lines = screen.lines
        return lines.count >= rows && lines[1].hasPrefix(top) && lines[rows - 2].hasPrefix(bottom)
            && lines[1].hasSuffix("╮") && lines[rows - 2].hasSuffix("╯") && screen.status.offers("Esc close")
    }

    @Test func theHelpAndTheLogAreCleanBoxesAndTheHelpScrollsToItsEnds() throws {
        let fixture = try Fixture(columns: 80, rows: 24)
        defer { fixture.close() }
        let pane = try fixture.launch()
        let header = try fixture.tmux.waitForScreen(pane, "the list") { _ in true }.lines[0]

        try fixture.tmux.send(pane, "?")
        let help = try fixture.tmux.waitForScreen(pane, "the help") { Self.isWholeBox($0, "╭─ Keys", "╰─", rows: 24) }.lines
        #expect(help[0] == header)
        #expect(help[1] == Self.border("╭", " Keys ", "╮", width: 80))
        #expect(help[2] == "│ ↑ ↓  j k                    previous / next quake                            │")
        #expect(help[22] == Self.border("╰", " ↓ more: j/k G ", "╯", width: 80))
        #expect(help[23].hasPrefix(" ? close help  / find  Esc close  "), "\(help[23])")
        for line in help[2..<22] { #expect(line.hasPrefix("│ ") && line.hasSuffix(" │") && line.count == 80, "\(line)") }

        // G: the help's last page, the legend's end on its last line.
        try fixture.tmux.send(pane, "G")
        let end = try fixture.tmux.waitForScreen(pane, "the help's end") { $0.overlay?.footer == "↑ k g" }.lines
        #expect(end[0] == header)
        #expect(end[21] == "│ ✗                           status line: last refresh failed, L says why     │")
        #expect(end[22] == Self.border("╰", " ↑ k g ", "╯", width: 80))
        // g: back to the top.
        try fixture.tmux.send(pane, "g")
        let top = try fixture.tmux.waitForScreen(pane, "the help's top") { $0.overlay?.footer == "↓ more: j/k G" }.lines
        #expect(top[2] == help[2])

        // The message log: the whole body between the header and the status line.
        try fixture.tmux.send(pane, "Escape", "L")
        let log = try fixture.tmux.waitForScreen(pane, "the log") { Self.isWholeBox($0, "╭─ Messages", "╰─ L or Esc", rows: 24) }.lines
        #expect(log[0] == header)
        #expect(log[1] == Self.border("╭", " Messages, newest first ", "╮", width: 80))
        #expect(log[22] == Self.border("╰", " L or Esc closes ", "╯", width: 80))
        #expect(log[23].hasPrefix(" j/k scroll  / find  Esc close  "), "\(log[23])")
        for line in log[2..<22] { #expect(line.hasPrefix("│ ") && line.hasSuffix(" │") && line.count == 80, "\(line)") }
    }

    @Test func onATinyPaneTheHelpIsTheWholeBody() throws {
        let fixture = try Fixture(columns: 40, rows: 10)
        defer { fixture.close() }
        let pane = try fixture.launch()
        let header = try fixture.tmux.waitForScreen(pane, "the list") { _ in true }.lines[0]
        try fixture.tmux.send(pane, "?")
        let shown = try fixture.tmux.waitForScreen(pane, "the help") { Self.isWholeBox($0, "╭─ Keys", "╰─", rows: 10) }
        let help = shown.lines
        #expect(Array(help[0..<10]) == [
            header,
            Self.border("╭", " Keys ", "╮", width: 40),
            // Help lines wrap in their columns (issue 56.10): nothing cut.
            "│ ↑ ↓  j k            previous / next  │",
            "│                     quake            │",
            "│ PgUp PgDn  ctrl-b   page up / down   │",
            "│ ctrl-f                               │",
            "│ ctrl-u ctrl-d       half a page up   │",
            "│                     / down           │",
            Self.border("╰", " ↓ more: j/k G ", "╯", width: 40),
            help[9],
        ])
        #expect(shown.status.offers("Esc close"), "\(help[9])")
    }
}
