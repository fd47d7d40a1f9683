import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 53: a fetch counts the stored reports a record of status `deleted` withdrew, as
/// `import` does, in its summary (`fetch --json`'s `withdrawn`) and in what a window read. The
/// service is a static file on 127.0.0.1 answering every window with ComCat's GeoJSON format
/// (`RevisionFixture`: a report, then the same report deleted, beside one that does not change).
/// Nested in the serialized suite of the download limits, whose tests count this process's
/// `quaketui-http` helpers: these fetches start helpers too.
extension DownloadLimitTests {
@Suite struct FDSNWithdrawnTests {
    @Test func aDeletedReportInAWindowIsCountedWithdrawn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let served = dir.appending("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let answer = served.appendingPathComponent("query.geojson")
        let server = try LocalHTTPServer(serving: served)
        defer { server.stop() }
        var query = try FDSNQuery(service: "usgs", environment: ["QUAKETUI_FDSN_BASE_URL": "\(server.baseURL)/query.geojson"])
        query.start = 1_704_067_200_000  // 2024-01-01: one window holds both reports (18:22 and 09:06)
        query.end = query.start + 2 * 86_400_000
        let container = try PersistentContainer(directory: dir.appending("state"))
        defer { container.close() }
        func fetch(_ feed: String, _ identity: String) throws -> FDSNFetch.Summary {
            try Data(feed.utf8).write(to: answer)
            return try FDSNFetch(query: query, container: container, userAgent: "quaketui-test", sleep: { _ in }).run(identity: identity)
        }

        let first = try fetch(RevisionFixture.first, "first")
        #expect((first.inserted, first.withdrawn, first.quakes) == (2, 0, 2))

        let second = try fetch(RevisionFixture.deleted, "second")
        // The deleted record is read (a quake of the window, not skipped) and withdrew its report.
        #expect((second.inserted, second.updated, second.unchanged, second.skipped, second.withdrawn, second.quakes)
                == (0, 0, 1, 0, 1, 2))
        let codes = try container.viewContext.read { db in
            let statement = try db.prepare("SELECT code FROM quake ORDER BY code")
            var codes: [String] = []
            while try statement.step() { codes.append(statement.text(at: 0)) }
            return codes
        }
        #expect(codes == ["us6000other"])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(second)) as? [String: Any]
        #expect(json?["withdrawn"] as? Int == 1)

        // Asked again, the withdrawn report stays withdrawn and is not counted twice.
        let third = try fetch(RevisionFixture.deleted, "third")
        #expect((third.inserted, third.unchanged, third.withdrawn) == (0, 2, 0))
    }
}
}
