import CQuakeSQL
import CSQLite

/// An in-memory SQLite database through the C API alone, for testing CQuakeSQL's SQL functions
/// without QuakeStore's `Connection` (which registers them itself).
final class MemoryDatabase {
    let handle: OpaquePointer

    init() throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            sqlite3_close_v2(db)
            throw Failure(code: SQLITE_CANTOPEN, message: "cannot open an in-memory database")
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    struct Failure: Error, Equatable {
        let code: Int32
        let message: String
    }

    /// One SQL value as Swift sees it.
    enum Value: Equatable {
        case null, integer(Int64), real(Double), text(String)
    }

    /// Runs every statement of `sql` (the corresponding C function is `sqlite3_exec`).
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        defer { sqlite3_free(error) }
        guard rc == SQLITE_OK else { throw Failure(code: rc, message: error.map { String(cString: $0) } ?? "") }
    }

    /// The rows of one statement, each column as a `Value`.
    func rows(_ sql: String) throws -> [[Value]] {
        var statement: OpaquePointer?
        var rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw Failure(code: rc, message: String(cString: sqlite3_errmsg(handle))) }
        defer { sqlite3_finalize(statement) }
        var rows: [[Value]] = []
        while true {
            rc = sqlite3_step(statement)
            guard rc == SQLITE_ROW else { break }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
                default: .null
                }
            })
        }
        guard rc == SQLITE_DONE else { throw Failure(code: rc, message: String(cString: sqlite3_errmsg(handle))) }
        return rows
    }

    /// The single value of a one-row, one-column query.
    func scalar(_ sql: String) throws -> Value {
        let result = try rows(sql)
        guard result.count == 1, result[0].count == 1 else { throw Failure(code: SQLITE_MISMATCH, message: "not one value: \(result)") }
        return result[0][0]
    }
}
