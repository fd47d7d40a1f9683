import QuakeModel
import CSQLite

/// A value SQLite stores: the five storage classes.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var int64: Int64? {
        switch self {
        case .integer(let v): v
        case .real(let v): Int64(exactly: v.rounded(.towardZero))
        default: nil
        }
    }
    public var double: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .real(let v): v
        default: nil
        }
    }
    public var string: String? {
        if case .text(let v) = self { return v }
        return nil
    }
}

extension Optional where Wrapped == Double {
    public var sqlite: SQLiteValue { map(SQLiteValue.real) ?? .null }
}
extension Optional where Wrapped == String {
    public var sqlite: SQLiteValue { map(SQLiteValue.text) ?? .null }
}
extension Optional where Wrapped == Int {
    public var sqlite: SQLiteValue { map { .integer(Int64($0)) } ?? .null }
}

/// A prepared statement. It finalizes its handle in `deinit`; it must not outlive its connection.
///
/// Rows read with `int64(at:)`, `text(at:)` and friends are valid only until the next `step()`.
public final class Statement {
    private let handle: OpaquePointer
    private unowned let connection: Connection
    public let sql: String

    init(handle: OpaquePointer, connection: Connection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Advances to the next row: true when a row is available, false when done.
    /// The corresponding C function is `sqlite3_step`.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        try connection.checkTransactionHeld(sql: sql)
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(sql: sql)
        }
    }

    /// Resets the statement and clears its bindings so it can run again.
    /// The corresponding C functions are `sqlite3_reset` and `sqlite3_clear_bindings`.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds all parameters, 1-based in order. Binding the wrong count is a bug and traps.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        precondition(values.count == Int(sqlite3_bind_parameter_count(handle)),
                     "\(values.count) arguments for \(sqlite3_bind_parameter_count(handle)) parameters in: \(sql)")
        for (i, value) in values.enumerated() { try bind(value, at: Int32(i + 1)) }
    }

    /// Binds one 1-based parameter. The corresponding C functions are `sqlite3_bind_*`.
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v):
            return try bind(v as String?, at: index)
        case .blob(let v):
            guard let length = Int32(exactly: v.count) else { throw tooBig("a blob", bytes: v.count) }
            rc = v.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, length, SQLITE_TRANSIENT) }
        }
        try check(rc, index)
    }

    /// Whether the statement has stepped and not yet finished or been reset (it then holds a
    /// read lock). The corresponding C function is `sqlite3_stmt_busy`.
    public var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    private func tooBig(_ what: String, bytes: Int) -> SQLiteError {
        SQLiteError(extendedCode: SQLiteError.tooBig,
                    message: "\(what) of \(bytes) bytes is too big for SQLite (the limit is 2 GiB)", sql: sql)
    }

    // Fast typed binds for the import hot path (no enum boxing). Their result is checked like
    // every other: a parameter index that does not exist is a bug and traps (`SQLITE_RANGE`),
    // text too big for SQLite (`SQLITE_TOOBIG`) throws.
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value), index)
    }
    public func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
        try check(value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index), index)
    }
    public func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        try check(value.map { sqlite3_bind_int64(handle, index, Int64($0)) } ?? sqlite3_bind_null(handle, index), index)
    }
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var text = value else { return try check(sqlite3_bind_null(handle, index), index) }
        guard let length = Int32(exactly: text.utf8.count) else { throw tooBig("text", bytes: text.utf8.count) }
        // With its byte length, not -1: text may contain NUL, which must not end it early.
        let rc = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(handle, index, $0.baseAddress, length, SQLITE_TRANSIENT)
            }
        }
        try check(rc, index)
    }

    /// Misuse (a parameter that does not exist, a finalized statement) traps; anything else throws.
    private func check(_ rc: Int32, _ index: Int32) throws(SQLiteError) {
        guard rc != SQLITE_OK else { return }
        precondition(rc != SQLITE_RANGE && rc != SQLITE_MISUSE, "bind of parameter \(index) failed (\(rc)) in: \(sql)")
        // The connection's message is about the last call that set one; say which parameter.
        let message = String(cString: sqlite3_errstr(rc))
        throw SQLiteError(extendedCode: rc, message: "cannot bind parameter \(index): \(message)", sql: sql)
    }

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    /// The storage class of a 0-based column in the current row (https://www.sqlite.org/datatype3.html).
    public func storageClass(at column: Int32) -> SQLiteStorageClass {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }
    public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func optionalDouble(at column: Int32) -> Double? { isNull(at: column) ? nil : double(at: column) }
    public func optionalInt(at column: Int32) -> Int? { isNull(at: column) ? nil : Int(int64(at: column)) }
    public func text(at column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    public func optionalText(at column: Int32) -> String? { isNull(at: column) ? nil : text(at: column) }

    /// The UTF-8 bytes of a 0-based text column, without making a `String` (empty for NULL).
    /// The corresponding C functions are `sqlite3_column_text` and `sqlite3_column_bytes`; the
    /// bytes are valid only during `body` (the next step or reset frees them).
    public func withText<T>(at column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        guard let bytes = sqlite3_column_text(handle, column) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// The bytes of a 0-based BLOB column, valid only during `body` (empty for NULL or an empty BLOB).
    /// The corresponding C functions are `sqlite3_column_blob` and `sqlite3_column_bytes`.
    func withBlob<T>(at column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let bytes = sqlite3_column_blob(handle, column)
        return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(sqlite3_column_bytes(handle, column))))
    }

    /// The value of a 0-based column in the current row.
    public func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(int64(at: column))
        case SQLITE_FLOAT: return .real(double(at: column))
        case SQLITE_TEXT: return .text(text(at: column))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let raw = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: raw, count: count)))
        default: return .null
        }
    }
}

@available(*, unavailable)
extension Statement: Sendable {}

/// How SQLite stores a value: what `typeof()` says of it.
public enum SQLiteStorageClass: Sendable {
    case integer, real, text, blob, null
}
