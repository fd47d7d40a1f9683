import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

@Suite struct OpeningTests {
    @Test func aNewStoreIsCreatedPrivateInWALMode() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let stateDir = dir.appending("state/nested")
        let container = try PersistentContainer(directory: stateDir)
        defer { container.close() }
        let mode = try container.viewContext.read { try $0.scalar("PRAGMA journal_mode").string }
        #expect(mode == "wal")
        #expect(try container.viewContext.read { try $0.scalar("PRAGMA user_version").int64 } == Int64(Schema.version))
        let attributes = try FileManager.default.attributesOfItem(atPath: container.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let dirAttributes = try FileManager.default.attributesOfItem(atPath: stateDir.path)
        #expect((dirAttributes[.posixPermissions] as? Int) == 0o700)
    }

    /// Opening an existing store of an older schema says so before it migrates (the caller tells
    /// the user when that takes a while), with the versions and about how many quakes; a store
    /// created new, or already current, says nothing.
    @Test func anUpgradeIsAnnouncedOnceWithTheVersionsAndTheSize() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let older = try PersistentContainer(directory: dir.url, migrations: Array(Schema.migrations.prefix(6)))
        let writer = try older.newBackgroundContext(author: "test")
        try writer.performAndWait { tx in for code in ["a", "b", "c"] { _ = try tx.upsert(.fixture(code)) } }
        writer.close()
        older.close()
        var heard: [SchemaUpgrade] = []
        let upgraded = try PersistentContainer(directory: dir.url) { heard.append($0) }
        upgraded.close()
        #expect(heard == [SchemaUpgrade(from: 6, to: Schema.version, quakes: 3)])
        let current = try PersistentContainer(directory: dir.url) { heard.append($0) }
        current.close()
        let created = try PersistentContainer(directory: dir.appending("new")) { heard.append($0) }
        created.close()
        #expect(heard.count == 1, "\(heard)")
    }

    @Test func anOlderSchemaIsMigratedForwardKeepingItsData() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let v1 = try PersistentContainer(directory: dir.url, migrations: Array(Schema.migrations.prefix(1)))
        let writer = try v1.newBackgroundContext(author: "test")
        // Written as version 1 wrote it (no source column yet).
        try writer.performAndWait { tx in
            try tx.connection.execute("""
                INSERT INTO quake (code, magnitude, place, time, updated, latitude, longitude, region, regionKey, placeKey)
                VALUES ('old', 4.5, 'Somewhere, CA', 1, 2, 3, 4, 'CA', 'ca', 'somewhere, ca')
                """)
        }
        writer.close()
        v1.close()
        let v3Migration = "ALTER TABLE quake ADD COLUMN migratedFlag INTEGER NOT NULL DEFAULT 7"
        let v3 = try PersistentContainer(directory: dir.url, migrations: Schema.migrations + [v3Migration])
        defer { v3.close() }
        #expect(try v3.viewContext.read { try $0.scalar("PRAGMA user_version").int64 } == Int64(Schema.version + 1))
        #expect(try v3.viewContext.read { try $0.scalar("SELECT migratedFlag FROM quake WHERE code = 'old'").int64 } == 7)
        let old = try #require(try v3.viewContext.read { try $0.quake(code: "old") })
        #expect(old.record.place == "Somewhere, CA" && old.record.magnitude == 4.5)
        // Rows stored before the source column existed are USGS rows.
        #expect(old.record.source == nil)
    }

    @Test func theSourceAgencyIsStored() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let container = try PersistentContainer(directory: dir.url)
        defer { container.close() }
        let writer = try container.newBackgroundContext(author: "test")
        var emsc = QuakeRecord.fixture("emsc:20240101_0000123")
        emsc.source = "emsc"
        try writer.performAndWait { tx in
            try tx.upsert(emsc)
            // An hour apart: another agency's report of the same time and place would be the
            // same event (issue 53), shown by its preferred (USGS) solution.
            try tx.upsert(.fixture("us1", time: emsc.time + 3_600_000))
        }
        // A changed source alone is a change.
        var moved = emsc
        moved.source = "iris"
        #expect(try writer.performAndWait { try $0.upsert(moved) } == .updated)
        writer.close()
        #expect(try container.viewContext.read { try $0.quake(code: "emsc:20240101_0000123") }?.record.source == "iris")
        #expect(try container.viewContext.read { try $0.quake(code: "us1") }?.record.source == nil)
    }

    /// Another process in the middle of a long write (a first launch's sample import in the pane
    /// beside, a million-quake `import`): a store at the current version opens at once and reads
    /// what was committed, instead of waiting for the write lock and failing after the busy
    /// timeout ("locked by another process for too long").
    @Test func aCurrentStoreOpensWhileAnotherConnectionWrites() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let first = try PersistentContainer(directory: dir.url)
        let writer = try first.newBackgroundContext(author: "test")
        _ = try writer.performAndWait { tx in try tx.upsert(.fixture("a")) }
        writer.close()
        first.close()
        let other = try Connection(path: dir.appending("quakes.sqlite").path)
        defer { other.close() }
        try other.execute("BEGIN IMMEDIATE")
        try other.execute("DELETE FROM quake")
        // Waiting for the lock would throw SQLITE_BUSY after the busy timeout: the lock is held throughout.
        let container = try PersistentContainer(directory: dir.url)
        defer { container.close() }
        #expect(try container.viewContext.read { try $0.scalar("SELECT count(*) FROM quake").int64 } == 1)
        try other.execute("ROLLBACK")
    }

    /// A first launch in several panes at once: every process creates the store together.
    /// Switching a new file to WAL takes an exclusive lock, and SQLite answers SQLITE_BUSY at
    /// once, without the busy handler, when two connections switch together (`quaketui list`
    /// in four processes at once failed about one time in fifteen). Threads of one process do
    /// not show it; processes do.
    @Test func aStoreCreatedByFourProcessesAtOnceOpensInEach() throws {
        let probe = BuildProducts.executable("store-probe")
        // One shell starts the four together (spawning them one by one from here staggers them
        // enough to hide the race); a failed probe prints its error.
        let script = #"for i in 1 2 3 4; do ("$0" open "$1/s" > /dev/null 2> "$1/err$i" || echo "failed: $(cat "$1/err$i")") & done; wait"#
        for round in 0..<60 {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, probe.path, dir.path])
            #expect(!result.stdout.contains("failed"), "round \(round): \(result.stdout)")
            if result.stdout.contains("failed") { return }
        }
    }

    @Test func aStoreFromANewerQuaketuiIsRefusedUntouched() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let container = try PersistentContainer(directory: dir.url)
        let writer = try container.newBackgroundContext(author: "test")
        try writer.performAndWait { tx in
            try tx.upsert(.fixture("a"))
            try tx.connection.execute("PRAGMA user_version = 99")
        }
        writer.close()
        container.close()
        let before = try Data(contentsOf: dir.appending("quakes.sqlite"))
        let error = #expect(throws: StoreError.self) { try PersistentContainer(directory: dir.url) }
        #expect(error?.code == .newerSchema(found: 99, supported: Schema.version))
        #expect(error?.description.contains("newer quaketui") == true)
        #expect(try Data(contentsOf: dir.appending("quakes.sqlite")) == before)
    }

    @Test(arguments: [
        ("text", Data("this is my shopping list\n".utf8)),
        ("binary", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })),
        ("corrupt", Data("SQLite format 3\0".utf8) + Data(repeating: 0xAB, count: 8192)),
    ])
    func aFileThatIsNotAStoreIsNamedAndLeftUntouched(kind: String, contents: Data) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("quakes.sqlite")
        try contents.write(to: path)
        let error = #expect(throws: StoreError.self) { try PersistentContainer(directory: dir.url) }
        #expect(error?.code == .notAStore || error?.code == .corrupt, "\(kind): \(String(describing: error))")
        #expect(error?.description.contains(path.path) == true)
        #expect(try Data(contentsOf: path) == contents)
        #expect(!FileManager.default.fileExists(atPath: path.path + "-wal"))
    }

    @Test func anSQLiteDatabaseOfAnotherAppIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("quakes.sqlite").path
        let other = try Connection(path: path)
        try other.execute("CREATE TABLE recipes(name TEXT)")
        other.close()
        let error = #expect(throws: StoreError.self) { try PersistentContainer(directory: dir.url) }
        #expect(error?.code == .notAStore)
    }

    @Test func aReadOnlyStateDirectoryIsNamedInAClearError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let readOnly = dir.appending("ro")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o555])
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir.path)
        // Root ignores permission bits, so as root the probe runs as `nobody`.
        let probe = BuildProducts.executable("store-probe")
        let result = getuid() == 0
            ? try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                   ["--reuid=65534", "--regid=65534", "--clear-groups", probe.path, "open", readOnly.path])
            : try ChildProcess.run(probe, ["open", readOnly.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cannot write the store \(readOnly.path)/quakes.sqlite"), "\(result.stderr)")
        #expect(result.stderr.contains("--state-dir"))
    }

    /// A store the user made read-only cannot be migrated. One that lacks only the indexes of
    /// later versions (`quake_place`, schema 5) is still read as it is, searches included; an
    /// older one is refused, saying so, and left alone.
    @Test(arguments: [(4, true), (3, false)])
    func aReadOnlyStoreBehindOnlyByIndexesIsReadAsItIs(version: Int, readable: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "quaketui-readonly-older")
        defer { directory.remove() }
        let older = try PersistentContainer(directory: directory.url, migrations: Array(Schema.migrations.prefix(version)))
        let writer = try older.newBackgroundContext(author: "test")
        try writer.performAndWait { tx in _ = try tx.upsert(.fixture("a", place: "10 km N of Anchorage, Alaska")) }
        writer.close()
        older.close()
        let path = directory.url.appendingPathComponent(PersistentContainer.fileName).path
        #expect(chmod(path, 0o400) == 0)
        defer { chmod(path, 0o600) }
        guard readable else {
            let error = #expect(throws: StoreError.self) { _ = try PersistentContainer(readingFrom: directory.url) }
            #expect(error?.code == .readOnlyOlderSchema(found: version, oldestReadable: Schema.oldestReadableVersion))
            // What went wrong, where, and what to do.
            let sentence = error?.sentence ?? ""
            for part in ["store \(directory.url.appendingPathComponent(PersistentContainer.fileName).path)", "older quaketui",
                         "store schema \(version)", "read-only", "chmod u+w", "--state-dir"] {
                #expect(sentence.contains(part), "\(part): \(sentence)")
            }
            return
        }
        let container = try PersistentContainer(readingFrom: directory.url)
        defer { container.close() }
        #expect(container.isReadOnly)
        let controller = try FetchedResultsController(container: container, request: SectionedFetchRequest(
            predicate: QuakePredicate(searchText: "a")))
        defer { controller.close() }
        #expect(controller.count == 1)
        #expect(try container.viewContext.read { try $0.scalar("PRAGMA user_version").int64 } == Int64(version))
    }

    /// A read-only store of schema 19 kept its magnitude counts cut at the integers (2.96 in
    /// `M 2`); read as it is, its magnitude sort still sections as the list shows (2.96 in `M 3`),
    /// counting from the rows.
    @Test func aReadOnlyStoreBeforeMagnitudesAsShownSectionsAsShown() throws {
        let records = SectionCountTests.records(magnitudes: [0.949, 0.95, 2.949, 2.96, 3.0, 5.949, 5.95, 7.1])
        let titles = try Self.readOnlySections(schema: 19, records, counted: SectionCountTests.magnitudeCountsOfSchema19,
                                               order: .magnitude)
        #expect(titles == ["M 6+", "M 5", "M 3", "M 2", "M 1", "M <1"])
    }

    /// The depth bands likewise (schema 20, digest format 4: the reader counts by SQL).
    @Test func aReadOnlyStoreBeforeDepthsAsShownSectionsAsShown() throws {
        let records = SectionCountTests.records(depths: [-0.04, 9.949, 9.96, 10, 99.94, 99.96, nil])
        let titles = try Self.readOnlySections(schema: 20, records, counted: SectionCountTests.depthCountsOfSchema20, order: .depth)
        #expect(titles == ["100–200 km deep", "90–100 km deep", "10–20 km deep", "0–10 km deep", "depth unknown"])
    }

    /// A store of `schema` holding `records` (counts kept as `counted`), made read-only and read
    /// in `order` descending: its sections are held to `ExpectedResults`; their titles returned.
    static func readOnlySections(schema: Int, _ records: [QuakeRecord], counted: String, order: QuakeSortOrder) throws -> [String] {
        let directory = try TemporaryDirectory(prefix: "quaketui-readonly-\(schema)")
        defer { directory.remove() }
        try SectionCountTests.olderStore(in: directory.url, schema: schema, records, counted: counted).close()
        let path = directory.url.appendingPathComponent(PersistentContainer.fileName).path
        #expect(chmod(path, 0o400) == 0)
        defer { chmod(path, 0o600) }
        let container = try PersistentContainer(readingFrom: directory.url)
        defer { container.close() }
        let utc = TimeZone(identifier: "UTC")!
        let request = SectionedFetchRequest(sortDescriptor: .init(order, ascending: false), timeZone: utc)
        let controller = try FetchedResultsController(container: container, request: request)
        defer { controller.close() }
        let expected = ExpectedResults.sections(records, order: order, ascending: false, timeZone: utc)
        #expect(controller.sections.map { "\($0.id):\($0.count)" } == expected.map { "\($0.id):\($0.codes.count)" })
        return controller.sections.map(\.title)
    }
}

