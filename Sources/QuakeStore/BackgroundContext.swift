import Foundation

/// A writer: its own connection and queue. Each `performAndWait`/`perform` is one write
/// transaction, recorded in the persistent history under the context's `author`.
///
/// ```swift
/// let importer = try container.newBackgroundContext(author: "import")
/// defer { importer.close() }
/// let summary = try importer.performAndWait { tx in try tx.upsert(records) }
/// ```
public final class BackgroundContext: @unchecked Sendable {
    // @unchecked: `connection` is only touched while `lock` is held, on `queue` or a caller's thread.
    private let lock = NSLock()
    private let connection: Connection
    private let queue: DispatchQueue
    public let author: String
    let storePath: String
    /// The store's path, for errors raised about this context's work.
    public var storePathForErrors: String { storePath }

    init(connection: Connection, author: String, storePath: String) {
        self.connection = connection
        self.author = author
        self.storePath = storePath
        queue = DispatchQueue(label: "quaketui.store.\(author)")
    }

    /// Runs `body` in one immediate write transaction on the calling thread and commits it with
    /// its history entry; rolls everything back if `body` throws.
    ///
    /// - Throws: what `body` throws, or `StoreError` for SQLite failures.
    public func performAndWait<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            let result = try connection.transaction(.immediate) {
                let transaction = WriteTransaction(connection: connection)
                let result = try body(transaction)
                try transaction.recordHistory(author: author)
                return result
            }
            HistoryPurge.runIfDue(connection)
            return result
        } catch let error as SQLiteError {
            throw StoreError(error, path: storePath)
        }
    }

    /// Runs `body` as `performAndWait` does, on this context's own queue.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.performAndWait(body) })
            }
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
