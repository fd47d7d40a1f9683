import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The bundled sample on the command line: `list` shows it offline, `info` labels it, and an
/// import replaces it.
@Suite(.waitsOnProcesses) struct SampleCatalogueCommandTests {
    static let note = "showing the bundled sample catalogue (not real data); run 'quaketui refresh' for the live feed"

    /// What the browser's first launch does: the bundled sample into a new store.
    static func seedSample(_ dir: TemporaryDirectory) throws {
        let container = try PersistentContainer(directory: dir.url)
        defer { container.close() }
        #expect(try SampleCatalogue.importIntoNewStore(container) != nil)
    }

    @Test func listOnlyReadsAndSaysWhatToDoOnAnEmptyStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try PersistentContainer(directory: dir.url).close()
        let list = try QuaketuiBinary.run(["list"], stateDirectory: dir.url)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout == "The store is empty. Run 'quaketui refresh' to download the USGS month feed, or 'quaketui import FILE'.\n")
        let json = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url).json()
        #expect(json["total"] as? Int == 0)
        #expect(json["sample"] as? Bool == false)
        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()
        #expect(info["quakes"] as? Int == 0)
        #expect(info["historyToken"] as? Int == 0, "list wrote nothing to the store")
        #expect(info["sample"] as? Bool == false)
    }

    @Test func listSaysWhenItShowsTheSample() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.seedSample(dir)
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr == Self.note + "\n")
        let json = try list.json()
        #expect(json["sample"] as? Bool == true)
        let total = try #require(json["total"] as? Int)
        #expect(total > 100)
        let sections = try #require(json["sections"] as? [[String: Any]])
        let codes = sections.flatMap { ($0["quakes"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } }
        #expect(codes.count == total)
        #expect(codes.allSatisfy { $0.hasPrefix("sample") })

        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()
        #expect(info["sample"] as? Bool == true)
        #expect(info["quakes"] as? Int == total)
        let text = try QuaketuiBinary.run(["info"], stateDirectory: dir.url)
        #expect(text.field("data") == "the bundled sample catalogue (not real data); run 'quaketui refresh' for the live feed",
                "\(text.stdout)")

        let again = try QuaketuiBinary.run(["list", "--limit", "1"], stateDirectory: dir.url)
        #expect(again.stderr == Self.note + "\n")
        #expect(again.lines.last == "… \(total - 1) more (of \(total)); raise --limit to see them.", "\(again.stdout)")
    }

    @Test func theSampleBelongsToANewStoreOnly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.seedSample(dir)
        #expect(try QuaketuiBinary.run(["delete", "--all", "--yes"], stateDirectory: dir.url).status == 0)
        let container = try PersistentContainer(directory: dir.url)
        defer { container.close() }
        #expect(try SampleCatalogue.importIntoNewStore(container) == nil, "an emptied store is not new")
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url).json()
        #expect(list["total"] as? Int == 0)
        #expect(list["sample"] as? Bool == false)
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func importingAFeedReplacesTheSample() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try SampleCatalogueCommandTests.seedSample(dir)
        let feed = SharedData.url("all_week-2023-04-17.geojson")
        let expected = Set(try IndependentParse.expected(for: feed).map(\.code)).count
        let result = try QuaketuiBinary.run(["import", feed.path, "--json"], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["inserted"] as? Int == expected)
        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()
        #expect(info["sample"] as? Bool == false)
        #expect(info["quakes"] as? Int == expected)
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url)
        #expect(list.stderr.isEmpty, "no sample note once real data is in")
        #expect(try list.json()["total"] as? Int == expected)
        #expect(try list.listedCodes().allSatisfy { !$0.hasPrefix("sample") })
        #expect(try list.json()["sample"] as? Bool == false)
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func aFailedImportKeepsTheSample() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try SampleCatalogueCommandTests.seedSample(dir)
        let before = try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()["quakes"] as? Int
        let truncated = SharedData.url("1.0_month_TRUNCATED-2019-02-16.geojson").path
        #expect(try QuaketuiBinary.run(["import", truncated], stateDirectory: dir.url).status == 1)
        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()
        #expect(info["sample"] as? Bool == true)
        #expect(info["quakes"] as? Int == before)
    }

    /// A note written on a sample quake survives the import that replaces the sample, and the
    /// import says what it replaced and what it kept (issue 31).
    @Test func importingOverTheSampleKeepsTheNotesAndSaysSo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.seedSample(dir)
        let container = try PersistentContainer(directory: dir.url)
        let sample = try container.viewContext.read { try $0.scalar("SELECT count(*) FROM quake").int64 } ?? 0
        let code = try #require(try container.viewContext.read { try $0.scalar("SELECT min(code) FROM quake").string })
        let writer = try container.newBackgroundContext(author: "notes")
        #expect(try writer.performAndWait { try $0.setNotes("felt it", forCode: code) })
        writer.close()
        container.close()
        let feed = dir.appending("two.geojson")
        try Data(RecentFeed.geoJSON([RecentFeed.Quake("us1", magnitude: 4, latitude: 1, longitude: 2, place: "A"),
                                     RecentFeed.Quake("us2", magnitude: 5, latitude: 3, longitude: 4, place: "B")]).utf8).write(to: feed)
        let result = try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("imported 2 quakes (2 new, 0 updated, 0 unchanged, 0 skipped) in ") == true)
        #expect(lines.dropFirst().first == "replaced the bundled sample (\(CountFormat.quakes(sample - 1))); kept 1 sample quake with your notes")
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url)
        #expect(list.stderr.isEmpty, "the kept quake is an ordinary one, not a sample")
        #expect(try list.json()["total"] as? Int == 3)
        #expect(try list.listedCodes().filter { $0 == code } == [code])
        let reopened = try PersistentContainer(directory: dir.url)
        defer { reopened.close() }
        #expect(try reopened.viewContext.read { try $0.scalar("SELECT notes FROM quake WHERE code = ?", [.text(code)]).string } == "felt it")
    }

    @Test func infoListsTheScenes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try PersistentContainer(directory: dir.url).close()
        try FileManager.default.createDirectory(at: dir.appending("scenes"), withIntermediateDirectories: true)
        for id in ["right", "left"] {
            _ = FileManager.default.createFile(atPath: dir.appending("scenes/\(id).plist").path, contents: nil)
        }
        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()
        #expect(info["sceneCount"] as? Int == 2)
        #expect(info["scenes"] as? [String] == ["left", "right"])
        #expect(info["store"] is String && info["historyToken"] is Int, "the earlier fields stay")
        let text = try QuaketuiBinary.run(["info"], stateDirectory: dir.url)
        #expect(text.field("scenes") == "2: left, right", "\(text.stdout)")
    }
}

/// `refresh` replaces the sample too, and defaults to the `refreshFeed` app setting.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct SampleCatalogueRefreshTests {
    @Test func refreshReplacesTheSampleWithTheFeedOfTheAppSetting() throws {
        let mirror = try TemporaryDirectory(prefix: "quaketui-mirror")
        defer { mirror.remove() }
        try FileManager.default.copyItem(at: SharedData.url("all_week-2020-06-10.geojson"), to: mirror.appending("all_week.geojson"))
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try SampleCatalogueCommandTests.seedSample(dir)
        try AppStorage(state: StateDirectory(path: dir.path)).set("all_week", for: AppKeys.refreshFeed)
        let result = try QuaketuiBinary.run(["refresh", "--json"], stateDirectory: dir.url,
                                            environment: ["QUAKETUI_FEED_BASE_URL": mirror.url.absoluteString])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["inserted"] as? Int == 4119)
        let info = try QuaketuiBinary.run(["info", "--json"], stateDirectory: dir.url).json()
        #expect(info["sample"] as? Bool == false)
        #expect(info["quakes"] as? Int == 4119)
    }
}