/// Issue 29, point 4: "damaged" only once `PRAGMA quick_check` says so.
@Suite struct DamageConfirmationTests {
    @Test func sqlitesWordAloneOnASoundStoreIsAReadErrorToRunAgain() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<50).map { .fixture("q\($0)", time: Int64($0) * 1000) })
        let path = store.directory.url.appendingPathComponent("quakes.sqlite").path
        let raised = StoreError(SQLiteError(extendedCode: SQLiteError.corrupt, message: "database disk image is malformed"), path: path)
        #expect(raised.code == .unconfirmedCorrupt)
        let shown = raised.confirmingDamage()
        #expect(shown.code == .unconfirmedCorrupt)
        #expect(!shown.description.contains("damaged."), "\(shown)")
        #expect(shown.description.contains("run the command again"))
    }

    /// One EIO reading the store can surface as SQLITE_CORRUPT; the command line's sentence (the
    /// error's description, what ErrorPresenter prints) then said "(database disk image is
    /// malformed)" twice over, of a sound store. It names the errno, as the browser does, and
    /// SQLite's "malformed" goes to the log alone (issue 29).
    @Test func aReadErrorThatLooksLikeDamageNamesTheErrnoNotMalformed() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<50).map { .fixture("q\($0)", time: Int64($0) * 1000) })
        let path = store.directory.url.appendingPathComponent("quakes.sqlite").path
        let withErrno = StoreError(SQLiteError(extendedCode: SQLiteError.corrupt, message: "database disk image is malformed",
                                               systemErrno: EIO), path: path).confirmingDamage()
        #expect(withErrno.description.contains("(Input/output error)"), "\(withErrno)")
        #expect(withErrno.description.contains("not known to be damaged"), "\(withErrno)")
        let noErrno = StoreError(SQLiteError(extendedCode: SQLiteError.corrupt, message: "database disk image is malformed"),
                                 path: path).confirmingDamage()
        for error in [withErrno, noErrno] {
            for text in [error.description, error.readingDescription] {
                #expect(!text.contains("malformed") && !text.contains("disk image"), "\(text)")
            }
            #expect(error.detail?.contains("malformed") == true, "SQLite's word is kept for the log")
        }
        #expect(noErrno.description.hasPrefix("Could not read or write the store \(path). Nothing was changed, and the store is not known to be damaged"), "\(noErrno)")
        #expect(withErrno.readingDescription.contains("(Input/output error); it is not known to be damaged"), "\(withErrno.readingDescription)")
    }

    @Test func aStoreQuickCheckFindsDamagedIsCalledDamaged() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<2_000).map { .fixture("q\($0)", time: Int64($0) * 1000) })
        store.container.close()
        let path = store.directory.url.appendingPathComponent("quakes.sqlite").path
        // Overwrite the middle pages (index and table b-tree pages) with garbage.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 3)
        try handle.write(contentsOf: Data(repeating: 0x5A, count: Int(size / 3)))
        try handle.close()
        let raised = StoreError(SQLiteError(extendedCode: SQLiteError.corrupt, message: "database disk image is malformed"), path: path)
        let shown = raised.confirmingDamage()
        #expect(shown.code == .corrupt)
        #expect(shown.description.contains("is damaged"))
    }

    @Test func anIOErrorIsNeverAccessDeniedOrDamage() {
        let eio = SQLiteError(extendedCode: 14 /* SQLITE_CANTOPEN */, message: "unable to open database file", systemErrno: EIO)
        #expect(StoreError(eio, path: "/x").code == .ioError)
        let denied = SQLiteError(extendedCode: 14, message: "unable to open database file", systemErrno: EACCES)
        #expect(StoreError(denied, path: "/x").code == .accessDenied)
        let read = SQLiteError(extendedCode: 266 /* SQLITE_IOERR_READ */, message: "disk I/O error", systemErrno: EIO)
        #expect(StoreError(read, path: "/x").description.contains("Input/output error"))
    }
}
