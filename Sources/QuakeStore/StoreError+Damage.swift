import QuakeModel
import Foundation

extension StoreError {
    /// SQLite's word that the store is damaged, checked before anyone is told to move it aside.
    ///
    /// A transient read error can surface as `SQLITE_CORRUPT` (a page read short reads as
    /// garbage), and following "the store is damaged, move it aside" throws away every note
    /// (issue 29). So `.unconfirmedCorrupt` becomes `.corrupt` only when `PRAGMA quick_check`, on
    /// a fresh read-only connection, finds damage; if the check passes or cannot run, the error
    /// stays a read failure to run again.
    public func confirmingDamage() -> StoreError {
        guard code == .unconfirmedCorrupt else { return self }
        guard case .damaged = Self.quickCheck(path) else { return self }
        var confirmed = StoreError(.corrupt, path: path, underlyingError: underlyingError)
        confirmed.kept = kept
        return confirmed
    }

    /// What `PRAGMA quick_check` says of the store at `path`.
    public enum Integrity: Sendable, Equatable {
        case sound
        case damaged(String)
        /// The check itself could not run (the error's text).
        case unknown(String)
    }

    /// Runs `PRAGMA quick_check` on a read-only connection to `path`.
    public static func quickCheck(_ path: String) -> Integrity {
        do {
            let connection = try Connection(path: path, readOnly: true, create: false)
            defer { connection.close() }
            connection.setBusyTimeout(milliseconds: PersistentContainer.busyTimeout)
            let result = try connection.scalar("PRAGMA quick_check").string ?? ""
            return result == "ok" ? .sound : .damaged(result)
        } catch {
            return .unknown("\(error)")
        }
    }
}
