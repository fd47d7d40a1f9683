import Foundation
import QuakeTestSupport
import Testing

/// A browser open while another process imports the download in which ComCat merged two codes:
/// the merged quake leaves the list and the counts at once, and `open` with its code shows the
/// quake it was merged into (`WriteTransaction+Aliases.swift`).
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct ComCatMergeEndToEndTests {
    typealias Fixture = BrowserTests.Fixture

    /// The list as sections and `magnitude code` rows.
    static func lines(_ screen: Screen) -> [String] {
        screen.rows.map { row in
            row.section.map { "§ \($0.title) (\($0.count))" }
                ?? "\(row.magnitude ?? "?") \(row.columns.first { $0.range(of: "^[a-z]{2}[0-9a-z]{8}$", options: .regularExpression) != nil } ?? "no code")"
        }
    }

    static func importing(_ text: String, named name: String, into fixture: Fixture) throws {
        let file = fixture.dir.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: fixture.dir.url)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aCodeComCatMergedLeavesTheOpenListAndNamesItsQuake() throws {
        let fixture = try Fixture(columns: 120, rows: 24, importing: nil)
        defer { fixture.close() }
        try Self.importing(ComCatFixture.apart, named: "apart.geojson", into: fixture)
        let tmux = fixture.tmux
        let pane = try fixture.launch()
        var screen = try tmux.waitForScreen(pane, "both codes") { $0.header.count == "2 quakes" && $0.isSettled }
        #expect(Self.lines(screen) == ["§ Friday, 5 June 2020 (2)", "2.6 nn00743624", "2.5 us6000a6su"], "\(screen)")

        try Self.importing(ComCatFixture.merged, named: "merged.geojson", into: fixture)
        screen = try tmux.waitForScreen(pane, "the merge") { $0.header.count == "1 quake" && $0.isSettled }
        #expect(Self.lines(screen) == ["§ Friday, 5 June 2020 (1)", "2.6 nn00743624"], "\(screen)")

        // The merged code still names the quake.
        let open = try QuaketuiBinary.run(["open", "us6000a6su", "--scene", "a"], stateDirectory: fixture.dir.url)
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout.hasPrefix("sent us6000a6su (the quake nn00743624) to scene a, open in process "), "\(open.stdout)")
        screen = try tmux.waitForScreen(pane, "the detail") { $0.detailField("Code") == "nn00743624" }
        let json = try QuaketuiBinary.run(["open", "us6000a6su", "--scene", "a", "--json"], stateDirectory: fixture.dir.url)
        #expect(try json.json()["event"] as? String == "nn00743624" && json.json()["inStore"] as? Bool == true, "\(json.stdout)")
    }

    /// A browser showing the quake another process then merges away follows it to the quake it was
    /// merged into: the selection and the open detail, not the row that takes its place.
    @Test func aQuakeMergedWhileSelectedTakesTheSelectionToItsEvent() throws {
        let fixture = try Fixture(columns: 120, rows: 24, importing: nil)
        defer { fixture.close() }
        let tmux = fixture.tmux
        let (pane, _) = try Self.launchSelectingTheCodeToBeMerged(fixture)
        try tmux.send(pane, "Enter")
        try tmux.waitForScreen(pane, "its detail") { $0.detailField("Code") == "us6000a6su" }

        try Self.importing(ComCatFixture.merged, named: "merged.geojson", into: fixture)
        let merged = try tmux.waitForStyledScreen(pane, "the merge") { $0.header.count == "2 quakes" && $0.isSettled }
        // The list beside the detail has no code column: nn00743624 is the M2.6, ci0000000z the M1.5.
        #expect(merged.selectedRow?.magnitude == "2.6", "\(merged)")
        #expect(merged.detailField("Code") == "nn00743624", "\(merged)")
    }

    /// A browser on `threeApart`, `us6000a6su` selected.
    static func launchSelectingTheCodeToBeMerged(_ fixture: Fixture) throws -> (pane: String, screen: Screen) {
        try Self.importing(Self.threeApart, named: "three.geojson", into: fixture)
        let pane = try fixture.launch()
        try fixture.tmux.waitForScreen(pane, "three quakes") { $0.header.count == "3 quakes" && $0.isSettled }
        try fixture.tmux.send(pane, "j")
        let screen = try fixture.tmux.waitForStyledScreen(pane, "us6000a6su selected") { $0.selectedRow?.words.contains("us6000a6su") == true }
        return (pane, screen)
    }

    /// `nn00743624`, `us6000a6su` and `ci0000000z` (ten minutes before them), each listed alone.
    static let threeApart = ComCatFixture.download(generated: 1_591_761_945_000, [
        ComCatFixture.feature("nn00743624", ids: ["nn00743624"]),
        ComCatFixture.feature("us6000a6su", ids: ["us6000a6su"], magnitude: 2.5, time: 1_591_385_507_668, longitude: -117.8903),
        ComCatFixture.feature("ci0000000z", ids: ["ci0000000z"], magnitude: 1.5, time: 1_591_384_907_668, longitude: -117.5),
    ])

    /// A scene left on the quake a later download merges away comes back on the quake it was merged
    /// into, not on the row that took its place (`ci0000000z`, ten minutes before it).
    @Test func aSceneLeftOnAMergedQuakeComesBackOnItsEvent() throws {
        let fixture = try Fixture(columns: 120, rows: 24, importing: nil)
        defer { fixture.close() }
        let tmux = fixture.tmux
        var (pane, left) = try Self.launchSelectingTheCodeToBeMerged(fixture)
        try tmux.send(pane, "q")
        #expect(try tmux.waitForExit(pane) == 0, "\(left)")

        try Self.importing(ComCatFixture.merged, named: "merged.geojson", into: fixture)
        pane = try fixture.launch()
        let back = try tmux.waitForScreen(pane, "the relaunch") { $0.header.count == "2 quakes" && $0.isSettled }
        #expect(Self.lines(back) == ["§ Friday, 5 June 2020 (2)", "2.6 nn00743624", "1.5 ci0000000z"], "\(back)")
        // Enter opens the selected quake: the one us6000a6su was merged into.
        try tmux.send(pane, "Enter")
        let detail = try tmux.waitForScreen(pane, "the detail") { $0.detailPane != nil }
        #expect(detail.detailField("Code") == "nn00743624", "\(detail)")
    }
}
