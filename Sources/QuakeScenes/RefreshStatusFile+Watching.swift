import Foundation

extension RefreshStatusFile {
    /// How often `refresh.plist` is looked at where the kernel's file events are unavailable:
    /// the status line of every pane follows the refreshing process within this (at once
    /// where they are).
    public static let pollInterval: DispatchTimeInterval = .milliseconds(250)

    /// Calls `handler` (on a background queue) with the new status whenever `refresh.plist`
    /// changes, whichever process wrote it. Keep the token to keep watching.
    ///
    /// ```swift
    /// let token = RefreshStatusFile(state: state).onChange { status in inbox.post(.refreshStatusChanged(status)) }
    /// ```
    public func onChange(_ handler: @escaping @Sendable (RefreshStatus) -> Void) -> ObservationToken {
        let file = self
        let watcher = FileWatcher(path: state.refreshStatusPath, watching: .kernelEvents(fallback: Self.pollInterval)) { handler(file.load()) }
        watcher.start()
        return ObservationToken { watcher.stop() }
    }
}
