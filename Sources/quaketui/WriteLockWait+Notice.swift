import QuakeStore

extension WriteLockWait {
    /// Whether a command says this moment of a wait: after the first second, then every ten
    /// (the handler is called about once a second).
    var isWorthSaying: Bool {
        let whole = Int(seconds)
        return whole == 1 || (whole > 0 && whole % 10 == 0)
    }

    /// `Waiting for quaketui import (pid 4242) to finish writing the store (10 s)…`
    var notice: String {
        "W" + sentence.dropFirst() + "…"
    }

    /// Says a command's wait for another writer on stderr (`PersistentContainer.onLockWait`):
    /// a writer behind a long job waits instead of failing, and says so.
    @Sendable static func say(_ wait: WriteLockWait) {
        if wait.isWorthSaying { printError(wait.notice) }
    }
}
