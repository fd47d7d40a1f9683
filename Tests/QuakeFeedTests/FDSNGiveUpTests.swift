import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 57, point 2: a fetch against a service at its worst ends, in one sentence naming the
/// service's answer, the window and what to try (a local hostile service on 127.0.0.1; the waits
/// between retries are not slept). Nested in the serialized suite of the download limits, whose
/// tests count this process's `quaketui-http` helpers: these fetches start helpers too.
extension DownloadLimitTests {
@Suite struct FDSNGiveUpTests {
    /// Runs a two-day fetch against `/MODE/` of a hostile server; the error it ended with, the
    /// requests it made, the server's base URL (`http://127.0.0.1:PORT`).
    static func fetch(_ mode: String) throws -> (error: String?, requests: Int, base: String) {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let log = dir.appending("requests.log").path
        let server = try LocalHTTPServer(hostileIn: dir.url, log: log)
        defer { server.stop() }
        var query = try FDSNQuery(service: "usgs", environment: [
            "QUAKETUI_FDSN_BASE_URL": "\(server.baseURL)/\(mode)/fdsnws/event/1/query", "QUAKETUI_FDSN_LIMIT": "20"])
        query.start = 1_704_067_200_000  // 2024-01-01
        query.end = query.start + 2 * 86_400_000
        let container = try PersistentContainer(directory: dir.appending("state"))
        defer { container.close() }
        let fetch = FDSNFetch(query: query, container: container, userAgent: "quaketui-test", sleep: { _ in })
        var error: String?
        do { _ = try fetch.run(identity: mode) } catch let thrown { error = "\(thrown)" }
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        return (error, lines.filter { $0.contains("GET") }.count, server.baseURL)
    }

    @Test func aServiceThatRefusesEveryWindowWith413EndsTheFetchAtTheSmallestWindow() throws {
        let (error, requests, _) = try Self.fetch("always-413")
        #expect(error == "The service answered HTTP 413 (Content Too Large) even for the smallest window, 1 s (from "
                + "2024-01-01T00:00:00.000Z), so no window is small enough for it; the windows fetched so far are kept: try a "
                + "narrower query (a higher --min-magnitude, a smaller region) or another --service", "\(error ?? "no error")")
        // Halving a day down to a second is 17 requests; each further one would be the same refusal.
        #expect(requests < 40, "\(requests) requests")
    }

    @Test func aServiceThatIgnoresTheLimitEndsTheFetch() throws {
        let (error, requests, _) = try Self.fetch("no-limit")
        #expect(error == "The service sent 40 events for the window from 2024-01-01T00:00:00.000Z to 2024-01-03T00:00:00.000Z "
                + "where at most 20 were asked for (limit=20): it ignores limit, so the fetch cannot size its windows; the windows "
                + "fetched so far are kept: import the service's answer for the whole span with quaketui import URL, or use "
                + "another --service", "\(error ?? "no error")")
        #expect(requests < 5, "\(requests) requests")
    }

    /// A service that honours `limit` but fills every answer, however small the window, was
    /// walked a second a request without end (2,697 requests in two minutes with limit 10).
    @Test func aServiceThatFillsEveryWindowEndsTheFetchAtTheSmallestWindow() throws {
        let (error, requests, _) = try Self.fetch("always-full")
        #expect(error?.hasPrefix("The service sent a full page (20 events, limit=20) for 3 windows of one second in a row, the last from ") == true,
                "\(error ?? "no error")")
        #expect(error?.hasSuffix("no window is small enough to page it (no catalogue holds that many quakes a second for long), so the "
                                 + "fetch stops; the windows fetched so far are kept: try a narrower query (a higher --min-magnitude, a "
                                 + "smaller region) or another --service") == true, "\(error ?? "no error")")
        // Halving two days down to a second is 18 requests, then the three full seconds.
        #expect(requests < 30, "\(requests) requests")
    }

    /// A connection reset in every answer after the first window stored: asked again as often as a
    /// dropped connection is, then one sentence that says the windows before are kept, as the
    /// services' refusals do (it ended "…reset before the whole response came; try again.").
    @Test func aResetInEveryLaterAnswerEndsTheFetchKeepingTheWindowsBefore() throws {
        let (error, requests, _) = try Self.fetch("reset-after-1")
        #expect(error?.contains("was reset before the whole response came") == true, "\(error ?? "no error")")
        #expect(error?.hasSuffix("asked for 9 times); the windows fetched so far are kept: run the same command again to continue") == true,
                "\(error ?? "no error")")
        // The full first window halved, its first half stored, the second asked for 9 times.
        #expect(requests == 11, "\(requests) requests")
    }

    @Test func aServiceThatAnswers500EveryTimeEndsTheFetchAfterTheRetries() throws {
        let (error, requests, base) = try Self.fetch("always-500")
        #expect(error == "The service answered HTTP 500 (Internal Server Error) 9 times in a row for the window from "
                + "2024-01-01T00:00:00.000Z to 2024-01-03T00:00:00.000Z (\(base)/always-500/fdsnws/event/1/query?starttime="
                + "2024-01-01T00:00:00.000&endtime=2024-01-03T00:00:00.000&orderby=time-asc&limit=20&format=text&nodata=204): "
                + "Error 500: the test service refuses every request; the windows fetched so far are kept: run the same command "
                + "again later to continue", "\(error ?? "no error")")
        #expect(requests == 9, "\(requests) requests")
    }
}
}
