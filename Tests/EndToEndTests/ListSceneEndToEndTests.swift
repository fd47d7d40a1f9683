import Foundation
import QuakeTestSupport
import Testing

/// Issue 56.11 in a real terminal: `list --scene ID` prints the rows the scene's pane shows, its
/// search, `:` filters and sort read from its scene file while the pane runs; an unknown scene is
/// an error, and a scene `open` sent a quake before it started lists the whole list.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct ListSceneEndToEndTests {
    typealias Fixture = BrowserTests.Fixture

    /// The pane's list as lines of `TITLE (COUNT)` for a section and `MAGNITUDE CODE` for a quake
    /// (its code: the word of its row that is one of `codes`).
    static func paneItems(_ screen: Screen, codes: Set<String>) -> [String] {
        screen.rows.map { row in
            if let section = row.section { return "\(section.title) (\(section.count))" }
            return "\(row.magnitude ?? "?") \(row.words.first(where: codes.contains) ?? "?")"
        }
    }

    /// `list`'s output as the same lines: a section line as it is, a quake line's magnitude and code.
    static func listItems(_ lines: [String]) -> [String] {
        lines.filter { !$0.isEmpty }.map { line in
            guard line.hasPrefix("  M ") else { return line }
            let magnitude = line.dropFirst(4).prefix(4).trimmingCharacters(in: .whitespaces)
            let code = line.split(separator: "[").last.map { String($0.dropLast()) } ?? "?"
            return "\(magnitude) \(code)"
        }
    }

    @Test func listSceneListsTheRowsThePaneShows() throws {
        // Wide enough for the code column.
        let fixture = try Fixture(columns: 200, rows: 40)
        defer { fixture.close() }
        try QuaketuiBinary.config("timeZone", "utc", stateDirectory: fixture.dir.url)
        let pane = try fixture.launch()
        try fixture.tmux.send(pane, ":")
        try fixture.tmux.send(pane, "depth 0-5", literal: true)
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.waitForScreen(pane, "the depth filter") { $0.header.filters == ":depth 0-5" }
        try fixture.tmux.send(pane, "/")
        try fixture.tmux.send(pane, "hawaii", literal: true)
        try fixture.tmux.send(pane, "Enter")
        try fixture.tmux.send(pane, "s", "g")
        let screen = try fixture.tmux.waitForScreen(pane, "the search, sorted by magnitude") {
            $0.header.sort == "sort magnitude ↓" && $0.header.search == "/hawaii" && $0.rows.first?.section?.title == "M 5"
        }
        _ = try BrowserTests.waitForSceneFile(fixture) {
            $0["ContentView.sortOrder"] as? String == "magnitude" && $0["ContentView.searchText"] as? String == "hawaii"
                && $0["ContentView.filters"] as? [String] == ["depth 0-5"]
        }
        let listed = try QuaketuiBinary.run(["list", "--scene", "a"], stateDirectory: fixture.dir.url)
        #expect(listed.status == 0, "\(listed.stderr)")
        let items = Self.listItems(listed.lines)
        let shown = Self.paneItems(screen, codes: Set(items.compactMap { $0.split(separator: " ").last.map(String.init) }))
        #expect(shown.count > 20 && !shown.contains { $0.hasSuffix(" ?") }, "\(screen)")
        #expect(Array(items.prefix(shown.count)) == shown, "\(screen)\n\(listed.stdout)")
        // The same rows as the command line gives them with the filters spelled as flags.
        let flags = try QuaketuiBinary.run(["list", "--search", "hawaii", "--depth", "0-5", "--sort", "magnitude"],
                                           stateDirectory: fixture.dir.url)
        #expect(flags.stdout == listed.stdout)

        // An unknown scene is an error (status 1, a fact of the state directory); a scene `open`
        // sent a quake before it started lists the whole list, and says so.
        let unknown = try QuaketuiBinary.run(["list", "--scene", "zz"], stateDirectory: fixture.dir.url)
        #expect(unknown.status == 1)
        #expect(unknown.errorLines.first?.hasPrefix("Error: There is no scene \"zz\" in the state directory") == true, "\(unknown.stderr)")
        let code = try #require(listed.lines.last.flatMap { $0.split(separator: "[").last.map { String($0.dropLast()) } })
        #expect(try QuaketuiBinary.run(["open", code, "--scene", "zz"], stateDirectory: fixture.dir.url).status == 0)
        let pending = try QuaketuiBinary.run(["list", "--scene", "zz"], stateDirectory: fixture.dir.url)
        #expect(pending.status == 0)
        #expect(pending.stdout == (try QuaketuiBinary.run(["list"], stateDirectory: fixture.dir.url)).stdout)
        #expect(pending.errorLines == ["Scene zz has not started yet ('quaketui open' sent it \(code)): it will show the whole list, as listed here."])
        // --scene takes no filter of its own.
        let mixed = try QuaketuiBinary.run(["list", "--scene", "a", "--depth", "0-5"], stateDirectory: fixture.dir.url)
        #expect(mixed.status == 64)
    }
}
