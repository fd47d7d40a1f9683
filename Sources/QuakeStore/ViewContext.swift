import QuakeModel
import Foundation

/// The UI's reader: one connection, serialized by a lock, handed out through `read`.
///
/// Every `read` runs in one read transaction, so all its statements see the same snapshot even
/// while another process commits.
public final class ViewContext: @unchecked Sendable {
    // @unchecked: `connection` is only touched while `lock` is held.
    private let lock = NSLock()
    private let connection: Connection

    /// - Parameter queryOnly: refuse writes (`PRAGMA query_only`); a results controller turns it
    ///   off because it keeps its search matches in a temporary table.
    init(connection: Connection, queryOnly: Bool = true) throws(SQLiteError) {
        self.connection = connection
        if queryOnly { try connection.execute("PRAGMA query_only = 1") }
        try connection.execute("PRAGMA main.cache_size = -\(Self.cacheKiB)")
    }

    /// A reader's page cache of the store, in KiB (its temporary tables keep SQLite's default).
    /// A reader walks an index for a window (a few pages a level; the OS caches the rest) or
    /// passes over the digest's BLOBs, reading no page twice: SQLite's default 2,000 KiB a
    /// connection, over the browser's readers, was 10 MB of its RSS at 5,000,000 quakes (the
    /// search and statistics keys peaked at 68.7 MB, at 59.0 MB with 500 KiB).
    static let cacheKiB = 512

    /// Runs `body` with the connection inside one read transaction.
    ///
    /// The connection is valid only during `body`: the result must be `Sendable` (values, not
    /// the connection or its statements), so neither can leave the closure (GRDB's contract).
    public func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try connection.transaction(.deferred) { try body(connection) }
    }

    /// Runs `body` with the connection outside any transaction: for what SQLite does only there
    /// (attaching and detaching a results controller's table file, `SortTableFile`).
    func outsideTransaction<T>(_ body: (Connection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    /// Stops the running `read` at its next step (e.g. a superseded search keystroke).
    public func interrupt() { connection.interrupt() }

    /// Runs `body` (which reads through this context) with every statement stopped once
    /// `nanoseconds` have passed (`Connection.withDeadline`); nil: no limit.
    public func withDeadline<T>(nanoseconds: UInt64?, _ body: () throws -> T) rethrows -> T {
        // The deadline is read only by the progress handler, on the thread running `body`.
        try connection.withDeadline(nanoseconds: nanoseconds, body)
    }

    public func close() {
        lock.lock()
        defer { lock.unlock() }
        connection.close()
    }
}
