import Foundation
import QuakeTestSupport
import Testing

/// `QUAKETUI_SQL_PROFILE=FILE` (profile.c): one line per statement any connection runs, for
/// finding where time goes; nothing without it.
@Suite(.waitsOnProcesses) struct SQLProfileTests {
    @Test func everyStatementIsOneLineInTheProfile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = dir.appending("sql.profile")
        // A new store: the migrations' multi-line SQL is profiled too.
        let result = try QuaketuiBinary.run(["import", SharedData.url("4.5_day-2017-11-29.geojson").path],
                                            stateDirectory: dir.appending("state"),
                                            environment: ["QUAKETUI_SQL_PROFILE": profile.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: profile, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the file ends with a whole line")
        let statements = lines.dropLast()
        #expect(statements.count > 10, "\(statements.count) lines")
        let shape = /^\d+\.\d{3} ms at \d+\.\d{6} tid \d+ \S.*$/
        for line in statements { #expect(line.wholeMatch(of: shape) != nil, "\(line)") }
        #expect(statements.contains { $0.hasSuffix(" PRAGMA user_version") })
        #expect(statements.contains { $0.contains("CREATE TABLE quake (") && $0.contains("PRIMARY KEY") },
                "a migration's statement, its lines joined")
        let mode = try FileManager.default.attributesOfItem(atPath: profile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the SQL holds what the user searched for: \(String(mode ?? 0, radix: 8))")

        // With a minimum, only the statements that ran that long: none of the fast ones.
        let slow = dir.appending("slow.profile")
        let again = try QuaketuiBinary.run(["import", SharedData.url("4.5_day-2017-11-29.geojson").path],
                                           stateDirectory: dir.appending("state2"),
                                           environment: ["QUAKETUI_SQL_PROFILE": slow.path, "QUAKETUI_SQL_PROFILE_MIN_MS": "1000"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!(try String(contentsOf: slow, encoding: .utf8).contains("PRAGMA user_version")))

        let quiet = try QuaketuiBinary.run(["stats"], stateDirectory: dir.appending("state"))
        #expect(quiet.status == 0)
        #expect(try String(contentsOf: profile, encoding: .utf8).split(separator: "\n").count == statements.count,
                "without the variable nothing is written")
    }
}
