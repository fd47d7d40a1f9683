import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// One presenter for errors (issue 16): a sentence for people, the causes and SQL in the log
/// named by QUAKETUI_LOG, never SQL on the terminal.
@Suite struct ErrorPresenterTests {
    @Test func aStoreErrorNeverShowsItsSQL() {
        let sql = "INSERT INTO quake (code, magnitude, place) VALUES (?, ?, ?) ON CONFLICT (code) DO UPDATE SET magnitude = excluded.magnitude"
        let error = StoreError(.diskFull, path: "/s/quakes.sqlite",
                               underlyingError: SQLiteError(extendedCode: 13, message: "database or disk is full", sql: sql))
        #expect("\(error)" == "Cannot write the store /s/quakes.sqlite: the disk is full. Nothing was changed; free some space and try again. (SQLite: database or disk is full)")
        #expect(!"\(error)".contains("INSERT"))
        #expect(error.detail?.contains("INSERT INTO quake") == true, "the SQL is kept for the log")
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
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains(" list: "), "\(text)")
        #expect(text.contains("is not a quaketui store"), "\(text)")
        // Messages start with a capital letter, whoever wrote them.
        let unknown = try QuaketuiBinary.run(["import", dir.appending("missing.geojson").path], stateDirectory: state,
                                             environment: ["QUAKETUI_LOG": log.path])
        #expect(unknown.status == 1)
        let message = unknown.stderr.dropFirst("Error: ".count)
        #expect(message.first?.isUppercase == true || message.first == "/", "\(unknown.stderr)")
        #expect(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count == 2)
    }
}
