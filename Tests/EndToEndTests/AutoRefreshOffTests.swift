import Foundation
import QuakeTestSupport
import Testing

/// Issue 28.5: with `autoRefreshInterval 0` no refresh is ever due again, so the status line
/// says that polling is off instead of promising `retry due` forever.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct AutoRefreshOffTests {
    @Test func theStatusLineSaysAutoRefreshIsOff() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("s")
        // A failed automatic refresh, its retry 5 minutes overdue; then polling turned off.
        #expect(try QuaketuiBinary.run(["config", "autoRefreshInterval", "0"], stateDirectory: state).status == 0)
        let now = Date()
        let status: [String: Any] = ["feed": "all_hour", "failures": 1, "lastAttempt": now.addingTimeInterval(-600),
                                     "nextDue": now.addingTimeInterval(-300),
                                     "lastError": "The server at 127.0.0.1 refused the connection.", "lastErrorKind": "refused"]
        try PropertyListSerialization.data(fromPropertyList: status, format: .xml, options: 0)
            .write(to: state.appendingPathComponent("refresh.plist"))
        let tmux = try TmuxSession(columns: 200, rows: 20)
        defer { tmux.close() }
        let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", state.path, "--scene", "a"],
                                  environment: TerminalResizeTests.offline)
        try tmux.waitForScreen(pane, timeout: 20, "the launch refresh failed") {
            $0.status.message?.hasSuffix(" — showing the bundled sample · r retries") == true
        }
        try tmux.send(pane, "j")  // past the launch's message: the key hints and the refresh status
        let screen = try tmux.waitForScreen(pane, "the key hints") { $0.status.parts.first == "j/k move" }
        let line = screen.lines.last!
        // The whole status line: the key hints, and at the right the refresh's status and the live badge.
        let hints = " j/k move  Enter open  / search  s sort  space fold  m min mag  r refresh  q quit  ? help"
        let right = "refresh failed (server down) · auto-refresh off  ● live"
        #expect(line == hints + String(repeating: " ", count: 200 - hints.count - right.count) + right, "\(line)")
        // And the header, whole: the sample, offline, no refresh due anywhere.
        #expect(screen.header.segments == ["quaketui", "775 quakes", "sort time ↓"], "\(screen)")
        #expect(screen.header.right == ["sample data", "offline", "scene a"], "\(screen)")
    }
}
