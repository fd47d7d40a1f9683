import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// One presenter for errors (issue 16): a sentence for people, the causes and SQL in the log
/// named by QUAKETUI_LOG, never SQL on the terminal.
@Suite(.waitsOnProcesses) struct ErrorPresenterTests {
    @Test func aStoreErrorNeverShowsItsSQL() {
        let sql = "INSERT INTO quake (code, magnitude, place) VALUES (?, ?, ?) ON CONFLICT (code) DO UPDATE SET magnitude = excluded.magnitude"
        let error = StoreError(.diskFull, path: "/s/quakes.sqlite",
                               underlyingError: SQLiteError(extendedCode: 13, message: "database or disk is full", sql: sql))
        #expect("\(error)" == "Cannot write the store /s/quakes.sqlite: the disk is full. Nothing was changed; free some space and try again. (SQLite: database or disk is full)")
        #expect(error.detail == "SQLite error 13: database or disk is full (in: \(sql))", "the SQL is kept for the log")
    }

    @Test func failuresGoToTheLogWithTheirDetail() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.appending("quaketui.log")
        // A store file that is not a database: a runtime failure with an SQLite cause.
        let state = dir.appending("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 4096).write(to: state.appendingPathComponent("quakes.sqlite"))
        let result = try QuaketuiBinary.run(["list"], stateDirectory: state, environment: ["QUAKETUI_LOG": log.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one sentence: \(result.stderr)")
        let store = state.appendingPathComponent("quakes.sqlite").path
        let entries = try LogEntry.read(log.path)
        #expect(entries.map(\.context) == ["list"], "\(entries)")
        #expect(entries.first?.message == "\(store) is not a quaketui store (it is not an SQLite database quaketui wrote). "
                + "It was left untouched; move it aside or choose another state directory with --state-dir.", "\(entries)")
        // Messages start with a capital letter, whoever wrote them.
        let unknown = try QuaketuiBinary.run(["import", dir.appending("missing.geojson").path], stateDirectory: state,
                                             environment: ["QUAKETUI_LOG": log.path])
        #expect(unknown.status == 1)
        let message = unknown.stderr.dropFirst("Error: ".count)
        #expect(message.first?.isUppercase == true || message.first == "/", "\(unknown.stderr)")
        #expect(try LogEntry.read(log.path).count == 2)
    }
}
