import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// A command that opens a big store of an older schema says, before the migration's seconds, that
/// it is upgrading it (once); a small store's upgrade, or a current store, says nothing.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct SchemaUpgradeNoticeTests {
    static let feed = "1.0_week-2019-02-16.geojson"

    /// A store of the current schema moved back to `version`, holding a quake whose id is `id`
    /// (the size the notice reads is the largest id: a store of a few quakes stands for a big one).
    static func writeStore(in dir: URL, version: Int, largestID: Int64?) throws {
        #expect(try QuaketuiBinary.run(["import", SharedData.url(feed).path], stateDirectory: dir).status == 0)
        let db = try Connection(path: dir.appendingPathComponent(PersistentContainer.fileName).path)
        defer { db.close() }
        if let largestID {
            let columns = try Self.columns(db)
            let copied = columns.map { $0 == "id" ? "\(largestID)" : $0 == "code" ? "'big' || code" : $0 }
            try db.execute("INSERT INTO quake (\(columns.joined(separator: ", "))) SELECT \(copied.joined(separator: ", ")) FROM quake LIMIT 1")
        }
        // Schema 22 added ComCat's aliases.
        if version < 22 {
            try db.execute("DROP TABLE quake_alias")
        }
        // Schema 19 added the digest's count of each kind's rows.
        if version < 19 {
            try db.execute("ALTER TABLE quake_digest_kind DROP COLUMN rows")
        }
        // Schema 17 (issue 53, watch) added a history column.
        if version < 17 {
            try db.execute("ALTER TABLE history_change DROP COLUMN oldAgencies")
        }
        // Schema 15 (issue 53, revisions) added a column, a table, an index and triggers (which
        // name schema 14's column: they go first).
        if version < 15 {
            try db.execute("""
                DROP TRIGGER quake_revision; DROP TRIGGER report_revision; DROP TABLE revision;
                DROP INDEX quake_revised; ALTER TABLE quake DROP COLUMN revised
                """)
        }
        // Schema 14 (issue 53) added a column and a table: a store moved back before it lacks them,
        // as a store written by that version does.
        if version < 14 {
            try db.execute("DROP TABLE report; ALTER TABLE quake DROP COLUMN agencies")
        }
        try db.execute("PRAGMA user_version = \(version)")
    }

    static func columns(_ db: Connection) throws -> [String] {
        let statement = try db.prepare("SELECT name FROM pragma_table_info('quake')")
        var names: [String] = []
        while try statement.step() { names.append(statement.text(at: 0)) }
        return names
    }

    @Test func aBigStoresUpgradeIsSaidOnceAndASmallOnesIsNot() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let version = try { () -> Int in
            let probe = dir.appending("probe")
            #expect(try QuaketuiBinary.run(["import", SharedData.url(Self.feed).path], stateDirectory: probe).status == 0)
            let db = try Connection(path: probe.appendingPathComponent(PersistentContainer.fileName).path)
            defer { db.close() }
            return Int(try db.scalar("PRAGMA user_version").int64 ?? 0)
        }()

        let big = dir.appending("big")
        try Self.writeStore(in: big, version: version - 1, largestID: 150_000)
        let first = try QuaketuiBinary.run(["import", SharedData.url(Self.feed).path], stateDirectory: big)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.split(separator: "\n").first.map(String.init)
                == "Upgrading the store (about 150,000 quakes) from schema version \(version - 1) to \(version): once, a few seconds per million quakes…",
                "\(first.stderr)")
        let again = try QuaketuiBinary.run(["import", SharedData.url(Self.feed).path], stateDirectory: big)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")

        // A command that only reads upgrades a writable store too, and says so on stderr alike.
        let read = dir.appending("read")
        try Self.writeStore(in: read, version: version - 1, largestID: 150_000)
        for command in [["info"], ["list", "--limit", "1"]] {
            let run = try QuaketuiBinary.run(command, stateDirectory: read)
            #expect(run.status == 0 && !run.stdout.contains("Upgrading"), "\(run.stdout)")
            let said = command == ["info"]
                ? ["Upgrading the store (about 150,000 quakes) from schema version \(version - 1) to \(version): once, a few seconds per million quakes…"]
                : []
            #expect(run.stderr.split(separator: "\n").map(String.init) == said, "\(command): \(run.stderr)")
        }

        let small = dir.appending("small")
        try Self.writeStore(in: small, version: version - 1, largestID: nil)
        let quiet = try QuaketuiBinary.run(["import", SharedData.url(Self.feed).path], stateDirectory: small)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
