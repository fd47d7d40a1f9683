import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 56.12: the command line takes one spelling of a thing everywhere: `delete --before`
/// takes the spans `fetch --start` takes (`30d`), with the same refusal of what is neither.
@Suite(.waitsOnProcesses) struct CommandSpellingTests {
    @Test func deleteBeforeTakesASpanBeforeNowAsFetchDoes() throws {
        let store = try TestStore()
        defer { store.remove() }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let day: Int64 = 86_400_000
        // Two quakes 40 and 31 days old, one 29 days old, one an hour old.
        try store.upsert([.fixture("old1", time: now - 40 * day), .fixture("old2", time: now - 31 * day),
                          .fixture("new1", time: now - 29 * day), .fixture("new2", time: now - day / 24)])
        let deleted = try QuaketuiBinary.run(["delete", "--before", "30d"], stateDirectory: store.directory.url)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted 2 quakes (2 left)\n", "\(deleted.stdout)\(deleted.stderr)")
        let left = try QuaketuiBinary.run(["list", "--json"], stateDirectory: store.directory.url)
        #expect(try left.listedCodes() == ["new2", "new1"])
        // The dates it took before still work, to midnight UTC.
        let dated = try QuaketuiBinary.run(["delete", "--before", "2000-01-01", "--json"], stateDirectory: store.directory.url)
        #expect(dated.stdout == "{\"deleted\":0,\"remaining\":2}\n", "\(dated.stdout)\(dated.stderr)")
    }
}

/// Issue 56.14: the page an FDSN service answers a bad query with, saved by `curl -o` and
/// imported, is named as what it is, with its explanation quoted as `fetch` quotes it.
@Suite(.waitsOnProcesses) struct ImportedErrorPageTests {
    /// An error document as the FDSN Web Service Specifications 1.2 lay it out.
    static let page = """
        Error 400: Bad Request

        Bad starttime value "2024-13-01".

        Usage details are available from https://earthquake.usgs.gov/fdsnws/event/1

        Request:
        /fdsnws/event/1/query?starttime=2024-13-01&format=geojson

        Request Submitted:
        2026-12-02T04:05:06+00:00

        Service version:
        1.14.1

        """

    @Test func anFDSNErrorPageSaysItIsOneAndQuotesItsExplanation() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.appending("query.geojson")
        try Data(Self.page.utf8).write(to: file)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: dir.appending("state"))
        #expect(result.status == 1)
        #expect(result.errorLines == [
            "Error: \(file.path):1:1: the input is an FDSN service's error page, not a catalogue: the service answered "
            + "HTTP 400 (Bad Request): Bad starttime value \"2024-13-01\"; correct the query the page names and download "
            + "it again, or let 'quaketui fetch' ask the service.",
        ], "\(result.stderr)")
    }

    /// A file that only starts with the word is still "neither JSONP nor CSV".
    @Test func aWordErrorAloneIsNotAnErrorPage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.appending("notes.txt")
        try Data("Error log of Tuesday\n".utf8).write(to: file)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: dir.appending("state"))
        #expect(result.status == 1)
        #expect(result.errorLines.first?.hasPrefix("Error: \(file.path):1:1: the input starts with 'Error' but is neither a JSONP callback nor a CSV header") == true,
                "\(result.stderr)")
    }
}
