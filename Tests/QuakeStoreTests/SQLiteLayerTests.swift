import Foundation
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

    @Test func oneStatementWithATrailingCommentPrepares() throws {
        let store = try TestStore()
        defer { store.remove() }
        #expect(try store.read { try $0.scalar("SELECT 42; -- the answer").int64 } == 42)
    }

    /// Misuse is a bug: the process stops instead of silently ignoring the second statement
    /// (which here would delete every quake) or a parameter that does not exist.
    @Test(arguments: ["two-statements", "bad-parameter"])
    func misuseTraps(_ kind: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("kept")])
        let probe = BuildProducts.executable("store-probe")
        let (status, out, _) = try ChildProcess.run(probe, ["misuse", store.directory.path, kind])
        #expect(status > 128, "stopped by a signal (trap), not exit \(status)")
        #expect(!out.contains("ran"))
        #expect(try store.read { try $0.quakeCount() } == 1)
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
