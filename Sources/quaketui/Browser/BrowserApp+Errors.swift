import QuakeStore

extension BrowserApp {
    /// The status line's sentence for a failure of the model or a frame, which only read the
    /// store: what happened and what to do (the log, `L`, keeps it whole when the line is short).
    static func readFailure(_ error: any Error) -> String {
        if let error = error as? StoreError { return error.readingDescription }
        if let error = error as? SQLiteError {
            return "Could not read the store: \(error.message). Press ctrl-l to try again; if it persists, quit and run quaketui info."
        }
        return "Could not read the store: \(error). Press ctrl-l to try again; if it persists, quit and relaunch."
    }
}
