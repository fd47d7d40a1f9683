import Foundation

/// The browser's one-time notices (a scene or defaults file set aside, a value reset, a
/// background scene save that failed), drained on every pass of the loop, not only before the
/// first frame, and shown through the one presenter: its short status-line form on screen,
/// the whole text in the `QUAKETUI_LOG` file.
///
/// ```swift
/// let notices = BrowserNotices.take(from: [session.storage.takeNotice, appStorage.takeNotice])
/// if !notices.isEmpty { _ = try model.send(.showNotices(notices)) }
/// ```
enum BrowserNotices {
    /// Every notice waiting in `sources`, each as its status-line form, in order.
    /// (The model's `Action.showNotices` puts them before what the status line still shows.)
    static func take(from sources: [() -> String?],
                     environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var statuses: [String] = []
        for source in sources {
            while let notice = source() {
                let report = ErrorPresenter.notice(notice)
                ErrorPresenter.log(report, context: "browser", environment: environment)
                statuses.append(report.status)
            }
        }
        return statuses
    }
}
