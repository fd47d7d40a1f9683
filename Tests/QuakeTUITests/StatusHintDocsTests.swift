import Foundation
import QuakeTestSupport
import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// README's sentence on where the status line keeps `? help` names exactly the modes where the
/// key table keeps it (issue 31: it said "always", but the message log, the notes editor and the
/// fields show their own keys).
@Suite struct StatusHintDocsTests {
    static let modeNames: [(KeyMode, String)] = [(.list, "the list"), (.detail, "the detail view"), (.statistics, "the statistics"),
                                                 (.sequence, "the sequence view")]

    @Test func readmeSaysWhereTheStatusLineKeepsHelp() throws {
        let withHelp = KeyMode.allCases.filter { mode in
            KeyTable.statusHints(in: mode).contains { $0.keys == "?" && $0.action == "help" }
        }
        #expect(Set(withHelp.map { "\($0)" }) == Set(Self.modeNames.map { "\($0.0)" }))
        let readme = try String(contentsOf: SharedData.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let flat = readme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!flat.contains("always keeps `? help`"))
        let names = Self.modeNames.map(\.1)
        #expect(flat.contains("The status line keeps `? help` in \(names.dropLast().joined(separator: ", ")) and "
            + "\(names.last!); elsewhere (the help, the message log, the notes editor, a search or `:` line being "
            + "typed, a question) it names the keys that work there"))
    }
}
