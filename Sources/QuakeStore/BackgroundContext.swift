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
    /// The store's path, for errors raised about this context's work.
    public var storePathForErrors: String { storePath }

    /// The container's purge, which also holds its clock.
    private let purge: HistoryPurge

    init(connection: Connection, author: String, storePath: String, purge: HistoryPurge) {
        self.connection = connection
        self.author = author
        self.storePath = storePath
        self.purge = purge
    }

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
            let result = try connection.transaction(.immediate) {
                let transaction = WriteTransaction(connection: connection)
                let result = try body(transaction)
                try SearchDigest.flush(connection)
                try transaction.recordHistory(author: author, at: purge.clock.now())
                return result
            }
            purge.runIfDue(connection)
            return result
        } catch let error as SQLiteError {
            throw StoreError(error, path: storePath)
        }
    }

    /// Cancels the running transaction at its next SQLite step; it rolls back and throws
    /// `StoreError` with `.cancelled`.
    public func cancel() { connection.interrupt() }

    public func close() {
        lock.lock()
        defer { lock.unlock() }
        connection.close()
    }
}
