import Foundation
import QuakeTestSupport
import Testing

/// What the list shows of a depth is what its band and `:depth` test (`DepthBins`): a quake at
/// 9.96 km shows `10.0 km` and sits in `10–20 km deep` beside one stored 10.0; `:depth 0-10` holds
/// every quake shown 10.0 km or less (10.04 km too), not one shown 10.0 km and not another. Whole
/// lists are compared, worked out from the feed's values by `ExpectedResults.shownTenths`.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct DepthsAsShownEndToEndTests {
    typealias Fixture = BrowserTests.Fixture

    static let quakes: [RecentFeed.Quake] = [
        ("zz0996", 9.96, "Alpha"), ("zz1000", 10.0, "Bravo"), ("zz0994", 9.94, "Charlie"), ("zz1004", 10.04, "Delta"),
        ("zz0000", -0.04, "Echo"), ("zz1995", 19.949, "Foxtrot"),
    ].enumerated().map { index, quake in
        .init(quake.0, magnitude: 3, latitude: -33, longitude: -71, place: "\(quake.2), Chile", minutesAgo: Double(10 * (index + 1)),
              depth: quake.1)
    }

    /// A depth as shown, in km: `10.0 km`.
    static func shown(_ depth: Double) -> String {
        let tenths = ExpectedResults.shownTenths(depth)
        return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10) km"
    }

    /// The list in the depth order, shallowest first, of the quakes shown within `range` km: each
    /// 10 km band of the depth as shown a section.
    static func expected(within range: ClosedRange<Int>? = nil) -> [String] {
        let kept = quakes.filter { quake in
            range.map { $0.contains(ExpectedResults.shownTenths(quake.depth)) } ?? true
        }.sorted { $0.depth < $1.depth }
        var lines: [String] = []
        for band in [0, 10] {
            let section = kept.filter { ExpectedResults.shownTenths($0.depth) / 100 == band / 10 }
            guard !section.isEmpty else { continue }
            lines.append("§ \(band)–\(band + 10) km deep (\(section.count))")
            lines += section.map { "\(shown($0.depth)) \($0.place)" }
        }
        return lines
    }

    static func lines(_ screen: Screen) -> [String] {
        screen.rows.map { row in
            row.section.map { "§ \($0.title) (\($0.count))" }
                ?? "\(row.columns.first { $0.hasSuffix(" km") } ?? "no depth") \(row.place ?? "")"
        }
    }

    @Test func aDepthIsSectionedFilteredAndListedAsItIsShown() throws {
        let fixture = try Fixture(columns: 120, rows: 24, importing: nil)
        defer { fixture.close() }
        try fixture.importQuakes(Self.quakes)

        let tmux = fixture.tmux
        let pane = try fixture.launch()
        try tmux.waitForScreen(pane, "the list") { $0.header.count == "6 quakes" }
        try tmux.send(pane, "s", "s", "s")
        var screen = try tmux.waitForScreen(pane, "the depth order") { $0.header.sort == "sort depth ↑" && Self.lines($0).count == 8 }
        #expect(Self.lines(screen) == Self.expected(), "\(screen)")
        #expect(Self.lines(screen) == ["§ 0–10 km deep (2)", "0.0 km Echo, Chile", "9.9 km Charlie, Chile",
                                        "§ 10–20 km deep (4)", "10.0 km Alpha, Chile", "10.0 km Bravo, Chile",
                                        "10.0 km Delta, Chile", "19.9 km Foxtrot, Chile"])

        // `:depth 0-10`: every quake shown 10.0 km or less, counted so in the header.
        try tmux.send(pane, ":")
        try tmux.send(pane, "depth 0-10", literal: true)
        try tmux.send(pane, "Enter")
        screen = try tmux.waitForScreen(pane, ":depth 0-10") { $0.header.count == "5 quakes" }
        #expect(Self.lines(screen) == Self.expected(within: 0...100), "\(screen)")

        // The command line agrees: `list --sort depth --depth 10-19.9` prints the four shown 10.0 … 19.9 km.
        let listed = try QuaketuiBinary.run(["list", "--sort", "depth", "--depth", "10-19.9"], stateDirectory: fixture.dir.url)
        #expect(listed.status == 0, "\(listed.stderr)")
        let depths = listed.stdout.split(separator: "\n").compactMap { line -> String? in
            let line = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("M "), let km = line.range(of: " km ") else { return nil }  // a quake's line
            return line[..<km.lowerBound].split(separator: " ").last.map { "\($0) km" }
        }
        #expect(depths == ["10.0 km", "10.0 km", "10.0 km", "19.9 km"], "\(listed.stdout)")
    }
}
