import QuakeModel
extension StoreError {
    /// The sentence for a failure while only reading (the browser's list and detail): never
    /// "nothing was changed", which speaks of a write no one attempted, and what to do.
    public var readingDescription: String {
        let sentence: String
        switch code {
        case .busy:
            sentence = "Could not read the store \(path): another process held it for too long (a large import?). Press ctrl-l to try again when it has finished."
        case .cancelled:
            sentence = "Reading the store \(path) was cancelled. Press ctrl-l to try again."
        case .unconfirmedCorrupt:
            // One EIO can read as SQLITE_CORRUPT: the errno, not "malformed" (issue 29).
            return "Could not read the store \(path)\(ioCause); it is not known to be damaged. Press ctrl-l to try again; if it persists, quit and run quaketui info."
        case .sqlite, .diskFull, .accessDenied, .ioError:
            sentence = "Could not read the store \(path). Press ctrl-l to try again; if it persists, quit and run quaketui info."
        default:
            return description
        }
        guard let underlyingError else { return sentence }
        return "\(sentence) (SQLite: \(underlyingError.message))"
    }
}
