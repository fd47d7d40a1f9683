import Foundation
import QuakeTestSupport
import Testing

/// What the list shows of a magnitude is what every test of it tests (`MagnitudeBin`): a quake
/// of M 2.96 shows `3.0`, sits in `M 3`, passes `:mag 3`, `m` at 2.5 and `list --min-magnitude
/// 3`; one of M 2.45 shows `2.5` and passes `m` at 2.5 (as USGS's M 2.5+ feed lists it); one of M
/// 2.25 shows `2.3` (printf's `%.1f` says `2.2`). Whole lists are compared, worked out from the
/// feed's values by `ExpectedResults.shownTenths`, not by the app's code.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct MagnitudesAsShownEndToEndTests {
    typealias Fixture = BrowserTests.Fixture

    static let quakes: [RecentFeed.Quake] = [
        .init("zz2960", magnitude: 2.96, latitude: -33, longitude: -71, place: "Alpha, Chile", minutesAgo: 10),
        .init("zz3000", magnitude: 3.0, latitude: -33, longitude: -71, place: "Bravo, Chile", minutesAgo: 20),
        .init("zz2940", magnitude: 2.94, latitude: -33, longitude: -71, place: "Charlie, Chile", minutesAgo: 30),
        .init("zz2450", magnitude: 2.45, latitude: -33, longitude: -71, place: "Delta, Chile", minutesAgo: 40),
        .init("zz2449", magnitude: 2.449, latitude: -33, longitude: -71, place: "Foxtrot, Chile", minutesAgo: 50),
        .init("zz2250", magnitude: 2.25, latitude: -33, longitude: -71, place: "Echo, Chile", minutesAgo: 60),
    ]

    /// A quake's row as `magnitude place`, the magnitude as shown.
    static func shown(_ quake: RecentFeed.Quake) -> String {
        let tenths = ExpectedResults.shownTenths(quake.magnitude)
        return "\(tenths / 10).\(tenths % 10) \(quake.place)"
    }

    /// The list in the magnitude order, largest first: each whole magnitude as shown a section.
    static func expected(atLeast minimum: Double? = nil) -> [String] {
        let kept = quakes.filter { quake in minimum.map { ExpectedResults.isShown(quake.magnitude, atLeast: $0) } ?? true }
            .sorted { $0.magnitude > $1.magnitude }
        var lines: [String] = []
        for whole in [3, 2] {
            let section = kept.filter { ExpectedResults.shownTenths($0.magnitude) / 10 == whole }
            guard !section.isEmpty else { continue }
            lines.append("§ M \(whole) (\(section.count))")
            lines += section.map(shown)
        }
        return lines
    }

    static func lines(_ screen: Screen) -> [String] {
        screen.rows.map { row in row.section.map { "§ \($0.title) (\($0.count))" } ?? "\(row.magnitude ?? "") \(row.place ?? "")" }
    }

    @Test func aMagnitudeIsSectionedFilteredAndListedAsItIsShown() throws {
        let fixture = try Fixture(columns: 100, rows: 24, importing: nil)
        defer { fixture.close() }
        try fixture.importQuakes(Self.quakes)

        let tmux = fixture.tmux
        let pane = try fixture.launch()
        try tmux.waitForScreen(pane, "the list") { $0.header.count == "6 quakes" }
        try tmux.send(pane, "s")
        var screen = try tmux.waitForScreen(pane, "the magnitude order") { $0.header.sort == "sort magnitude ↓" && Self.lines($0).count == 8 }
        #expect(Self.lines(screen) == Self.expected(), "\(screen)")
        #expect(Self.lines(screen) == ["§ M 3 (2)", "3.0 Bravo, Chile", "3.0 Alpha, Chile", "§ M 2 (4)", "2.9 Charlie, Chile",
                                        "2.5 Delta, Chile", "2.4 Foxtrot, Chile", "2.3 Echo, Chile"])

        // `:mag 3`: the two shown 3.0, counted so in the header.
        try tmux.send(pane, ":")
        try tmux.send(pane, "mag 3", literal: true)
        try tmux.send(pane, "Enter")
        screen = try tmux.waitForScreen(pane, ":mag 3") { $0.header.filters == ":mag 3+" && $0.header.count == "2 quakes" }
        #expect(Self.lines(screen) == Self.expected(atLeast: 3), "\(screen)")

        // `m` at 2.5: the quake of M 2.45 shows 2.5 and stays; 2.449 shows 2.4 and goes.
        try tmux.send(pane, ":")
        try tmux.send(pane, "clear", literal: true)
        try tmux.send(pane, "Enter", "m")
        screen = try tmux.waitForScreen(pane, "m at 2.5") { $0.header.filters == nil && $0.header.count == "4 quakes" }
        #expect(Self.lines(screen) == Self.expected(atLeast: 2.5), "\(screen)")

        // The command line agrees: `list --min-magnitude 3` prints the two, as `3.0`.
        let listed = try QuaketuiBinary.run(["list", "--sort", "magnitude", "--min-magnitude", "3"], stateDirectory: fixture.dir.url)
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map { line in
            line.split(separator: " ").filter { !$0.hasPrefix("20") && !($0.count == 8 && $0.contains(":")) }.joined(separator: " ")  // no date or time
        }
        #expect(lines == ["M 3 (2)", "M 3.0 ml 10.0 km Bravo, Chile [zz3000]", "M 3.0 ml 10.0 km Alpha, Chile [zz2960]"],
                "\(listed.stdout)")
    }
}
