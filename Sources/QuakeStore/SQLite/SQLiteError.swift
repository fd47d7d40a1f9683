import QuakeModel
import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// An error reported by SQLite: the primary and extended result codes, SQLite's message,
/// and the SQL that failed, if any.
///
/// Runtime conditions (busy, full, corrupt, read-only, not a database) are thrown as this
/// error; misuse of the API (binding a parameter that doesn't exist) is a bug and traps.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The extended result code, e.g. `SQLITE_BUSY_SNAPSHOT` (517).
    public let extendedCode: Int32
    /// SQLite's own message (`sqlite3_errmsg`).
    public let message: String
    /// The statement that failed, if the failure belongs to one.
    public let sql: String?
    /// The `errno` of the system call behind an I/O failure (`sqlite3_system_errno`), 0 if none.
    public let systemErrno: Int32

    /// The primary result code, e.g. `SQLITE_BUSY` (5).
    public var code: Int32 { extendedCode & 0xFF }

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.init(extendedCode: extendedCode, message: message, sql: sql, systemErrno: 0)
    }

    public init(extendedCode: Int32, message: String, sql: String? = nil, systemErrno: Int32) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }

    /// The result codes the store tells apart, named (the C constants do not leave this layer).
    public static let notADatabase = SQLITE_NOTADB
    public static let corrupt = SQLITE_CORRUPT
    public static let readOnly = SQLITE_READONLY
    public static let tooBig = SQLITE_TOOBIG
    public static let full = SQLITE_FULL
    public static let ioError = SQLITE_IOERR
    public static let noMemory = SQLITE_NOMEM
    public static let busy = SQLITE_BUSY
    /// The API was used wrongly (e.g. SQL with a second statement): a bug in the caller.
    public static let misuse = SQLITE_MISUSE
    /// A statement stopped by `Connection.interrupt()` or a deadline (`withDeadline`).
    public static let interrupted = SQLITE_INTERRUPT

    /// SQLite ended the transaction by itself after an earlier error (`SQLITE_ABORT_ROLLBACK`):
    /// see `Connection.checkTransactionHeld`.
    public static let rolledBack = SQLITE_ABORT | (2 << 8)

    /// The corresponding C code is `SQLITE_BUSY`: another connection holds a lock too long.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// The corresponding C codes are `SQLITE_NOTADB` and `SQLITE_CORRUPT`.
    public var isNotADatabase: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
    /// The corresponding C codes are `SQLITE_READONLY`, `SQLITE_CANTOPEN` and `SQLITE_PERM`.
    public var isAccessDenied: Bool { code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM }
    /// The corresponding C code is `SQLITE_FULL`: the disk is full.
    public var isDiskFull: Bool { code == SQLITE_FULL }
    /// A failed read or write of the file (`SQLITE_IOERR`), or an open that failed for a reason
    /// other than permissions (`SQLITE_CANTOPEN` with `EIO`…): often transient, never damage.
    public var isIOError: Bool {
        code == SQLITE_IOERR
            || (code == SQLITE_CANTOPEN && ![0, EACCES, EPERM, EROFS, ENOENT, ENOTDIR, EISDIR].contains(systemErrno))
    }
    /// The corresponding C code is `SQLITE_INTERRUPT`: `Connection.interrupt()` stopped it.
    public var isInterrupted: Bool { code == SQLITE_INTERRUPT }
}
