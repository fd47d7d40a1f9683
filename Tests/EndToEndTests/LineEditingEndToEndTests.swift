import Foundation
import QuakeTestSupport
import Testing

/// Issue 31 in a real terminal, over a real USGS week (4,711 quakes, 27 of magnitude 5 and up):
/// the search's editing keys and cursor, a search by code, the hints while typing, and the `:`
/// line's `:mag`, Tab, "did you mean" and unknown types. Whole lines (or the header's whole
/// segments) are compared.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct LineEditingEndToEndTests {
    typealias Fixture = BrowserTests.Fixture

    @Test func theSearchEditsInItsMiddleFindsCodesAndItsHintsSayWhatKeysDo() throws {
        let fixture = try Fixture(columns: 120, rows: 30)
        defer { fixture.close() }
        let tmux = fixture.tmux
        let pane = try fixture.launch()
        try tmux.waitForScreen(pane, "the list") { $0.header.count == "4,711 quakes" }
        try tmux.send(pane, "/")
        try tmux.send(pane, "chle", literal: true)
        try tmux.send(pane, "Left", "Left")
        try tmux.send(pane, "i", literal: true)
        var screen = try tmux.waitForScreen(pane, "the cursor after the inserted i") { $0.header.segments.last == "/chi▏le" }
        #expect(screen.status.left == "Enter keep  Esc clear  ↑↓ list  ←→ move  ctrl-w word  ctrl-u to start")
        // ctrl-e ctrl-w deletes the word; a code finds its quake (its place does not hold it).
        try tmux.send(pane, "C-e", "C-w")
        try tmux.send(pane, "US1000ER8I", literal: true)
        screen = try tmux.waitForScreen(pane, "the quake by its code") { $0.header.count == "1 quake" }
        #expect(screen.header.segments == ["quaketui", "1 quake", "sort time ↓", "/US1000ER8I▏"], "\(screen)")
        #expect(screen.quakeRows.count == 1 && screen.row(code: "us1000er8i")?.place == "275km W of Puerto Chacabuco, Chile", "\(screen)")
        // Home and a typed ? go into the field: `?` types, so no `? help` is offered.
        try tmux.send(pane, "Home")
        try tmux.send(pane, "?", literal: true)
        screen = try tmux.waitForScreen(pane, "the ? typed") { $0.header.segments.last == "/?▏US1000ER8I" }
        #expect(screen.status.left == "Enter keep  Esc clear  ↑↓ list  ←→ move  ctrl-w word  ctrl-u to start", "\(screen)")
        try tmux.send(pane, "Escape")
        try tmux.waitForScreen(pane, "the search cleared") { $0.header.count == "4,711 quakes" && $0.status.offers("? help") }
    }

    @Test func theCommandLineFiltersByMagnitudeCompletesAndSaysWhatItMeant() throws {
        let fixture = try Fixture(columns: 120, rows: 30)
        defer { fixture.close() }
        let tmux = fixture.tmux
        let pane = try fixture.launch()
        try tmux.waitForScreen(pane, "the list") { $0.header.count == "4,711 quakes" }
        // Tab completes the name; the filter shows in the header with its count.
        try tmux.send(pane, ":")
        try tmux.send(pane, "ma", literal: true)
        try tmux.send(pane, "Tab")
        // `ma` starts `mag` and `magtype`: Tab completes what they share, a space ends the name.
        try tmux.waitForScreen(pane, "the shared start") { $0.commandLine == ":mag▏" }
        try tmux.send(pane, " ", literal: true)
        var screen = try tmux.waitForScreen(pane, "the completed name") { $0.commandLine == ":mag ▏" }
        #expect(screen.status.left == ":mag ▏")
        #expect(screen.status.right == ["Tab complete", "Enter run", "↑↓ history", "Esc cancel", "ctrl-w word"], "\(screen)")
        try tmux.send(pane, "4.5-", literal: true)
        try tmux.send(pane, "Left", "C-u", "Delete")
        try tmux.send(pane, "5+", literal: true)
        // ← ctrl-u Delete: `4.5` and the `-` after it gone; then the name back at the start.
        try tmux.waitForScreen(pane, "the edited line") { $0.status.left == ":5+▏" }
        try tmux.send(pane, "C-a")
        try tmux.send(pane, "mag ", literal: true)
        try tmux.waitForScreen(pane, "the name inserted") { $0.status.left == ":mag ▏5+" }
        try tmux.send(pane, "End")
        try tmux.send(pane, "x", literal: true)
        try tmux.send(pane, "BSpace", "Enter")
        screen = try tmux.waitForScreen(pane, "the magnitude filter") { $0.header.filters == ":mag 5+" }
        #expect(screen.header.segments == ["quaketui", "27 quakes", "sort time ↓", ":mag 5+"], "\(screen.header)")
        #expect(screen.status.left == "Filters mag 5+: 27 quakes; :clear removes them  ? help")
        // A misspelled command: did you mean; an unknown type: the types the store has.
        try tmux.send(pane, ":")
        try tmux.send(pane, "dpeth 0-70", literal: true)
        try tmux.send(pane, "Enter")
        screen = try tmux.waitForScreen(pane, "did you mean") { $0.status.message?.hasPrefix("Unknown command") == true }
        #expect(screen.status.message?.hasPrefix("Unknown command “dpeth”. Did you mean :depth? The command line accepts") == true)
        try tmux.send(pane, ":")
        try tmux.send(pane, "type xyzzy", literal: true)
        try tmux.send(pane, "Enter", "L")
        let wanted = "No quake has the type “xyzzy”: the store has chemical explosion, earthquake, explosion, quarry blast, volcanic eruption"
        // The log's box: the message is its first entry, wrapped.
        screen = try tmux.waitForScreen(pane, "the whole message in the log") { $0.overlay?.entries.first == wanted }
        #expect(screen.overlay?.lines.dropFirst().first == "volcanic eruption", "wrapped: \(screen)")
        try tmux.send(pane, "Escape")
        screen = try tmux.waitForScreen(pane, "the filter kept") { $0.overlay == nil }
        #expect(screen.header.segments == ["quaketui", "27 quakes", "sort time ↓", ":mag 5+"], "\(screen.header)")
    }
}
