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

    @Test func helpLinesListEveryEntry() {
        let lines = KeyHelp.lines()
        #expect(lines.count == KeyHelp.entries.count)
        for (line, entry) in zip(lines, KeyHelp.entries) {
            #expect(line.contains(entry.keys) && line.hasSuffix(entry.action), "\(line)")
        }
    }
}
