import Foundation

/// The browser's one-time notices (a scene or defaults file set aside, a value reset, a
/// background scene save that failed), drained on every pass of the loop, not only before the
/// first frame, and shown through the one presenter: its short status-line form on screen,
/// the whole text in the `QUAKETUI_LOG` file.
///
/// ```swift
/// if let status = BrowserNotices.take(from: [session.storage.takeNotice, appStorage.takeNotice]) {
///     show(status)
/// }
/// ```
enum BrowserNotices {
    /// Every notice waiting in `sources`, as one status-line message; nil when there is none.
    ///
    /// A notice the status line already shows (`showing`: a save that failed again) goes after
    /// the new ones, which would otherwise be cut off behind it at the pane's width.
    static func take(from sources: [() -> String?], showing: String? = nil,
                     environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var statuses: [String] = []
        for source in sources {
            while let notice = source() {
                let report = ErrorPresenter.notice(notice)
                ErrorPresenter.log(report, context: "browser", environment: environment)
                statuses.append(report.status)
            }
        }
        return statuses.isEmpty ? nil : ordered(statuses, showing: showing).joined(separator: " ")
    }

    /// `statuses` with those already on the status line (`showing`) last, each group in order.
    static func ordered(_ statuses: [String], showing: String?) -> [String] {
        guard let showing, !showing.isEmpty else { return statuses }
        let seen = statuses.filter { showing.contains($0) }
        return statuses.filter { !showing.contains($0) } + seen
    }
}
