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
    static func take(from sources: [() -> String?],
                     environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var statuses: [String] = []
        for source in sources {
            while let notice = source() {
                let report = ErrorPresenter.notice(notice)
                ErrorPresenter.log(report, context: "browser", environment: environment)
                statuses.append(report.status)
            }
        }
        return statuses.isEmpty ? nil : statuses.joined(separator: " ")
    }
}
