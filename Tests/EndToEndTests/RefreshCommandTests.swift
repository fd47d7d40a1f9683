import Foundation
import QuakeTestSupport
import Testing

/// `quaketui refresh` against a local server (never the network).
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct RefreshCommandTests {
    /// A folder laid out like the USGS summary feed directory.
    static func mirror() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "quaketui-mirror")
        try FileManager.default.copyItem(at: SharedData.url("all_week-2020-06-10.geojson"), to: dir.appending("all_week.geojson"))
        return dir
    }

    @Test func refreshDownloadsAndImportsAFeed() throws {
        let mirror = try Self.mirror()
        defer { mirror.remove() }
        let server = try LocalHTTPServer(serving: mirror.url)
        defer { server.stop() }
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let result = try QuaketuiBinary.run(["refresh", "all_week", "--json"], stateDirectory: state.url,
                                            environment: ["QUAKETUI_FEED_BASE_URL": server.baseURL])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["inserted"] as? Int == 4119)
    }

    @Test func aFileURLMirrorWorksToo() throws {
        let mirror = try Self.mirror()
        defer { mirror.remove() }
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let result = try QuaketuiBinary.run(["refresh", "all_week"], stateDirectory: state.url,
                                            environment: ["QUAKETUI_FEED_BASE_URL": mirror.url.absoluteString])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("imported 4,119 quakes"))
    }

    @Test func httpErrorsAndRefusedConnectionsAreOneClearSentenceAndChangeNothing() throws {
        let mirror = try Self.mirror()
        defer { mirror.remove() }
        let server = try LocalHTTPServer(serving: mirror.url)
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let first = try QuaketuiBinary.run(["refresh", "all_week"], stateDirectory: state.url,
                                           environment: ["QUAKETUI_FEED_BASE_URL": server.baseURL])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try QuaketuiBinary.run(["info", "--json"], stateDirectory: state.url).json()["quakes"] as? Int

        let missing = try QuaketuiBinary.run(["refresh", "all_day"], stateDirectory: state.url,
                                             environment: ["QUAKETUI_FEED_BASE_URL": server.baseURL])
        #expect(missing.status == 1)
        let url = "\(server.baseURL)/all_day.geojson"
        #expect(missing.errorLines == ["Error: \(url): the server answered HTTP 404 (Not Found) for \(url); nothing was changed."],
                "\(missing.stderr)")

        server.stop()
        let refused = try QuaketuiBinary.run(["refresh", "all_week"], stateDirectory: state.url,
                                             environment: ["QUAKETUI_FEED_BASE_URL": server.baseURL])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("Error: \(server.baseURL)/all_week.geojson: cannot download"), "\(refused.stderr)")
        #expect(try QuaketuiBinary.run(["info", "--json"], stateDirectory: state.url).json()["quakes"] as? Int == before)
    }

    @Test func anUnknownFeedNameIsAUsageError() throws {
        let result = try QuaketuiBinary.run(["refresh", "all_year"])
        #expect(result.status == 64)
        #expect(result.errorLines.first == "Error: 'all_year' is not a USGS summary feed; use e.g. all_day, 4.5_week or significant_month.",
                "\(result.stderr)")
    }
}
