import CSQLite
import Foundation

/// How a writer waits for another's write lock: SQLite's busy handler for a
/// ``BackgroundContext``'s connection (`sqlite3_busy_handler`).
///
/// - It polls every millisecond at first, then every 5 ms, where SQLite's `busy_timeout`
///   sleeps up to 100 ms between tries: a long job that lets waiters go between its batches
///   (``WriterQueue/yieldToWaiters(limit:)``) then hands the lock over in milliseconds.
/// - While it waits it says so in the queue file (``WriterQueue/announceWaiting()``).
/// - It gives up after ``PersistentContainer/busyTimeout`` unless the holder is a quaketui
///   writer whose process lives (a long `import` of a whole file, all or nothing): then it
///   keeps waiting, and once a second tells `onWait` how long and for whom, so that a command
///   can say so on stderr and the browser on its status line. What a person asked for (a
///   notes save) is never refused for a lock a quaketui job holds.
final class LockWait: @unchecked Sendable {
    // @unchecked: used on the thread of the connection's owner only (under its lock).
    let queue: WriterQueue?
    /// Called on the waiting thread about once a second once the wait has passed a second.
    var onWait: ((WriteLockWait) -> Void)?
    /// The holder seen last while waiting, for the error if the wait gives up.
    private(set) var lastHolder: WriteLockHolder?
    private var began: UInt64 = 0
    private var lastReport: UInt64 = 0
    private var waiting = false
    private let patience: UInt64

    init(queue: WriterQueue?, patienceMilliseconds: Int32 = PersistentContainer.busyTimeout) {
        self.queue = queue
        patience = UInt64(patienceMilliseconds) * 1_000_000
    }

    /// Installs this as `connection`'s busy handler; the connection keeps it alive.
    func install(on connection: Connection) {
        connection.setBusyHandler(self) { context, count in
            guard let context else { return 0 }
            return Unmanaged<LockWait>.fromOpaque(context).takeUnretainedValue().shouldRetry(after: count) ? 1 : 0
        }
    }

    /// The busy handler: whether to try the lock again (after a short sleep).
    private func shouldRetry(after count: Int32) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if count == 0 || !waiting {
            began = now
            lastReport = now
            lastHolder = nil
            waiting = true
            queue?.announceWaiting()
        }
        let waited = now - began
        if now - lastReport >= 1_000_000_000 {
            lastReport = now
            lastHolder = queue?.holder
            onWait?(WriteLockWait(seconds: Double(waited) / 1e9, holder: lastHolder))
        }
        if waited >= patience {
            // Checked at most once a second (above); a holder seen then still counts.
            if lastHolder == nil { lastHolder = queue?.holder }
            guard lastHolder != nil else {
                finished()
                return false
            }
        }
        usleep(waited < 50_000_000 ? 1_000 : 5_000)
        return true
    }

    /// The wait is over (the lock was taken, or the statement failed): stop announcing it.
    func finished() {
        guard waiting else { return }
        waiting = false
        queue?.stopWaiting()
    }
}

/// A writer's wait for the lock, as reported once a second (``BackgroundContext/onLockWait``).
public struct WriteLockWait: Sendable, Equatable {
    /// How long it has waited so far.
    public let seconds: Double
    /// The quaketui writer holding the lock, if one says so.
    public let holder: WriteLockHolder?

    public init(seconds: Double, holder: WriteLockHolder?) {
        self.seconds = seconds
        self.holder = holder
    }

    /// "waiting for quaketui import (pid 4242) to finish writing the store (12 s)".
    public var sentence: String {
        "waiting for \(holder?.description ?? "another process") to finish writing the store (\(Int(seconds)) s)"
    }
}
