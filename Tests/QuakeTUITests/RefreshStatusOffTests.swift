import Foundation
import QuakeScenes
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// Issue 28.5: with polling off (`autoRefreshInterval` 0) the status line promises no next
/// refresh: a stale `nextDue` never reads `due`.
@Suite struct RefreshStatusOffTests {
    static let now: Int64 = 1_700_000_000_000
    static var nowDate: Date { Date(timeIntervalSince1970: Double(now) / 1000) }

    @Test func aFailureOverdueSaysPollingIsOff() {
        var status = RefreshStatus()
        status.lastAttempt = Self.nowDate.addingTimeInterval(-600)
        status.nextDue = Self.nowDate.addingTimeInterval(-300)
        status.failures = 2
        status.lastError = "The server refused the connection."
        status.lastErrorKind = "refused"
        #expect(RefreshStatusText.make(status, now: Self.now)?.text == "refresh failed 2× (server down) · retry due")
        #expect(RefreshStatusText.make(status, now: Self.now, isPolling: false) == StatusRefresh(
            text: "refresh failed 2× (server down) · auto-refresh off",
            shorter: ["refresh failed (server down) · auto-refresh off", "refresh failed · auto-refresh off", "✗ · off"],
            isError: true))
    }

    @Test func aSuccessAndNeverSayPollingIsOff() {
        var status = RefreshStatus()
        status.lastAttempt = Self.nowDate.addingTimeInterval(-120)
        status.lastSuccess = status.lastAttempt
        status.nextDue = Self.nowDate.addingTimeInterval(-1)
        #expect(RefreshStatusText.make(status, now: Self.now, isPolling: false) == StatusRefresh(
            text: "refreshed 2m ago · auto-refresh off", shorter: ["↻ 2m ago · off", "↻ 2m ago"], isError: false))
        #expect(RefreshStatusText.make(nil, now: Self.now, isPolling: false)?.text == "auto-refresh off")
        #expect(RefreshStatusText.make(nil, now: Self.now) == nil)
    }

    /// The setting reaches the screen: a model with polling off draws the words.
    @Test func theScreenOfAModelWithPollingOffSaysSo() throws {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        try model.send(.settingsChanged({ var s = model.state.settings; s.autoRefreshInterval = 0; return s }()))
        let screen = try model.screenModel(FrameContext(now: Self.now, isLive: true, localTimeZone: .gmt))
        #expect(screen.status.autoRefresh?.text == "auto-refresh off")
    }
}
