import QuakeModel
import CQuakeSQL
import CSQLite
import Foundation

/// `SQLITE_TRANSIENT`: tells SQLite to copy bound text and blobs before the call returns.
/// The C macro is a cast of -1 to a function pointer, which Swift cannot import (GRDB does the same).
let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One SQLite connection. It owns its `sqlite3*` handle and must be closed with `close()`.
///
/// A connection is not thread-safe and deliberately not `Sendable`: contexts (`ViewContext`,
/// `BackgroundContext`) own one each and serialize access to it.
///
/// ```swift
/// let db = try Connection(path: "/tmp/x.sqlite")
/// defer { db.close() }
/// try db.execute("CREATE TABLE t(x)")
/// ```
public final class Connection {
    private var handle: OpaquePointer?
    public let path: String
    /// Statements kept for reuse, keyed by their SQL text (``cachedStatement(_:)``).
    private var statementCache: [String: Statement] = [:]
    /// More distinct SQL texts than this empties the cache (texts with values spelled into them
    /// would otherwise grow it without bound).
    static let statementCacheLimit = 64
    /// The uptime (ns) past which statements stop, 0 for none: read by the progress handler
    /// (``withDeadline(_:_:)``), so it lives at a stable address.
    private let deadline = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    private var hasProgressHandler = false

    /// Whether the store's schema is `version` or newer (`PRAGMA user_version`), remembered once
    /// true: a store is never migrated back, so a reader on the per-key path asks SQLite only
    /// while the answer is no (a read-only older store, read as it is).
    func hasSchema(atLeast version: Int) throws -> Bool {
        if let known = knownUserVersion, known >= version { return true }
        let found = Int(try scalar("PRAGMA user_version").int64 ?? 0)
        knownUserVersion = found
        return found >= version
    }
    private var knownUserVersion: Int?

