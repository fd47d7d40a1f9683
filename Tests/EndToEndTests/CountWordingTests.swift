import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 31: one formatter for counts (`CountFormat`): one quake is `1 quake`, and every count the
/// command line prints is grouped as the browser's are (`1,234`).
@Suite(.waitsOnProcesses) struct CountWordingTests {
    @Test func oneQuakeIsOneQuakeInImportListAndDelete() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = dir.appending("one.geojson")
        try Data(CatalogueFixtures.secondsWithMetadata.utf8).write(to: feed)
        let state = dir.appending("state")
        let imported = try QuaketuiBinary.run(["import", feed.path], stateDirectory: state)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported 1 quake (1 new, 0 updated, 0 unchanged, 0 skipped) in "), "\(imported.stdout)")
        let stats = try QuaketuiBinary.run(["stats"], stateDirectory: state)
        #expect(stats.stdout.split(separator: "\n").first == "1 quake", "\(stats.stdout)")
        let deleted = try QuaketuiBinary.run(["delete", "--before", "2100-01-01"], stateDirectory: state)
        #expect(deleted.stdout == "deleted 1 quake (0 left)\n", "\(deleted.stdout)\(deleted.stderr)")
    }

    @Test func listGroupsItsCountsAsTheBrowserDoes() throws {
        let store = try TestStore()
        defer { store.remove() }
        // 1,234 quakes on one day (2023-11-14, from 22:13:20 UTC a second apart).
        try store.upsert((0..<1234).map { .fixture("q\($0)", time: 1_700_000_000_000 + Int64($0) * 1000) })
        let list = try QuaketuiBinary.run(["list", "--limit", "1"], stateDirectory: store.directory.url,
                                          environment: ["TZ": "UTC"])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasSuffix(" (1,234)") == true, "\(list.stdout)")
        #expect(list.lines.last == "… 1,233 more (of 1,234); raise --limit to see them.", "\(list.stdout)")
        // `--limit 0`: the count alone, no blank line before it.
        let none = try QuaketuiBinary.run(["list", "--limit", "0"], stateDirectory: store.directory.url, environment: ["TZ": "UTC"])
        #expect(none.status == 0 && none.stdout == "… 1,234 more (of 1,234); raise --limit to see them.\n", "\(none.stdout.debugDescription)")
    }
}
