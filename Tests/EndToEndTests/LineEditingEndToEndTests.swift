import Foundation
import QuakeTestSupport
import Testing

/// Issue 31 in a real terminal, over a real USGS week (4,711 quakes, 27 of magnitude 5 and up):
/// the search's editing keys and cursor, a search by code, the hints while typing, and the `:`
/// line's `:mag`, Tab, "did you mean" and unknown types. Whole lines (or the header's whole
/// segments) are compared.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct LineEditingEndToEndTests {
    typealias Fixture = BrowserTests.Fixture

    /// The screen's lines without the trailing empty one: the last is the status line.
    static func lines(_ screen: String) -> [String] {
        var lines = BrowserFeelTests.lines(screen)
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
    /// The header's segments (`quaketui`, `N quakes`, `sort time ↓`, …).
    static func header(_ screen: String) -> [String] {
        // The scene's name sits at the right end, after a run of spaces.
        let left = lines(screen)[0].components(separatedBy: "   ").first ?? ""
        return left.components(separatedBy: " │ ").map { $0.trimmingCharacters(in: .whitespaces) }
    }
    /// The status line's left side: what precedes the right-hand items (3 spaces or more apart).
    static func statusLeft(_ screen: String) -> String {
        let status = lines(screen).last ?? ""
        return status.components(separatedBy: "   ").first?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    @Test func theSearchEditsInItsMiddleFindsCodesAndItsHintsSayWhatKeysDo() throws {
        let fixture = try Fixture(columns: 120, rows: 30)
        defer { fixture.close() }
        let tmux = fixture.tmux
        let pane = try fixture.launch()
        try tmux.waitFor(pane, "the list") { Self.header($0).contains("4,711 quakes") }
        try tmux.send(pane, "/")
        try tmux.send(pane, "chle", literal: true)
        try tmux.send(pane, "Left", "Left")
        try tmux.send(pane, "i", literal: true)
        var screen = try tmux.waitFor(pane, "the cursor after the inserted i") { Self.header($0).last == "/chi▏le" }
        #expect(Self.statusLeft(screen) == "Enter keep  Esc clear  ↑↓ list  ←→ move  ctrl-w word  ctrl-u to start")
        // ctrl-e ctrl-w deletes the word; a code finds its quake (its place does not hold it).
        try tmux.send(pane, "C-e", "C-w")
        try tmux.send(pane, "US1000ER8I", literal: true)
        screen = try tmux.waitFor(pane, "the quake by its code") { Self.header($0).contains("1 quake") }
        #expect(Self.header(screen)[1] == "1 quake")
        #expect(Self.lines(screen).contains { $0.contains("275km W of Puerto Chacabuco, Chile") && $0.contains("us1000er8i") })
        // Home and a typed ? go into the field: `?` types, so no `? help` is offered.
        try tmux.send(pane, "Home")
        try tmux.send(pane, "?", literal: true)
        screen = try tmux.waitFor(pane, "the ? typed") { Self.header($0).last == "/?▏US1000ER8I" }
        #expect(!Self.lines(screen).last!.contains("help"))
        try tmux.send(pane, "Escape")
        try tmux.waitFor(pane, "the search cleared") { Self.header($0).contains("4,711 quakes") && Self.lines($0).last!.contains("? help") }
    }

    @Test func theCommandLineFiltersByMagnitudeCompletesAndSaysWhatItMeant() throws {
        let fixture = try Fixture(columns: 120, rows: 30)
        defer { fixture.close() }
        let tmux = fixture.tmux
        let pane = try fixture.launch()
        try tmux.waitFor(pane, "the list") { Self.header($0).contains("4,711 quakes") }
        // Tab completes the name; the filter shows in the header with its count.
        try tmux.send(pane, ":")
        try tmux.send(pane, "ma", literal: true)
        try tmux.send(pane, "Tab")
        var screen = try tmux.waitFor(pane, "the completed name") { Self.lines($0).last?.hasPrefix(":mag ▏") == true }
        #expect(Self.statusLeft(screen) == ":mag ▏")
        #expect(Self.lines(screen).last?.hasSuffix("Tab complete  Enter run  ↑↓ history  Esc cancel  ctrl-w word") == true)
        try tmux.send(pane, "4.5-", literal: true)
        try tmux.send(pane, "Left", "C-u", "Delete")
        try tmux.send(pane, "5+", literal: true)
        // ← ctrl-u Delete: `4.5` and the `-` after it gone; then the name back at the start.
        try tmux.waitFor(pane, "the edited line") { Self.statusLeft($0) == ":5+▏" }
        try tmux.send(pane, "C-a")
        try tmux.send(pane, "mag ", literal: true)
        try tmux.waitFor(pane, "the name inserted") { Self.statusLeft($0) == ":mag ▏5+" }
        try tmux.send(pane, "End")
        try tmux.send(pane, "x", literal: true)
        try tmux.send(pane, "BSpace", "Enter")
        screen = try tmux.waitFor(pane, "the magnitude filter") { Self.header($0).contains(":mag 5+") }
        #expect(Array(Self.header(screen)[1...3]) == ["27 quakes", "sort time ↓", ":mag 5+"], "\(Self.header(screen))")
        #expect(Self.statusLeft(screen) == "Filters mag 5+: 27 quakes; :clear removes them  ? help")
        // A misspelled command: did you mean; an unknown type: the types the store has.
        try tmux.send(pane, ":")
        try tmux.send(pane, "dpeth 0-70", literal: true)
        try tmux.send(pane, "Enter")
        screen = try tmux.waitFor(pane, "did you mean") { Self.lines($0).last?.hasPrefix("Unknown command") == true }
        #expect(Self.lines(screen).last?.hasPrefix("Unknown command “dpeth”. Did you mean :depth? The command line accepts") == true)
        try tmux.send(pane, ":")
        try tmux.send(pane, "type xyzzy", literal: true)
        try tmux.send(pane, "Enter", "L")
        screen = try tmux.waitFor(pane, "the whole message in the log") { $0.contains("volcanic eruption") }
        let wanted = "No quake has the type “xyzzy”: the store has chemical explosion, earthquake, explosion, quarry blast, volcanic eruption"
        // The log's box: each line's text between its borders; the message is its first entry, wrapped.
        let boxed = Self.lines(screen).compactMap { line -> String? in
            let parts = line.components(separatedBy: "│")
            return parts.count >= 3 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        }
        let first = try #require(boxed.firstIndex { $0.contains("No quake has the type") }, "\(screen)")
        let entry = String(boxed[first].drop { $0 != " " }).trimmingCharacters(in: .whitespaces) + " " + boxed[first + 1]
        #expect(entry == wanted, "\(screen)")
        try tmux.send(pane, "Escape")
        screen = try tmux.waitFor(pane, "the filter kept") { !$0.contains("volcanic eruption") }
        #expect(Array(Self.header(screen)[1...3]) == ["27 quakes", "sort time ↓", ":mag 5+"], "\(Self.header(screen))")
    }
}
