import Foundation
import QuakeTestSupport
import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// One table of keys (issues 16, 27): the help overlay shows `KeyHelp` (`KeyTable`'s help lines), `--help` lists it, and
/// README's key table must name the same keys in the same order.
@Suite struct KeyHelpTests {
    static func normalized(_ keys: some StringProtocol) -> String {
        keys.replacingOccurrences(of: "`", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func readmesKeyTableMatchesTheTable() throws {
        let readme = try String(contentsOf: SharedData.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| keys | what they do |") })
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        let keys = rows.map { row in Self.normalized(row.split(separator: "|", omittingEmptySubsequences: false)[1]) }
        #expect(keys == KeyHelp.entries.map { Self.normalized($0.keys) })
    }

    /// The `:` line names every command the command line takes (it listed 9 of 16 when it was
    /// written by hand), and the unknown-command sentence shows each (`:q` for `quit`).
    @Test func colonHelpNamesEveryCommand() throws {
        let colon = try #require(KeyHelp.entries.first { $0.keys == ":" })
        let words = Set(colon.action.split(separator: " ").map(String.init))
        for name in FilterCommand.names {
            #expect(words.contains(name), "the : help “\(colon.action)” does not name \(name)")
            #expect(FilterCommand.usage.contains(":" + (name == "quit" ? "q" : name)), "the usage does not name \(name)")
            if case .failure(let error) = FilterCommand.parse(name, now: 0) {
                #expect(!error.message.hasPrefix("Unknown command"), "\(name) is named but not parsed: \(error.message)")
            }
        }
    }

    @Test func helpLinesListEveryEntry() {
        let lines = KeyHelp.lines()
        #expect(lines.count == KeyHelp.entries.count)
        for (line, entry) in zip(lines, KeyHelp.entries) {
            #expect(line.contains(entry.keys) && line.hasSuffix(entry.action), "\(line)")
        }
    }
}
