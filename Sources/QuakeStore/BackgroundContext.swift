import QuakeModel
import Foundation

/// A writer: its own connection. Each `performAndWait` is one write
/// transaction, recorded in the persistent history under the context's `author`.
///
/// ```swift
/// let importer = try container.newBackgroundContext(author: "import")
/// defer { importer.close() }
/// let summary = try importer.performAndWait { tx in try tx.upsert(records) }
/// ```
public final class BackgroundContext: @unchecked Sendable {
    // @unchecked: `connection` is only touched while `lock` is held.
    private let lock = NSLock()
    private let connection: Connection
    public let author: String
    let storePath: String
    /// The order an event's reports are preferred in (the `agencyPreference` setting), for
    /// association in this context's transactions.
    public var agencyPreference: AgencyPreference {
        get { lock.withLock { preference } }
        set { lock.withLock { preference = newValue } }
    }
    private var preference: AgencyPreference = .standard
    /// The store's path, for errors raised about this context's work.
    public var storePathForErrors: String { storePath }

    /// The container's purge, which also holds its clock.
    private let purge: HistoryPurge

    /// Who else writes or waits to (the store's queue file); nil when it could not be opened.
    private let queue: WriterQueue?
    private let lockWait: LockWait

    /// - Parameter lockPatience: how long to wait for a lock no quaketui writer says it holds
    ///   (tests shorten it).
    init(connection: Connection, author: String, storePath: String, purge: HistoryPurge,
         lockPatience milliseconds: Int32 = PersistentContainer.busyTimeout) {
        self.connection = connection
        self.author = author
        self.storePath = storePath
        self.purge = purge
        queue = WriterQueue(storePath: storePath)
        lockWait = LockWait(queue: queue, patienceMilliseconds: milliseconds)
        lockWait.install(on: connection)
    }

    /// Called on the writing thread about once a second while a transaction waits for another
    /// writer's lock, once it has waited a second: a command says so on stderr, the browser on
    /// its status line. Set it before the transaction.
    public var onLockWait: ((WriteLockWait) -> Void)? {
        get { lock.withLock { lockWait.onWait } }
        set { lock.withLock { lockWait.onWait = newValue } }
    }

    /// Whether another writer is waiting for the write lock (for a long job that commits early
    /// when one is: a fetch between two windows). Safe from the writing thread inside a transaction.
    public var isWriterWaiting: Bool { queue?.someoneIsWaiting ?? false }

    /// Runs `body` in one immediate write transaction on the calling thread and commits it with
    /// its history entry; rolls everything back if `body` throws.
    ///
    /// - Parameter importing: keep statement journals in memory, for a transaction of many
    ///   small upserts (an import). Every upsert statement journals the few pages it changes
    ///   (NOT NULL and UNIQUE may abort it), and once one statement of a transaction spilled past
    ///   64 KiB SQLite keeps that journal a temp file until the commit: ten `pwrite` calls per
    ///   imported row. Not for large single statements (a `DELETE` of every row would journal
    ///   the whole store in memory), which is why it is not the default.
    /// - Throws: what `body` throws, or `StoreError` for SQLite failures.
    public func performAndWait<T>(importing: Bool = false, _ body: (WriteTransaction) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            // temp_store is read when the write transaction begins, so set it before BEGIN.
            if importing { try connection.execute("PRAGMA temp_store = MEMORY") }
            defer { if importing { try? connection.execute("PRAGMA temp_store = DEFAULT") } }
            // Whoever already waits for the lock goes first: without this, a job that commits
            // and begins again at once keeps it from them (SQLite's busy handlers only poll).
            queue?.yieldToWaiters()
            var marked = false
            defer {
                lockWait.finished()
                if marked { queue?.clearHolder() }
            }
            let result = try connection.transaction(.immediate) {
                lockWait.finished()
                queue?.markHolder(author)
                marked = true
                let transaction = try WriteTransaction(connection: connection)
                transaction.agencyPreference = preference
                let result = try body(transaction)
                // Association is part of the transaction: its reports' events before the commit.
                try transaction.associate()
                try transaction.finishDeferredRowIndexing()
                try SearchDigest.flush(connection)
                try transaction.keepRowIDFloor()
                try transaction.recordHistory(author: author, at: purge.clock.now())
                return result
            }
            purge.runIfDue(connection)
            return result
        } catch let error as SQLiteError {
            throw StoreError(error, path: storePath)
        }
    }

    /// Runs a long job as a series of write transactions, each an ordinary ``performAndWait(importing:_:)``:
    /// `batch` does at most about `rows` rows' worth of work and returns how many it did, and
    /// whether there is more. ``BatchPace`` sizes each batch to hold the lock about 0.2 s, and
    /// between two, writers waiting for the lock take it (a notes save waits for one batch, not
    /// the job). Each batch commits on its own: a failure or a kill keeps the batches before it
    /// whole, and the job's caller says so.
    /// - Returns: the rows done in all.
    public func performInBatches(_ batch: (WriteTransaction, _ rows: Int) throws -> (done: Int, more: Bool)) throws -> Int {
        var pace = BatchPace()
        var total = 0
        while true {
            let began = DispatchTime.now().uptimeNanoseconds
            let (done, more) = try performAndWait { try batch($0, Self.fixedBatchRows ?? pace.rows) }
            total += done
            guard more else { return total }
            pace.record(rows: done, seconds: Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
        }
    }

    /// `QUAKETUI_BATCH_ROWS`: every batch this many rows, for the fault sweeps and the kill soak
    /// (so that faults and kills fall between batches of a small store); nil: ``BatchPace``.
    static let fixedBatchRows: Int? =
        ProcessInfo.processInfo.environment["QUAKETUI_BATCH_ROWS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }

    /// Cancels the running transaction at its next SQLite step; it rolls back and throws
    /// `StoreError` with `.cancelled`.
    public func cancel() { connection.interrupt() }

    public func close() {
        lock.lock()
        defer { lock.unlock() }
        connection.close()
    }
}