    /// Opens (and with `create`, creates) the database at `path`.
    ///
    /// The corresponding C function is `sqlite3_open_v2`. An open that fails still closes the
    /// handle SQLite allocated, then throws.
    /// - Throws: `SQLiteError`, e.g. `SQLITE_CANTOPEN` when the directory is not writable.
    ///
    /// `immutable` (read-only) opens the file as one no process can change (SQLite's
    /// `immutable=1`): no locks, no WAL index. For a store in a directory this process cannot
    /// write, where no other process holds it open (`PersistentContainer.openConnection`).
    public init(path: String, readOnly: Bool = false, create: Bool = true, immutable: Bool = false) throws(SQLiteError) {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if readOnly || immutable { flags |= SQLITE_OPEN_READONLY } else { flags |= SQLITE_OPEN_READWRITE }
        if create && !readOnly && !immutable { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        _ = Self.configureOnce
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
                .replacingOccurrences(of: "#", with: "%23")
            name = "file:" + escaped + "?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            let code = db.map { sqlite3_extended_errcode($0) } ?? rc
            let systemErrno = db.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(db)
            throw SQLiteError(extendedCode: code, message: message, systemErrno: systemErrno)
        }
        // quaketui_distance(lat1, lon1, lat2, lon2): GeoPoint.distance(to:) in SQL (CQuakeSQL).
        let registered = quaketui_register_functions(db)
        guard registered == SQLITE_OK else {
            let error = SQLiteError(extendedCode: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)))
            sqlite3_close_v2(db)
            throw error
        }
        quaketui_profile_if_asked(db)
        handle = db
        deadline.initialize(to: 0)
        Self.openPaths.withLock { $0[path, default: 0] += 1 }
    }

    /// The database files this process holds connections to, and how many each. A file
    /// descriptor of its own opened on such a file and closed drops every POSIX lock the process
    /// holds on it, the connections' too: a writer in another process may then check the WAL
    /// back and reset it under them, and they stop seeing its commits
    /// (https://www.sqlite.org/howtocorrupt.html, "Posix advisory locks canceled by a separate
    /// thread doing close()"). `PersistentContainer` asks before it reads a file's header.
    private static let openPaths = LockedValue<[String: Int]>([:])

    /// Whether this process holds a connection to the database at `path` (spelled as opened).
    public static func isOpen(path: String) -> Bool { openPaths.withLock { ($0[path] ?? 0) > 0 } }

    private func forget() {
        Self.openPaths.withLock { paths in
            paths[path, default: 1] -= 1
            if paths[path] == 0 { paths[path] = nil }
        }
    }

    /// Process-wide SQLite configuration, before the first open initializes the library: no
    /// memory-mapped I/O, so CREATE INDEX's sorter reads its temp files with `pread` instead of
    /// mapping them (mapped pages count as resident: an import's peak RSS grew with N); and no
    /// memory statistics, whose global mutex every allocation takes (see shim.h).
    /// `SQLITE_MISUSE` if the library was already initialized; harmless, the defaults stay.
    private static let configureOnce: Void = {
        _ = quaketui_sqlite3_disable_mmap()
        _ = quaketui_sqlite3_disable_memstatus()
        // An fsync interrupted by a signal is made again (issue 57; SQLite retries EINTR
        // everywhere else). Best effort: without it, one fails the transaction, as before.
        _ = quaketui_register_retrying_vfs()
    }()

    deinit {
        assert(handle == nil, "Connection to \(path) was not closed")
        if let handle {
            sqlite3_close_v2(handle)
            forget()
        }
        deadline.deallocate()
    }

    /// Closes the connection. The corresponding C function is `sqlite3_close_v2`.
    public func close() {
        guard let handle else { return }
        statementCache.removeAll()  // finalized before the handle they belong to
        sqlite3_close_v2(handle)
        self.handle = nil
        forget()
    }

    var rawHandle: OpaquePointer {
        guard let handle else { preconditionFailure("use of closed connection to \(path)") }
        return handle
    }

    func error(sql: String? = nil) -> SQLiteError {
        let code = sqlite3_extended_errcode(rawHandle)
        var systemErrno = sqlite3_system_errno(rawHandle)
        // A failed read can surface as "database disk image is malformed" with no errno: the
        // store's files still hold it, and the sentence names it instead (issue 29).
        if code & 0xFF == SQLITE_CORRUPT && systemErrno == 0 { systemErrno = lastFileErrno() }
        let error = SQLiteError(extendedCode: code, message: String(cString: sqlite3_errmsg(rawHandle)), sql: sql,
                                systemErrno: systemErrno)
        if holdsTransaction { failureInTransaction = error }
        return error
    }

    /// Runs one or more statements without parameters. The corresponding C function is `sqlite3_exec`.
    public func execute(_ sql: String) throws(SQLiteError) {
        try checkTransactionHeld(sql: sql)
        let rc = sqlite3_exec(rawHandle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(sql: sql) }
    }

    /// Runs one statement with bound parameters, discarding any rows.
    public func execute(_ sql: String, _ arguments: [SQLiteValue]) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Compiles one statement. The corresponding C function is `sqlite3_prepare_v3`.
    ///
    /// SQL with a second statement after the first is refused: SQLite would silently ignore it
    /// (GRDB throws the same way). Use `execute(_:)` for scripts.
    /// - Throws: `SQLiteError` with ``SQLiteError/misuse`` for a second statement, or what
    ///   SQLite reports (a syntax error, a missing table).
    public func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> Statement {
        var stmt: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let handle = rawHandle
        let (rc, rest) = sql.withCString { start -> (Int32, String) in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(handle, start, -1, flags, &stmt, &tail)
            return (rc, tail.map { String(cString: $0) } ?? "")
        }
        guard rc == SQLITE_OK, let stmt else { throw error(sql: sql) }
        let statement = Statement(handle: stmt, connection: self, sql: sql)
        guard Self.isBlank(rest) else {
            throw SQLiteError(extendedCode: SQLiteError.misuse,
                              message: "more than one statement: only the first would run (use execute(_:) for several)",
                              sql: sql)
        }
        return statement
    }

    /// The statement for `sql`, compiled on first use and kept: reset, with its bindings
    /// cleared, every time it is handed out (GRDB's `cachedStatement(sql:)`).
    ///
    /// For SQL that runs again and again (a window of rows per section, a row by code). Use it
    /// only until the next call with the same text: a nested use would reset the outer one.
    /// Transactions (``transaction(_:_:)``) reset every cached statement when they end, so one
    /// left mid-way holds no read snapshot past its transaction.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
        let statement = try prepare(sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// How many statements the cache holds (for tests).
    var cachedStatementCount: Int { statementCache.count }

    /// Lowers the longest string or blob this connection accepts (for tests of `SQLITE_TOOBIG`).
    /// The corresponding C function is `sqlite3_limit` with `SQLITE_LIMIT_LENGTH`.
    func setLengthLimit(_ bytes: Int32) { sqlite3_limit(rawHandle, SQLITE_LIMIT_LENGTH, bytes) }

    /// Resets every cached statement, so none keeps a read transaction open.
    func resetCachedStatements() {
        for statement in statementCache.values { statement.reset() }
    }

    /// Whether SQL text is only white space, `;` and comments (what may follow one statement).
    static func isBlank(_ sql: String) -> Bool {
        var scalars = Substring(sql)
        while let first = scalars.first {
            if first.isWhitespace || first == ";" {
                scalars = scalars.dropFirst()
            } else if scalars.hasPrefix("--") {
                scalars = scalars.drop { $0 != "\n" }
            } else if scalars.hasPrefix("/*") {
                guard let end = scalars.range(of: "*/") else { return true }  // an unterminated comment ends the text
                scalars = scalars[end.upperBound...]
            } else {
                return false
            }
        }
        return true
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    public func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.value(at: 0) : .null
    }

    /// `scalar(_:_:)` through the statement cache, for a query run many times with different
    /// arguments (a merge ranks each changed row with one count).
    public func cachedScalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? statement.value(at: 0) : .null
    }

    /// Rows changed by the most recent statement. The corresponding C function is `sqlite3_changes64`.
    public var changes: Int { Int(sqlite3_changes64(rawHandle)) }

    /// The rowid of the most recent successful INSERT. The corresponding C function is
    /// `sqlite3_last_insert_rowid`. An upsert that takes its DO UPDATE branch leaves it unchanged.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(rawHandle) }

    /// Whether a transaction is open. The corresponding C function is `sqlite3_get_autocommit`.
    public var isInTransaction: Bool { sqlite3_get_autocommit(rawHandle) == 0 }

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    /// The corresponding C function is `sqlite3_busy_timeout`.
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(rawHandle, milliseconds)
    }

    /// The object behind the busy handler, kept alive as long as the connection (``setBusyHandler(_:_:)``).
    private var busyHandlerOwner: AnyObject?

    /// Replaces the busy timeout with `handler`, called with `owner` and the number of tries so
    /// far each time a lock is busy: nonzero tries again. The connection keeps `owner` alive.
    /// The corresponding C function is `sqlite3_busy_handler`.
    func setBusyHandler(_ owner: AnyObject,
                        _ handler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32) {
        busyHandlerOwner = owner
        sqlite3_busy_handler(rawHandle, handler, Unmanaged.passUnretained(owner).toOpaque())
    }

    /// Whether the store is open read-only (a file the user made read-only, `sqlite3_db_readonly`).
    var isReadOnly: Bool { sqlite3_db_readonly(rawHandle, "main") == 1 }

    /// Stops any running statement of this connection at its next step; safe from another thread.
    /// The corresponding C function is `sqlite3_interrupt`.
    public func interrupt() { sqlite3_interrupt(rawHandle) }

    /// Runs `body`, stopping any statement still running `nanoseconds` after the start: it then
    /// fails with `SQLiteError.isInterrupted` (a transaction around it rolls back, unhindered).
    /// nil runs `body` without a limit. Nested calls keep the earlier of the two deadlines.
    ///
    /// The corresponding C function is `sqlite3_progress_handler`, called every 1,000 virtual
    /// machine steps (a few microseconds).
    public func withDeadline<T>(nanoseconds: UInt64?, _ body: () throws -> T) rethrows -> T {
        guard let nanoseconds else { return try body() }
        if !hasProgressHandler {
            sqlite3_progress_handler(rawHandle, 1_000, { context in
                guard let limit = context?.assumingMemoryBound(to: UInt64.self).pointee, limit != 0 else { return 0 }
                return DispatchTime.now().uptimeNanoseconds > limit ? 1 : 0
            }, UnsafeMutableRawPointer(deadline))
            hasProgressHandler = true
        }
        let saved = deadline.pointee
        let limit = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
        deadline.pointee = saved == 0 ? limit : min(saved, limit)
        defer { deadline.pointee = saved }
        return try body()
    }

    /// What the running `withCancellation` asks (nil outside one), for `stopIfDue()`.
    private var cancellation: (() -> Bool)?

    /// Throws `SQLiteError.isInterrupted` when the running `withDeadline` has passed or the
    /// running `withCancellation` says stop, as the progress handler stops a statement: for work
    /// done between a statement's steps that SQLite does not count (a digest scanned in C, a
    /// chunk of 4,096 rows per step), so that a deadline stops it too.
    public func stopIfDue() throws(SQLiteError) {
        let limit = deadline.pointee
        if (limit != 0 && DispatchTime.now().uptimeNanoseconds > limit) || cancellation?() == true {
            throw SQLiteError(extendedCode: SQLiteError.interrupted, message: "interrupted")
        }
    }

    /// Runs `body`, stopping any statement it runs once `isCancelled` returns true: the statement
    /// then fails with `SQLiteError.isInterrupted`. Unlike `interrupt`, a cancellation cannot be
    /// lost in the moment between two statements (an `sqlite3_interrupt` made while none runs is
    /// forgotten when the next one starts). `isCancelled` is called on this thread.
    ///
    /// The corresponding C function is `sqlite3_progress_handler`, called every 1,000 virtual
    /// machine steps; it replaces `withDeadline`'s handler for the duration of `body`.
    public func withCancellation<T>(_ isCancelled: @escaping () -> Bool, _ body: () throws -> T) rethrows -> T {
        let saved = cancellation
        cancellation = isCancelled
        defer { cancellation = saved }
        let check = Unmanaged.passRetained(CancellationCheck(isCancelled))
        sqlite3_progress_handler(rawHandle, 1_000, { context in
            guard let context else { return 0 }
            return Unmanaged<CancellationCheck>.fromOpaque(context).takeUnretainedValue().isCancelled() ? 1 : 0
        }, check.toOpaque())
        defer {
            sqlite3_progress_handler(rawHandle, 0, nil, nil)
            hasProgressHandler = false  // the next withDeadline installs its own again
            check.release()
        }
        return try body()
    }

    /// Runs `body` in a transaction: commits if it returns, rolls back if it throws.
    ///
    /// `.immediate` takes the write lock up front, so a writer never fails half-way with
    /// `SQLITE_BUSY` on the upgrade from a read lock (https://www.sqlite.org/lang_transaction.html).
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue)")
        holdsTransaction = true
        failureInTransaction = nil
        defer { holdsTransaction = false }
        do {
            if kind != .deferred { try refreshSchemaIfChanged() }
            let result = try body()
            resetCachedStatements()
            try execute("COMMIT")
            return result
        } catch {
            resetCachedStatements()
            holdsTransaction = false
            // A deadline that stopped `body` must not stop its rollback too.
            let saved = deadline.pointee
            deadline.pointee = 0
            rollBack()
            deadline.pointee = saved
            throw error
        }
    }

    /// Whether `transaction` is running its body: every statement must then run inside it.
    private var holdsTransaction = false
    /// The last error a statement of the running transaction's body met (`error(sql:)`).
    private var failureInTransaction: SQLiteError?

    /// Refuses to run a statement of a transaction's body once SQLite has ended the transaction
    /// by itself. After some errors (`SQLITE_IOERR_READ`, `SQLITE_FULL`, `SQLITE_NOMEM`) SQLite
    /// rolls the whole transaction back (https://www.sqlite.org/lang_transaction.html, "Response
    /// To Errors Within A Transaction"); if the body went on — an error read with `try?` — each
    /// later statement would run in autocommit and commit alone: half a write, then "cannot
    /// commit - no transaction is active". Checked before every step, so the first such statement
    /// throws and nothing runs outside the transaction. What it throws is the error that ended
    /// the transaction (a full disk, a failed read: the user is told that, and what to do), or,
    /// when none was seen, `SQLITE_ABORT_ROLLBACK`.
    ///
    /// The corresponding C function is `sqlite3_get_autocommit`.
    func checkTransactionHeld(sql: String) throws(SQLiteError) {
        guard holdsTransaction, sqlite3_get_autocommit(rawHandle) != 0 else { return }
        throw failureInTransaction
            ?? SQLiteError(extendedCode: SQLiteError.rolledBack,
                           message: "SQLite rolled the transaction back after an earlier error, so the write stopped there",
                           sql: sql)
    }

    /// Ends a failed transaction, whatever stopped it. An interrupt (a newer job's, from another
    /// thread: `interrupt()`) stays pending while any statement of the connection is still
    /// stepping, and one can also land on the ROLLBACK itself: either fails the ROLLBACK and would
    /// leave the connection inside the transaction, where every later BEGIN fails ("cannot start a
    /// transaction within a transaction": a background reader that never reads again). So every
    /// busy statement is reset first (its rows are the transaction's, over now), and the ROLLBACK
    /// is made again while the connection is still inside.
    ///
    /// The corresponding C functions are `sqlite3_next_stmt`, `sqlite3_stmt_busy` and `sqlite3_reset`.
    private func rollBack() {
        for _ in 0 ..< 3 where isInTransaction {
            var statement = sqlite3_next_stmt(rawHandle, nil)
            while let busy = statement {
                if sqlite3_stmt_busy(busy) != 0 { sqlite3_reset(busy) }
                statement = sqlite3_next_stmt(rawHandle, busy)
            }
            try? execute("ROLLBACK")
        }
    }

    /// The schema cookie this connection's statements were compiled against (`PRAGMA schema_version`).
    private var knownSchemaVersion: Int64?

    /// Makes the statements of a write transaction compile against the schema as it is now.
    ///
    /// Another connection may have changed the schema since this one last read it (a bulk
    /// import swaps the search index's triggers and drops and recreates indexes: DDL). SQLite
    /// notices at a statement's first step and recompiles it, but on 3.40 a statement recompiled
    /// that way after the change — a cached upsert, a `DELETE … RETURNING` — failed with
    /// `SQLITE_SCHEMA` ("no such table: quake", issue 29). So, with the write lock held (the
    /// schema cannot change again until the commit), read the cookie; if it moved, drop the
    /// cached statements and let a trivial statement reload the schema before the body runs (also
    /// at a connection's first write, which may have read the schema long before, at its open).
    private func refreshSchemaIfChanged() throws(SQLiteError) {
        let version = try scalar("PRAGMA schema_version").int64
        guard version != knownSchemaVersion else { return }
        statementCache.removeAll()
        _ = try scalar("SELECT count(*) FROM sqlite_schema")
        knownSchemaVersion = version
    }

    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED", immediate = "IMMEDIATE", exclusive = "EXCLUSIVE"
    }
}

