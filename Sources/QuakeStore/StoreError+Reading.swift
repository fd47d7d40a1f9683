import QuakeModel
import Foundation
extension StoreError {
    /// The sentence for a failure while only reading (the browser's list and detail): never
    /// "nothing was changed", which speaks of a write no one attempted, and what to do.
    public var readingDescription: String {
        let sentence: String
        switch code {
        case .busy:
            sentence = "Could not read the store \(path): another process held it locked for more than \(PersistentContainer.busyTimeout / 1000) s. Press ctrl-l to try again."
        case .cancelled:
            sentence = "Reading the store \(path) was cancelled. Press ctrl-l to try again."
        case .unconfirmedCorrupt:
            // One EIO can read as SQLITE_CORRUPT: the errno, not "malformed" (issue 29).
            return "Could not read the store \(path)\(ioCause); it is not known to be damaged. Press ctrl-l to try again; if it persists, quit and run quaketui info."
        case .diskFull:
            return Self.noRoomWhileReading(store: path)
        case .sqlite, .accessDenied, .ioError:
            sentence = "Could not read the store \(path). Press ctrl-l to try again; if it persists, quit and run quaketui info."
        default:
            return description
        }
        guard let underlyingError else { return sentence }
        return "\(sentence) (SQLite: \(underlyingError.message))"
    }

    /// A read finding no room: it writes in the temporary directory (a distance or intensity
    /// sort's table, `SortTableFile`; SQLite's large sorts), and rarely beside the store (its
    /// shared-memory index), so it names both.
    public static func noRoomWhileReading(store path: String?) -> String {
        let store = path.map { "beside the store \($0)" } ?? "beside the store"
        return "Could not read the store: no room left in the temporary directory \(FileManager.default.temporaryDirectory.path) "
            + "(a distance or intensity sort keeps its table there, and SQLite its large sorts) or \(store). Free some space, "
            + "or relaunch with TMPDIR set to a directory with room. Press ctrl-l to try again."
    }
}
