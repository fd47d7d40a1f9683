import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `list --help` says what `--search` matches: the place, and a code's start when the text looks
/// like a code (issue 31: it said only "a literal substring of the place").
@Suite(.waitsOnProcesses) struct ListSearchHelpTests {
    @Test func searchMatchesPlacesAndCodePrefixesAsTheHelpSays() throws {
        let help = try QuaketuiBinary.run(["list", "--help"])
        #expect(help.status == 0)
        #expect(help.option("--search <text>")
                == "Only quakes whose place holds every word of TEXT (or another name of that place), or whose code starts with it.",
                "\(help.stdout)")
        #expect(help.sentence(startingWith: "The search matches every word")
                == "The search matches every word of TEXT in any order (\"japan honshu\"), each a case- and diacritic-insensitive "
                + "substring of the place (\"mexico\" finds \"México\") or another name of the same place (\"sumatra\" finds "
                + "\"Sumatera\", \"turkey\" finds \"Türkiye\"; README, Place names); whitespace separates words, nothing else is syntax.",
                "\(help.stdout)")
        #expect(help.sentence(startingWith: "Text that looks like a code")
                == "Text that looks like a code (letters and digits, at least one of each, no space: us7000abcd) "
                + "also finds the quakes whose code starts with it.", "\(help.stdout)")

        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("us7000abcd", place: "Off the coast"), .fixture("ci4012", place: "US7000 Road")])
        let list = try QuaketuiBinary.run(["list", "--search", "us7000", "--json"], stateDirectory: store.directory.url)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try list.json()["total"] as? Int == 2, "the code's start and the place alike")
    }

    /// Issue 53: every word in any order, and the other names of a place, as `/` finds them (one QueryPlan).
    @Test(arguments: [("japan honshu", ["a"]), ("HONSHU  japan", ["a"]), ("sumatra", ["b", "c"]), ("türkiye", ["d", "e"]), ("honshu x", [])])
    func listSearchesEveryWordAndEveryNameOfAPlace(search: String, codes: [String]) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert([.fixture("a", place: "NEAR EAST COAST OF HONSHU, JAPAN"), .fixture("b", place: "SOUTHERN SUMATERA, INDONESIA"),
                          .fixture("c", place: "Northern Sumatra, Indonesia"), .fixture("d", place: "WESTERN TURKEY"),
                          .fixture("e", place: "12 km N of Sındırgı, Türkiye"), .fixture("f", place: "Honshu region")])
        let list = try QuaketuiBinary.run(["list", "--search", search, "--json"], stateDirectory: store.directory.url)
        #expect(list.status == 0, "\(list.stderr)")
        let quakes = (try list.json()["sections"] as? [[String: Any]] ?? []).flatMap { $0["quakes"] as? [[String: Any]] ?? [] }
        #expect(Set(quakes.compactMap { $0["code"] as? String }) == Set(codes), "\(search)")
    }
}
