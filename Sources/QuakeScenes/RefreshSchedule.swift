import Foundation

/// When the automatic refresh tries next, after each outcome: every `interval` while all is
/// well, backing off after failures (one interval, then 2×, 4×, … up to an hour, or the interval
/// if that is longer), and never before a server's `Retry-After`.
public struct RefreshSchedule: Equatable, Sendable {
    public var interval: TimeInterval
    /// The longest wait after repeated failures.
    public var maximumBackOff: TimeInterval { max(interval, 3600) }

    public init(interval: TimeInterval) { self.interval = interval }

    public enum Outcome: Equatable, Sendable {
        /// 200 with a body that was imported.
        case imported
        /// 304: the feed has not changed since the validators we sent.
        case notModified
        /// Offline, DNS, timeout, a broken body, HTTP 5xx…
        case failed
        /// 429 or 503, with the server's `Retry-After` in seconds when it sent one.
        case throttled(retryAfter: TimeInterval?)
    }

    /// The status after an attempt that ended with `outcome` at `now` (`error`, the sentence, for
    /// the log; `errorKind`, its `FailureKind.token`, for the status line's words).
    public func record(_ outcome: Outcome, error: String? = nil, errorKind: String? = nil, at now: Date,
                       in status: RefreshStatus) -> RefreshStatus {
        var status = status
        status.lastAttempt = now
        status.attemptStarted = nil
        switch outcome {
        case .imported, .notModified:
            status.failures = 0
            status.lastSuccess = now
            status.lastError = nil
            status.lastErrorKind = nil
            status.nextDue = now.addingTimeInterval(interval)
        case .failed, .throttled:
            status.failures += 1
            status.lastError = error
            status.lastErrorKind = errorKind
            let exponent = Double(min(status.failures - 1, 20))
            var delay = min(interval * pow(2, exponent), maximumBackOff)
            if case .throttled(let retryAfter?) = outcome { delay = max(delay, retryAfter) }
            status.nextDue = now.addingTimeInterval(delay)
        }
        return status
    }

    /// Whether a refresh is due at `now` (never run, or its time has come).
    public func isDue(_ status: RefreshStatus, at now: Date) -> Bool {
        guard let next = status.nextDue else { return true }
        // A clock set back, or a file from elsewhere, never postpones by more than the longest wait.
        return now >= next || next.timeIntervalSince(now) > maximumBackOff
    }
}
