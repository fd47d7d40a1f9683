import Foundation
import QuakeTestSupport
import Testing

/// The bundled sample's quakes are invented (issue 31): `o` says a sample quake has no event page
/// instead of opening a USGS address that does not exist, and the detail shows no such link.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct SampleLinkEndToEndTests {
    @Test func oOnASampleQuakeSaysItHasNoEventPage() throws {
        let fixture = try BrowserTests.Fixture(columns: 100, rows: 30, importing: nil)
        defer { fixture.close() }
        // A browser that would leave a trace if it were run.
        let opened = fixture.dir.url.appendingPathComponent("opened")
        let pane = try fixture.tmux.start(QuaketuiBinary.url.path, ["--state-dir", fixture.dir.path, "--scene", "a"],
                                          environment: BrowserTests.offline.merging(["BROWSER": "touch \(opened.path)"]) { $1 })
        // The newest sample quake is selected first.
        try fixture.tmux.waitForScreen(pane, "the sample") { $0.rows.count > 1 && $0.row(code: "sample00775") == $0.row(at: 1) }
        // The first refresh (of a feed that is not there) has failed, so its notice does not
        // replace what `o` says on a loaded machine.
        try fixture.tmux.waitForScreen(pane, "the failed refresh") { $0.status.right.first?.hasPrefix("✗ · retry ") == true }
        try fixture.tmux.send(pane, "o")
        let said = try fixture.tmux.waitForScreen(pane, "the status line") { $0.status.message?.hasPrefix("sample00775 ") == true }
        #expect(said.status.left == "sample00775 is a sample quake: no event page  ? help", "\(said)")
        try fixture.tmux.send(pane, "Enter")
        let detail = try fixture.tmux.waitForScreen(pane, "the detail") { $0.detailField("Code") == "sample00775" }
        #expect(detail.detailField("URL") == "none: a sample quake, not real data", "\(detail)")
        #expect(!detail.text.contains("eventpage"))
        #expect(!FileManager.default.fileExists(atPath: opened.path))
    }
}
