import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The store a user builds with `fetch` over decades, window by window and commit by commit, is
/// the store `import` builds from the same events in one file: the same schema, indexes,
/// triggers, the same rows, counts and search index. So what quakebench measures
/// on imported stores is what a user who fetched gets.
@Suite(.waitsOnProcesses) struct FetchBuildsTheImportStoreTests {
    /// Everything in a store that decides what a browser shows and how fast, as comparable lines.
    /// Leaves out what differs by design: row ids (the order rows arrived in), `meta` (a fetch's
    /// cursor) and `history` (a fetch commits several times).
    static func contents(of dir: URL) throws -> [String: [String]] {
        let container = try PersistentContainer(directory: dir)
        defer { container.close() }
        return try container.viewContext.read { db in
            func lines(_ sql: String) throws -> [String] {
                let statement = try db.prepare(sql)
                var lines: [String] = []
                while try statement.step() {
                    lines.append((0..<statement.columnCount).map { "\(statement.value(at: $0))" }.joined(separator: " | "))
                }
                return lines
            }
            let names = try db.prepare("SELECT name FROM pragma_table_info('quake') WHERE name <> 'id' ORDER BY cid")
            var quakeColumns: [String] = []
            while try names.step() { quakeColumns.append(names.text(at: 0)) }
            var contents: [String: [String]] = [
                "schema": try lines("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"),
                "pragmas": try lines("SELECT * FROM pragma_user_version, pragma_page_size, pragma_journal_mode, pragma_auto_vacuum"),
                "quake": try lines("SELECT \(quakeColumns.joined(separator: ", ")) FROM quake ORDER BY code"),
                "quake_count": try lines("SELECT kind, bucket, count FROM quake_count ORDER BY kind, bucket"),
                "integrity": try lines("PRAGMA integrity_check"),
            ]
            // The search index answers for the right rows (ids differ, so by code).
            for term in ["region 07", "testland", "n 1", "on", "xyz"] {
                contents["search \(term)"] = try lines("""
                    SELECT q.code FROM quake_fts f JOIN quake q ON q.id = f.rowid
                    WHERE quake_fts MATCH '"\(term)"' ORDER BY q.code
                    """)
            }
            return contents
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func aFetchOverDecadesBuildsTheStoreAnImportOfTheSameEventsBuilds() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // 30 years, and windows of at most 1,000 events: many windows, some halved at the limit.
        let catalogue = GeneratedCatalogue(count: 12_000, burst: 3_000, start: 631_152_000_000, days: 30 * 365, seed: 33)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 1_000, in: dir.url)
        defer { server.stop() }

        let fetched = dir.appending("fetched")
        let fetch = try FetchCommandTests.fetchAll(catalogue, from: server, limit: 1_000, into: fetched)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect((try fetch.json()["windows"] as? Int ?? 0) > 10)
        let imported = dir.appending("imported")
        let importRun = try QuaketuiBinary.run(["import", file.path], stateDirectory: imported)
        #expect(importRun.status == 0, "\(importRun.stderr)")

        let fromFetch = try Self.contents(of: fetched), fromImport = try Self.contents(of: imported)
        #expect(fromFetch["quake"]?.count == catalogue.events.count)
        #expect(fromFetch["integrity"] == ["text(\"ok\")"])
        #expect(fromFetch["search region 07"]?.count == catalogue.events.filter { $0.code.hasSuffix("07") }.count)
        for key in fromImport.keys.sorted() {
            let a = fromFetch[key] ?? [], b = fromImport[key] ?? []
            let firstDifference = zip(a, b).first { $0 != $1 }
            #expect(a == b, "\(key): fetch \(a.count) lines, import \(b.count); first difference: \(String(describing: firstDifference))")
        }
    }
}
