import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `list --help` says what `--search` matches: the place, and a code's start when the text looks
/// like a code (issue 31: it said only "a literal substring of the place").
@Suite struct ListSearchHelpTests {
    @Test func searchMatchesPlacesAndCodePrefixesAsTheHelpSays() throws {
        let help = try QuaketuiBinary.run(["list", "--help"])
        #expect(help.status == 0)
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("--search <text> Only quakes whose place contains TEXT, or whose code starts with it."), "\(help.stdout)")
        #expect(flat.contains("text that looks like a code (letters and digits, at least one of each, no space: us7000abcd) "
            + "also finds the quakes whose code starts with it"), "\(help.stdout)")

        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("us7000abcd", place: "Off the coast"), .fixture("ci4012", place: "US7000 Road")])
        let list = try QuaketuiBinary.run(["list", "--search", "us7000", "--json"], stateDirectory: store.directory.url)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try list.json()["total"] as? Int == 2, "the code's start and the place alike")
    }
}
