import Foundation
import QuakeScenes

/// Keeping every one-shot message (`MessageLog`) and the `L` overlay that shows them.
extension BrowserState {
    /// Logs the status line's message when this action set one (a repeated notice or error from
    /// outside, such as a second failed refresh, is logged again).
    /// - Parameter noticesBefore: how many unread notices the status line had before the action.
    mutating func logMessage(_ action: Action, before: String?, noticesBefore: Int) {
        // Each new notice is logged alone, in order, not with what else the status line shows.
        if case .showNotices = action {
            for notice in self.status.notices.dropLast(noticesBefore) { self.messageLog.append(notice, isError: true, at: self.now) }
            return
        }
        // A refresh's result is logged whole, also when the status line says it in a few words.
        if case .refreshFinished(let whole, _, _, _) = action {
            self.messageLog.append(whole, isError: self.status.isError, at: self.now)
            return
        }
        guard let message = self.status.message else { return }
        // A key that does nothing says so on the status line only: the log is for what happened.
        if case .unboundKey = action { return }
        let isReport = switch action {
        case .showMessage, .notesSaved: true
        default: false
        }
        guard isReport || message != before else { return }
        // A report whose count is pending is logged once it is counted.
        if message == self.status.filterReport, results.countedTotal == nil { return }
        self.messageLog.append(message, isError: self.status.isError, at: self.now)
    }

    /// A failed automatic refresh, whichever process ran it (`refresh.plist`), is logged once,
    /// whole, at the time it was tried: the status line says it in a few words (`✗`) and sends
    /// the user to `L` for why. Once means once in the log: the same attempt arrives from this
    /// process's poller and from the file (its time to the second), and again from the file
    /// after a relaunch that restored the log.
    mutating func logRefreshFailure(_ status: RefreshStatus) {
        guard status.failures > 0, let error = status.lastError else { return }
        let feed = status.feed.map { " of \($0)" } ?? ""
        let text = "Automatic refresh\(feed) failed: \(error)"
        let time = status.lastAttempt ?? self.now
        let second = time.timeIntervalSince1970.rounded(.down)
        guard !self.messageLog.entries.contains(where: {
            $0.text == text && $0.time.timeIntervalSince1970.rounded(.down) == second
        }) else { return }
        self.messageLog.append(text, isError: true, at: time)
    }

    /// What an automatic refresh's import withdrew (issue 53: reports deleted by their agency,
    /// or no longer in the feed), whichever process ran it, is logged once, at its time, as a
    /// failure is: `Automatic refresh of all_day: imported … ; 1 deleted by its agency, hidden) …`.
    mutating func logRefreshNotice(_ status: RefreshStatus) {
        guard let notice = status.lastNotice, let time = status.lastSuccess else { return }
        let feed = status.feed.map { " of \($0)" } ?? ""
        let text = "Automatic refresh\(feed): \(notice)"
        let second = time.timeIntervalSince1970.rounded(.down)
        guard !self.messageLog.entries.contains(where: {
            $0.text == text && $0.time.timeIntervalSince1970.rounded(.down) == second
        }) else { return }
        self.messageLog.append(text, isError: false, at: time)
    }

    /// Of `notices`, in order, those the status line (`showing`) does not already say, each once.
    static func newNotices(_ notices: [String], showing: String?) -> [String] {
        var new: [String] = []
        for notice in notices where !(showing?.contains(notice) ?? false) && !new.contains(notice) { new.append(notice) }
        return new
    }

    mutating func updateMessageLog(_ action: Action) {
        switch action {
        case .toggleMessageLog:
            self.logVisible.toggle()
            self.logOffset = 0
            endOverlayFind(keep: false)
            if self.logVisible { self.helpVisible = false }
        case .scrollMessageLog(let delta):
            let maximum = MessageLogOverlay.maximumOffset(MessageLogOverlay.found(self.messageLog.entries, self.overlayFind),
                                                         in: Rect(Size(columns: self.columns, rows: self.rows)),
                                                         zone: self.settings.resolvedTimeZone)
            self.logOffset = Self.scrolled(self.logOffset, by: delta, maximum: maximum)
        default: break
        }
    }
}

extension BrowserState {
    /// `/` in the help or the log (issue 56.8): the overlay shows only the lines holding the
    /// text, from its top, as it is typed.
    mutating func updateOverlayFind(_ action: Action) {
        switch action {
        case .beginOverlayFind:
            self.overlayFind = ""
            self.isOverlayFinding = true
        case .overlayFindInput(let text):
            self.overlayFind = String((self.overlayFind + text).prefix(Self.overlayFindLimit))
        case .overlayFindBackspace:
            if self.overlayFind.isEmpty { self.isOverlayFinding = false } else { self.overlayFind.removeLast() }
        case .endOverlayFind(let keep): endOverlayFind(keep: keep)
        default: return
        }
        self.helpOffset = 0
        self.logOffset = 0
    }

    /// The longest text `/` finds (`ContentView.overlayFind`).
    static let overlayFindLimit = 200

    /// Typing ends; `keep` keeps the text (and the lines it found), else all lines show again.
    mutating func endOverlayFind(keep: Bool) {
        self.isOverlayFinding = false
        if !keep { self.overlayFind = "" }
    }

    /// An overlay's offset moved by `delta` lines within `0...maximum`; `.min` and `.max` (`g`, `G`)
    /// reach its ends without overflowing.
    static func scrolled(_ offset: Int, by delta: Int, maximum: Int) -> Int {
        let offset = min(max(0, offset), max(0, maximum))
        return offset + max(-offset, min(max(0, maximum) - offset, delta))
    }
}
