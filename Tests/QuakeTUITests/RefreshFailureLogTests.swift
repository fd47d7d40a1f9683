import Foundation
import QuakeScenes
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// A failed automatic refresh, run by whichever process holds the poller and known here only
/// from `refresh.plist`, is in the message log: the status line's `✗` sends the user to `L`
/// for why, and `L` must say it. Pure: states and actions, no store.
@Suite struct RefreshFailureLogTests {
    static let tried = Date(timeIntervalSince1970: 1_700_000_000)

    static func failed(_ failures: Int, at attempt: Date, _ error: String = "the server could not be reached") -> RefreshStatus {
        var status = RefreshStatus()
        status.feed = "all_day"
        status.lastAttempt = attempt
        status.failures = failures
        status.lastError = error
        return status
    }

    @Test func eachFailedAttemptIsLoggedOnceWholeAtItsTime() {
        var state = PureUpdateTests.start()
        _ = state.update(.refreshStatusChanged(Self.failed(1, at: Self.tried)), at: Self.tried.addingTimeInterval(1))
        // The same attempt again: from the file, its time cut to the second, after the poller in
        // this process said it; after a status between (a refresh starting); after a relaunch
        // that restored the log (a new state, `live.refresh` unknown, the log kept).
        _ = state.update(.refreshStatusChanged(Self.failed(1, at: Self.tried.addingTimeInterval(0.25))), at: Self.tried.addingTimeInterval(5))
        _ = state.update(.refreshStatusChanged(RefreshStatus()), at: Self.tried.addingTimeInterval(6))
        _ = state.update(.refreshStatusChanged(Self.failed(1, at: Self.tried)), at: Self.tried.addingTimeInterval(9))
        var relaunched = PureUpdateTests.start()
        relaunched.messageLog = state.messageLog
        _ = relaunched.update(.refreshStatusChanged(Self.failed(1, at: Self.tried)), at: Self.tried.addingTimeInterval(99))
        #expect(relaunched.messageLog == state.messageLog)
        let retried = Self.tried.addingTimeInterval(60)
        _ = state.update(.refreshStatusChanged(Self.failed(2, at: retried, "HTTP 503")), at: retried)
        #expect(state.messageLog.entries == [
            MessageLog.Entry(time: Self.tried, text: "Automatic refresh of all_day failed: the server could not be reached", isError: true),
            MessageLog.Entry(time: retried, text: "Automatic refresh of all_day failed: HTTP 503", isError: true),
        ])
    }

    @Test func aSuccessIsNotLogged() {
        var state = PureUpdateTests.start()
        var status = RefreshStatus()
        status.feed = "all_day"
        status.lastAttempt = Self.tried
        status.lastSuccess = Self.tried
        _ = state.update(.refreshStatusChanged(status), at: Self.tried)
        #expect(state.messageLog.entries.isEmpty)
    }
}
