import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The thin SQLite layer keeps GRDB's contract: misuse traps, runtime conditions throw, one
/// statement per prepare.
@Suite struct SQLiteLayerTests {
    @Test func whatMayFollowAStatement() {
        for blank in ["", " ", ";", " ;\n", "-- a comment", "; /* x */ ;", "/* unterminated"] {
            #expect(Connection.isBlank(blank), "\(blank)")
        }
        for more in ["DELETE FROM quake", "; SELECT 1", "-- c\nSELECT 1", "/* c */ x"] {
            #expect(!Connection.isBlank(more), "\(more)")
        }
    }

    /// A transaction that fails while an interrupt is pending (a newer job's, from another thread)
    /// and a statement still steps still ends: the next BEGIN works. The ROLLBACK was interrupted
    /// too, and the connection stayed inside the transaction (a map that never counted again).
    @Test func aTransactionStoppedByAnInterruptEnds() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a"), .fixture("b"), .fixture("c")])
        let db = try Connection(path: store.container.path, create: false)
        defer { db.close() }
        struct Stopped: Error {}
        let stepping = try db.prepare("SELECT code FROM quake")
        #expect(throws: Stopped.self) {
            try db.transaction(.deferred) {
                #expect(try stepping.step())
                db.interrupt()
                throw Stopped()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.transaction(.deferred) { try db.quakeCount() } == 3)
    }

    @Test func oneStatementWithATrailingCommentPrepares() throws {
        let store = try TestStore()
        defer { store.remove() }
        #expect(try store.read { try $0.scalar("SELECT 42; -- the answer").int64 } == 42)
    }

    /// A parameter that does not exist is a bug: the process stops instead of going on.
    @Test func aParameterThatDoesNotExistTraps() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("kept")])
        let probe = BuildProducts.executable("store-probe")
        let (status, out, _) = try ChildProcess.run(probe, ["misuse", store.directory.path, "bad-parameter"])
        #expect(status > 128, "stopped by a signal (trap), not exit \(status)")
        #expect(!out.contains("ran"))
        #expect(try store.read { try $0.quakeCount() } == 1)
    }

    /// SQL with a second statement is refused before anything runs (SQLite would silently run
    /// only the first; here the second would delete every quake), as GRDB refuses it.
    @Test func aSecondStatementThrows() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("kept")])
        for sql in ["SELECT 1; DELETE FROM quake", "SELECT 1 -- one\n; DELETE FROM quake"] {
            do {
                _ = try store.read { try $0.scalar(sql) }
                Issue.record("ran \(sql)")
            } catch let error as SQLiteError {
                #expect(error.code == SQLiteError.misuse)
                #expect(error.message.contains("more than one statement"), "\(error)")
                #expect(error.sql == sql)
            }
        }
        #expect(try store.read { try $0.quakeCount() } == 1)
    }

    /// A value over SQLite's length limit throws `SQLITE_TOOBIG` naming the parameter (the limit
    /// is lowered for the test: the real one is 1 GB).
    @Test(arguments: ["blob", "text"])
    func aValueTooBigThrows(_ kind: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try Connection(path: dir.appending("t.sqlite").path)
        defer { db.close() }
        try db.execute("CREATE TABLE t(x)")
        db.setLengthLimit(1_000)
        let value: SQLiteValue = kind == "blob" ? .blob(Array(repeating: 7, count: 2_000)) : .text(String(repeating: "x", count: 2_000))
        do {
            try db.execute("INSERT INTO t VALUES (?)", [value])
            Issue.record("bound \(value)")
        } catch {
            #expect(error.code == SQLiteError.tooBig)
            #expect(error.message.contains("parameter 1"), "\(error)")
            #expect(error.message.contains("too big") || error.message.contains("too large"), "\(error)")
        }
        #expect(try db.scalar("SELECT count(*) FROM t").int64 == 0)
    }

    /// The cache hands back the same compiled statement, reset and with its bindings cleared,
    /// and a transaction's end resets a statement left mid-way (it would pin an old snapshot).
    @Test func theStatementCacheReusesAResetStatement() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try Connection(path: dir.appending("t.sqlite").path)
        defer { db.close() }
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        let sql = "SELECT x, ? FROM t ORDER BY x"
        let first = try db.cachedStatement(sql)
        try first.bind([.text("bound")])
        #expect(try first.step())
        #expect(first.value(at: 1) == .text("bound"))
        #expect(first.isBusy)
        let again = try db.cachedStatement(sql)
        #expect(again === first)
        #expect(!again.isBusy, "reset")
        #expect(try again.step())
        #expect(again.value(at: 0) == .integer(1), "from the first row again")
        #expect(again.value(at: 1) == .null, "bindings cleared")
        #expect(try db.cachedStatement("SELECT 2") !== first)
        try db.transaction(.deferred) {
            let statement = try db.cachedStatement(sql)
            #expect(try statement.step())
        }
        #expect(!first.isBusy, "the transaction's end reset it")
        // Many distinct texts do not grow the cache without bound, and still work.
        for i in 0..<(Connection.statementCacheLimit + 5) {
            let statement = try db.cachedStatement("SELECT \(i)")
            #expect(try statement.step() && statement.int64(at: 0) == Int64(i))
        }
        #expect(db.cachedStatementCount <= Connection.statementCacheLimit)
    }

    /// When SQLite ends a transaction by itself (after `SQLITE_IOERR_READ` or `SQLITE_FULL`; here a
    /// ROLLBACK made inside the body stands in for it) and the body goes on past the error, its
    /// next statement throws instead of running, and committing, outside the transaction (the
    /// half import of session 47's fault sweep). Whatever the body wrote before is gone with the
    /// rollback, and whatever it would write after is not written.
    @Test func aStatementAfterSQLiteEndedTheTransactionThrowsAndWritesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try Connection(path: dir.appending("t.sqlite").path)
        defer { db.close() }
        try db.execute("CREATE TABLE t(x)")
        for after in ["INSERT INTO t VALUES (2)", "SELECT count(*) FROM t"] {
            do {
                try db.transaction {
                    try db.execute("INSERT INTO t VALUES (1)")
                    try db.execute("ROLLBACK")  // what SQLite does on its own after such errors
                    try db.execute(after, [])
                }
                Issue.record("\(after) ran outside the transaction")
            } catch let error as SQLiteError {
                #expect(error.extendedCode == SQLiteError.rolledBack, "\(error)")
                #expect(error.sql == after)
            }
            #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
            #expect(!db.isInTransaction)
            try db.transaction { try db.execute("INSERT INTO t VALUES (3)") }
            #expect(try db.scalar("SELECT count(*) FROM t") == .integer(1), "the connection writes again")
            try db.execute("DELETE FROM t")
        }
    }

    /// And the error thrown then is the one that ended the transaction, when the body met one
    /// and went on: a full disk (the page limit here) is told as a full disk, with what to do,
    /// not as a rollback that names no cause.
    @Test func aStatementAfterASwallowedFailureThrowsThatFailure() throws {
        try withFullStore { store, db in
            let before = try db.quakeCount()
            do {
                try db.transaction {
                    let tx = try WriteTransaction(connection: db)
                    for i in 0..<2_000 { _ = try? tx.upsert(.fixture("full\(i)", place: String(repeating: "p", count: 200))) }
                    try db.execute("ROLLBACK")  // SQLite's own, after such an error
                    try tx.upsert(.fixture("after"))
                }
                Issue.record("wrote after the rollback")
            } catch let error as SQLiteError {
                #expect(error.code == SQLiteError.full, "\(error)")
                #expect(StoreError(error, path: store.container.path).code == .diskFull)
            }
            #expect(try db.quakeCount() == before)
        }
    }

    /// A full disk (here: the page limit reached) becomes `.diskFull`, whose text names the
    /// store and what to do and carries no SQL; the SQL stays in the detail for the log.
    @Test func aFullDiskIsNamedWithoutSQL() throws {
        try withFullStore { store, db in
            do {
                try db.transaction {
                    let tx = try WriteTransaction(connection: db)
                    for i in 0..<2_000 { try tx.upsert(.fixture("full\(i)", place: String(repeating: "p", count: 200))) }
                }
                Issue.record("wrote past the page limit")
            } catch let error as SQLiteError {
                #expect(error.code == SQLiteError.full)
                let storeError = StoreError(error, path: store.container.path)
                #expect(storeError.code == .diskFull)
                #expect("\(storeError)".contains("the disk is full"), "\(storeError)")
                #expect(!"\(storeError)".contains("INSERT"), "\(storeError)")
                #expect(storeError.detail?.contains("INSERT") == true)
            }
        }
    }
}

/// A state directory that cannot be created says why (issue 16: the error was dropped).
@Suite struct StateDirectoryCreationTests {
    @Test func aDirectoryBelowAFileSaysNotADirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.appending("file")
        try Data("x".utf8).write(to: file)
        do {
            _ = try PersistentContainer(directory: file.appendingPathComponent("state"))
            Issue.record("opened a store below a file")
        } catch {
            #expect("\(error)".contains("Not a directory"), "\(error)")
            #expect("\(error)".contains("--state-dir"), "\(error)")
        }
    }
}

/// Calls `body` with a store and a connection to it that can grow no further
/// (`max_page_count` at its size): the next pages written fail as a full disk.
private func withFullStore(_ body: (TestStore, Connection) throws -> Void) throws {
    let store = try TestStore()
    defer { store.remove() }
    let db = try Connection(path: store.container.path)
    defer { db.close() }
    let pages = try db.scalar("PRAGMA page_count").int64 ?? 0
    _ = try db.scalar("PRAGMA max_page_count = \(pages)")
    try body(store, db)
}
