import Foundation
import QuakeModel
import QuakeScenes

/// The automatic refresh on the status line, from `refresh.plist` (so every pane says the same,
/// whichever process refreshes): `refreshed 2m ago · next 3m`, or after a failure
/// `refresh failed (HTTP 500) · retry 4m`, `refresh failed 3× (server down) · retry 8m`.
public struct StatusRefresh: Sendable, Equatable {
    public var text: String
    /// Shorter forms for a narrow pane: `refresh failed · retry 4m`, `✗ retry 4m`.
    public var shorter: [String]
    public var isError: Bool

    public init(text: String, shorter: [String] = [], isError: Bool) {
        self.text = text
        self.shorter = shorter
        self.isError = isError
    }

    /// Every wording, longest first.
    public var wordings: [String] { [text] + shorter }
}

/// Words for the automatic refresh's status.
public enum RefreshStatusText {
    /// The status line's text for `status` at `now` (ms since the epoch); nil before any attempt.
    /// With polling off (`autoRefreshInterval` 0) no next time is promised: the text says
    /// `auto-refresh off` where it would say `next 3m` or `retry due` (a stale `nextDue` in
    /// `refresh.plist` is never due again).
    /// While an attempt runs (`RefreshStatus.isAttemptRunning`), `refreshing` takes the place of
    /// the next time: `refreshed 2m ago · refreshing`, `refresh failed (timed out) · refreshing`.
    public static func make(_ status: RefreshStatus?, now: Int64, isPolling: Bool = true) -> StatusRefresh? {
        let running = status?.isAttemptRunning == true
        guard let status, let attempt = status.lastAttempt else {
            if running { return StatusRefresh(text: "refreshing", shorter: ["↻ …"], isError: false) }
            return isPolling ? nil : StatusRefresh(text: "auto-refresh off", shorter: ["↻ off"], isError: false)
        }
        let nowDate = Date(timeIntervalSince1970: Double(now) / 1000)
        var next = ""
        if let due = status.nextDue, isPolling {
            let wait = due.timeIntervalSince(nowDate)
            next = wait > 0 ? duration(wait, roundingUp: true) : "due"
        }
        if status.failures > 0 {
            let times = status.failures > 1 ? " \(status.failures)×" : ""
            // The kind the failure was given where it happened (`lastErrorKind`); none is known for
            // a file from before it was kept: the reason is left out, `L` has the sentence.
            let reason = status.lastErrorKind.flatMap(FailureKind.init(token:)).map { " (\($0.words))" } ?? ""
            let retry = running ? " · refreshing" : isPolling ? (next.isEmpty ? "" : " · retry \(next)") : " · auto-refresh off"
            return StatusRefresh(text: "refresh failed\(times)\(reason)\(retry)",
                                 shorter: ["refresh failed\(reason)\(retry)", "refresh failed\(retry)",
                                           "✗" + (isPolling ? retry : " · off")],
                                 isError: true)
        }
        let success = status.lastSuccess ?? attempt
        let ago = nowDate.timeIntervalSince(success)
        let when = ago < 60 ? "just now" : "\(duration(ago)) ago"
        let after = running ? " · refreshing" : isPolling ? (next.isEmpty ? "" : " · next \(next)") : " · auto-refresh off"
        let shortAfter = running ? " · ↻" : isPolling ? (next.isEmpty ? "" : " · \(next)") : " · off"
        return StatusRefresh(text: "refreshed \(when)" + after, shorter: ["↻ \(when)" + shortAfter, "↻ \(when)"], isError: false)
    }

    /// The longest of `refresh`'s wordings that fits a status line `width` wide beside the
    /// live badge, after `hints` (nil: a message is shown, so the shortest); the shortest when none fits.
    static func wording(_ refresh: StatusRefresh, width: Int, isLive: Bool, hints: [KeyHint]?) -> String {
        let live = isLive ? 8 : 0
        var budget = width / 2 - live
        if let hints {
            let help = hints.contains { $0.keys == "?" } ? 0 : 8
            budget = min(budget, width - 2 - live - help - hints.reduce(0) { $0 + TextWidth.of($1.keys) + TextWidth.of($1.action) + 3 })
        } else {
            budget = 0
        }
        return refresh.wordings.first { TextWidth.of($0) + 2 <= budget } ?? refresh.wordings.last!
    }

    /// `<1m`, `4m`, `2h`, `3d`: minutes are enough, the clock redraws every 15 s. An age
    /// (`2m ago`) rounds down; a wait (`next 3m`, `retry 2m`) rounds up with `roundingUp`, so it
    /// never says sooner than the truth (`Retry-After: 120`, shown a moment later, is `2m`).
    public static func duration(_ seconds: TimeInterval, roundingUp: Bool = false) -> String {
        func count(_ unit: TimeInterval) -> Int { Int(roundingUp ? (seconds / unit).rounded(.up) : seconds / unit) }
        switch seconds {
        case ..<60: return "<1m"
        case ..<3600: return count(60) < 60 ? "\(count(60))m" : "1h"
        case ..<86_400: return count(3600) < 24 ? "\(count(3600))h" : "1d"
        default: return "\(count(86_400))d"
        }
    }

    /// What the status line says when a refresh failed while the store holds the bundled sample
    /// (a new user, most likely offline): `offline — showing the bundled sample · r retries`, or
    /// `HTTP 500 — …` when the network answered. The whole message goes to the log.
    public static func sampleShown(kind: FailureKind?, again: Bool = false) -> String {
        // A second failure in a row says so: `r` that fails again must change what the line shows.
        let reason = kind.map { $0.isUnreachable ? "offline" : $0.words } ?? "refresh failed"
        return (again ? "still " : "") + reason + sampleSuffix
    }

    /// How the sample's failure line ends: it goes when the sample does.
    public static let sampleSuffix = " — showing the bundled sample · r retries"

    /// What the status line says when `r` failed on real data (issue 56.15): as little as the
    /// sample's line, `offline · L why` or `refresh failed: HTTP 503 · L why`, where the network
    /// or the server is the cause (`FailureKind.isUnreachable`: offline, DNS, refused, timed out,
    /// TLS); any other failure (a broken feed, a missing file) says its sentence, `message`. The
    /// log keeps the sentence either way.
    public static func refreshFailed(after message: String, kind: FailureKind?) -> String {
        switch kind {
        case let kind? where kind.isUnreachable: "offline · L why"
        case .http?: "refresh failed: \(kind!.words) · L why"
        default: message
        }
    }
}