@available(*, unavailable)
extension Connection: Sendable {}

/// The closure `Connection.withCancellation`'s progress handler asks, passed to C as its context.
private final class CancellationCheck {
    let isCancelled: () -> Bool
    init(_ isCancelled: @escaping () -> Bool) { self.isCancelled = isCancelled }
}

extension Connection {
    /// The errno of the last failed system call on the store's files, the WAL first, then the
    /// main file (`SQLITE_FCNTL_LAST_ERRNO`; 0 if none). A failed read can surface as
    /// `SQLITE_CORRUPT`, "database disk image is malformed", with `sqlite3_system_errno` 0: the
    /// file still knows it was an EIO (issue 29).
    func lastFileErrno() -> Int32 {
        var error: Int32 = 0
        var journal: UnsafeMutablePointer<sqlite3_file>?
        if sqlite3_file_control(rawHandle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &journal) == SQLITE_OK,
           let journal, let control = journal.pointee.pMethods?.pointee.xFileControl,
           control(journal, SQLITE_FCNTL_LAST_ERRNO, &error) == SQLITE_OK, error != 0 {
            return error
        }
        error = 0
        guard sqlite3_file_control(rawHandle, "main", SQLITE_FCNTL_LAST_ERRNO, &error) == SQLITE_OK else { return 0 }
        return error
    }
}
