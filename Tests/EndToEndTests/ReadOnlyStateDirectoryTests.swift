import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// A read-only command on a state directory without a store (a mistyped `--state-dir`) says so
/// and creates nothing; the commands that write start a store there as before (issue 31).
@Suite(.waitsOnProcesses) struct ReadOnlyStateDirectoryTests {
    @Test(arguments: [["info"], ["info", "--json"], ["list"], ["stats"], ["scenes"], ["config"], ["config", "timeZone"]])
    func aReadOnlyCommandRefusesADirectoryWithoutAStoreAndCreatesNothing(_ command: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let typo = dir.appending("typo")
        let result = try QuaketuiBinary.run(["--state-dir", typo.path] + command)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Error: No store at \(typo.path)/quakes.sqlite: check --state-dir, "
            + "or start a store there with 'quaketui import FILE' or 'quaketui refresh'.\n")
        #expect(!FileManager.default.fileExists(atPath: typo.path), "nothing created")

        // An existing directory without a store: the commands that read the store refuse it;
        // `scenes` and `config` read none and answer; either way it stays empty.
        let result2 = try QuaketuiBinary.run(command, stateDirectory: dir.url)
        if ["scenes", "config"].contains(command[0]) {
            #expect(result2.status == 0, "\(result2.stderr)")
        } else {
            #expect(result2.status == 1)
            #expect(result2.stderr == "Error: No store at \(dir.url.path)/quakes.sqlite: run 'quaketui' (the browser), "
                + "'quaketui refresh' or 'quaketui import FILE' to start one.\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }

    @Test func importStartsAStoreInANewDirectoryAndReadsThenWork() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("new")
        let feed = dir.appending("one.geojson")
        try Data(RecentFeed.geoJSON([RecentFeed.Quake("us1", magnitude: 4, latitude: 1, longitude: 2, place: "A")]).utf8).write(to: feed)
        let imported = try QuaketuiBinary.run(["--state-dir", state.path, "import", feed.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent(PersistentContainer.fileName).path))
        let info = try QuaketuiBinary.run(["--state-dir", state.path, "info", "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(try info.json()["quakes"] as? Int == 1)
        #expect(try QuaketuiBinary.run(["--state-dir", state.path, "scenes"]).status == 0)
        #expect(try QuaketuiBinary.run(["--state-dir", state.path, "config"]).status == 0)
    }
}
