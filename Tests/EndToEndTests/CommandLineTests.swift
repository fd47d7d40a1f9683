import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import QuakeTUI
import QuakeTUIRuntime
import Testing

/// The `quaketui` binary's command line: exit codes, errors, --help, --json.
@Suite(.waitsOnProcesses) struct CommandLineTests {
    @Test func versionAndHelpSucceed() throws {
        let version = try QuaketuiBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("quaketui "))
        for arguments in [["--help"], ["help"], ["help", "info"], ["info", "--help"], ["delete", "-h"]] {
            let help = try QuaketuiBinary.run(arguments)
            #expect(help.status == 0, "\(arguments)")
            #expect(help.lines.first { $0.hasPrefix("USAGE: ") } != nil, "\(arguments)")
        }
    }

    /// `--help` lists the browser's keys as `?` does: every help line of the key table, in its
    /// order, and nothing else under its heading (issue 27: one table of keys).
    @Test func rootHelpListsTheKeyTablesHelpLines() throws {
        let help = try QuaketuiBinary.run(["--help"])
        #expect(help.status == 0)
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("Its keys") })
        let keys = lines[(heading + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(keys.map { $0.trimmingCharacters(in: .whitespaces) } == KeyHelp.lines(indent: 0))
    }

    @Test(arguments: [
        (["info", "--bogus"], "Unknown option '--bogus'."),
        (["frobnicate"], "Unknown command 'frobnicate'."),
        (["help", "frobnicate"], "Unknown command 'frobnicate'."),
        (["delete"], "Say what to delete: --all or --before <date>."),
        (["delete", "--all", "--before", "2020-01-01"], "Give either --all or --before, not both."),
        (["delete", "--before", "last tuesday"],
         "'last tuesday' is not a date (2024-01-01, 2024-01-01T12:00:00Z) or a span before now (30d, 12h, 2w, 10y)."),
        (["delete", "--before"], "Missing value for '--before <date>'."),
        (["info", "--json=yes"], "The flag '--json' does not take a value."),
    ])
    func usageErrorsExit64WithAHint(arguments: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url)
        #expect(result.status == 64)
        // The error, the usage line, where to read more.
        #expect(result.errorLines.count == 3 && result.errorLines.first == "Error: " + message, "\(result.stderr)")
        #expect(result.errorLines.dropFirst().first?.hasPrefix("Usage: quaketui") == true, "\(result.stderr)")
        #expect(result.errorLines.last?.hasPrefix("  See 'quaketui") == true && result.errorLines.last?.hasSuffix(" --help' for more information.") == true,
                "\(result.stderr)")
    }

    /// A new directory is not a store: `info` says so and creates nothing (issue 31; see
    /// ReadOnlyStateDirectoryTests). On an empty store it reports no quakes.
    @Test func infoOnAnEmptyStateDirectoryReportsNoQuakes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("fresh")
        let refused = try QuaketuiBinary.run(["info", "--json", "--state-dir", state.path])
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: state.path))
        try PersistentContainer(directory: state).close()
        let result = try QuaketuiBinary.run(["info", "--json", "--state-dir", state.path])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["quakes"] as? Int == 0)
        #expect(json["store"] as? String == state.appendingPathComponent("quakes.sqlite").path)
    }

    @Test func deleteBeforeADateThenInfoReportsTheRightCount() throws {
        let store = try TestStore()
        defer { store.remove() }
        // 2023-11-14T22:13:20Z plus i days.
        try store.upsert((0..<10).map { .fixture("q\($0)", time: 1_700_000_000_000 + Int64($0) * 86_400_000) })
        let delete = try QuaketuiBinary.run(["delete", "--before", "2023-11-18", "--json"], stateDirectory: store.directory.url)
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(try delete.json()["deleted"] as? Int == 4)
        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: store.directory.url)
        #expect(try info.json()["quakes"] as? Int == 6)
        let all = try QuaketuiBinary.run(["delete", "--all", "--yes"], stateDirectory: store.directory.url)
        #expect(all.stdout == "deleted 6 quakes (0 left)\n")
        #expect(try QuaketuiBinary.run(["info", "--json"], stateDirectory: store.directory.url).json()["quakes"] as? Int == 0)
    }

    @Test func aStateDirectoryHoldingAForeignFileFailsWithExit1AndThePath() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data("not a database".utf8).write(to: dir.appending("quakes.sqlite"))
        let result = try QuaketuiBinary.run(["info"], stateDirectory: dir.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: \(dir.path)/quakes.sqlite is not a quaketui store"))
    }
}
