import Foundation
import QuakeScenes

/// The automatic refresh on the status line, from `refresh.plist` (so every pane says the same,
/// whichever process refreshes): `refreshed 2m ago · next 3m`, or after a failure
/// `refresh failed (HTTP 500) · retry 4m`, `refresh failed 3× (server down) · retry 8m`.
public struct StatusRefresh: Sendable, Equatable {
    public var text: String
    public var isError: Bool

    public init(text: String, isError: Bool) {
        self.text = text
        self.isError = isError
    }
}

/// Words for the automatic refresh's status.
public enum RefreshStatusText {
    /// The status line's text for `status` at `now` (ms since the epoch); nil before any attempt.
    public static func make(_ status: RefreshStatus?, now: Int64) -> StatusRefresh? {
        guard let status, let attempt = status.lastAttempt else { return nil }
        let nowDate = Date(timeIntervalSince1970: Double(now) / 1000)
        var next = ""
        if let due = status.nextDue {
            let wait = due.timeIntervalSince(nowDate)
            next = wait > 0 ? duration(wait) : "due"
        }
        if status.failures > 0 {
            let times = status.failures > 1 ? " \(status.failures)×" : ""
            let reason = status.lastError.map { " (\(shortReason($0)))" } ?? ""
            _ = attempt
            return StatusRefresh(text: "refresh failed\(times)\(reason)" + (next.isEmpty ? "" : " · retry \(next)"),
                                 isError: true)
        }
        let success = status.lastSuccess ?? attempt
        let ago = nowDate.timeIntervalSince(success)
        let when = ago < 60 ? "just now" : "\(duration(ago)) ago"
        return StatusRefresh(text: "refreshed \(when)" + (next.isEmpty ? "" : " · next \(next)"), isError: false)
    }

    /// `<1m`, `4m`, `2h`, `3d`: minutes are enough, the clock redraws every 15 s.
    public static func duration(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: "<1m"
        case ..<3600: "\(Int(seconds / 60))m"
        case ..<86_400: "\(Int(seconds / 3600))h"
        default: "\(Int(seconds / 86_400))d"
        }
    }

    /// A few words for a refresh error (the full sentence is shown once as a message):
    /// `HTTP 500`, `server down`, `DNS failure`, `offline`, `timed out`, `bad feed`.
    public static func shortReason(_ error: String) -> String {
        if let range = error.range(of: #"HTTP [0-9]{3}"#, options: .regularExpression) { return String(error[range]) }
        if error.contains("refused the connection") { return "server down" }
        if error.contains("could not be found") { return "DNS failure" }
        if error.contains("no network") { return "offline" }
        if error.contains("did not answer in time") { return "timed out" }
        if error.contains("TLS") { return "TLS failure" }
        return "bad feed"
    }
}
