import Foundation

/// Keeping every one-shot message (`MessageLog`) and the `L` overlay that shows them.
extension BrowserModel {
    /// Logs the status line's message when this action set one (a repeated notice or error from
    /// outside, such as a second failed refresh, is logged again).
    /// - Parameter noticesBefore: how many unread notices the status line had before the action.
    func logMessage(_ action: Action, before: String?, noticesBefore: Int) {
        // Each new notice is logged alone, in order, not with what else the status line shows.
        if case .showNotices = action {
            for notice in state.status.notices.dropLast(noticesBefore) { state.messageLog.append(notice, isError: true, at: state.now) }
            return
        }
        // A refresh's result is logged whole, also when the status line says it in a few words.
        if case .refreshFinished(let whole, _, _) = action {
            state.messageLog.append(whole, isError: state.status.isError, at: state.now)
            return
        }
        guard let message = state.status.message else { return }
        let isReport = switch action {
        case .showMessage, .notesSaved: true
        default: false
        }
        guard isReport || message != before else { return }
        state.messageLog.append(message, isError: state.status.isError, at: state.now)
    }

    /// Of `notices`, in order, those the status line (`showing`) does not already say, each once.
    static func newNotices(_ notices: [String], showing: String?) -> [String] {
        var new: [String] = []
        for notice in notices where !(showing?.contains(notice) ?? false) && !new.contains(notice) { new.append(notice) }
        return new
    }

    func updateMessageLog(_ action: Action) {
        switch action {
        case .toggleMessageLog:
            state.logVisible.toggle()
            state.logOffset = 0
            if state.logVisible { state.helpVisible = false }
        case .scrollMessageLog(let delta):
            let maximum = MessageLogOverlay.maximumOffset(state.messageLog.entries,
                                                         in: Rect(Size(columns: state.columns, rows: state.rows)),
                                                         zone: state.settings.resolvedTimeZone)
            state.logOffset = max(0, min(maximum, state.logOffset + delta))
        default: break
        }
    }
}
