import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import QuakeTime
import Testing

/// A launch starts the plain list from the sections the last one counted (`sections.cache`)
/// and merges the commits since; whatever does not fit is counted again, so what it shows is
/// always what a count shows.
@Suite struct SectionSnapshotTests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_699_920_000_000  // 2023-11-14 00:00 UTC
    static let utc = TimeZone(identifier: "UTC")!

    /// Quakes over `days` days, `perDay` a day, codes `prefix-N`.
    static func quakes(_ prefix: String, days: Int, perDay: Int, from start: Int64 = start) -> [QuakeRecord] {
        (0..<(days * perDay)).map { n in
            .fixture("\(prefix)-\(n)", time: start + Int64(n / perDay) * day + Int64(n % perDay) * 3_600_000)
        }
    }

    static func plain(_ zone: TimeZone = utc) -> SectionedFetchRequest { SectionedFetchRequest(timeZone: zone) }

    /// Counts the plain list and keeps its snapshot in the store's directory.
    static func keepSnapshot(_ store: TestStore, zone: TimeZone = utc) throws -> SectionSnapshot {
        let controller = try FetchedResultsController(container: store.container, request: plain(zone))
        defer { controller.close() }
        let snapshot = try #require(try controller.snapshot())
        snapshot.write(to: store.directory.url)
        return snapshot
    }

    /// A fresh controller resuming from the file, and one counting: the same sections.
    struct Outcome: Equatable {
        let resumed: Bool
        let same: Bool
    }

    static func resumeAndCount(_ store: TestStore, zone: TimeZone = utc) throws -> Outcome {
        let loaded = SectionSnapshot.load(from: store.directory.url)
        let resumed = try FetchedResultsController(container: store.container, request: plain(zone), resuming: loaded)
        defer { resumed.close() }
        let counted = try FetchedResultsController(container: store.container, request: plain(zone))
        defer { counted.close() }
        return Outcome(resumed: resumed.resumedFromSnapshot,
                       same: resumed.sections == counted.sections && resumed.count == counted.count && resumed.token == counted.token)
    }

    @Test func theFileReadsBackAsWritten() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 5, perDay: 3))
        let snapshot = try Self.keepSnapshot(store)
        #expect(snapshot.sections.count == 5)
        #expect(SectionSnapshot.load(from: store.directory.url) == snapshot)
        let mode = try FileManager.default.attributesOfItem(atPath: store.directory.url.appendingPathComponent("sections.cache").path)[.posixPermissions]
        #expect(mode as? Int == 0o600)
    }

    /// Inserts into a new day and an old one, an update that moves a quake to another day, a
    /// delete that empties a day: the merge since the snapshot gives what a count gives.
    @Test func aLaunchResumesFromTheSnapshotAndMergesTheCommitsSince() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 6, perDay: 2))
        _ = try Self.keepSnapshot(store)
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: true, same: true), "nothing committed since")

        try store.upsert(Self.quakes("new", days: 1, perDay: 4, from: Self.start + 9 * Self.day))
        try store.upsert([.fixture("old", time: Self.start + 2 * Self.day + 7)])
        try store.upsert([.fixture("a-0", time: Self.start + 7 * Self.day, updated: Self.start + 10 * Self.day)])
        let context = try store.container.newBackgroundContext(author: "test")
        defer { context.close() }
        let deleted = try context.performAndWait { tx in [try tx.deleteQuake(code: "a-2"), try tx.deleteQuake(code: "a-3")] }
        #expect(deleted == [true, true], "a day left empty")
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: true, same: true))
    }

    /// Commits past what a merge lists that only inserted (an import, a `fetch`): their rows are
    /// grouped by day and added, to old days and new ones on either side, also after the quakes
    /// with the largest ids were deleted before the snapshot.
    @Test func manyInsertsSinceAreAddedByDay() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 4, perDay: 2))
        let context = try store.container.newBackgroundContext(author: "test")
        defer { context.close() }
        #expect(try context.performAndWait { tx in try tx.deleteQuake(code: "a-7") })
        _ = try Self.keepSnapshot(store)
        try store.upsert(Self.quakes("b", days: 3, perDay: FetchedResultsController.maxListedChanges / 2, from: Self.start + 2 * Self.day))
        try store.upsert(Self.quakes("c", days: 2, perDay: 3, from: Self.start - 5 * Self.day))
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: true, same: true))
    }

    /// Past what a merge lists, with an update or a delete among the commits: counted again.
    @Test(arguments: ["update", "delete"])
    func manyCommitsThatAlsoChangedRowsAreCountedAgain(change: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 2))
        _ = try Self.keepSnapshot(store)
        try store.upsert(Self.quakes("b", days: 3, perDay: FetchedResultsController.maxListedChanges))
        if change == "update" {
            try store.upsert([.fixture("a-0", time: Self.start + 2 * Self.day, updated: Self.start + 10 * Self.day)])
        } else {
            let context = try store.container.newBackgroundContext(author: "test")
            defer { context.close() }
            #expect(try context.performAndWait { tx in try tx.deleteQuake(code: "a-1") })
        }
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: false, same: true))
    }

    /// Another store with as many commits (a store deleted and imported again) has other
    /// commits under the same tokens: its snapshot is not used.
    @Test func aSnapshotOfAnotherStoreIsNotUsed() throws {
        let clock = ManualClock()
        let first = try TestStore(clock: clock.clock)
        defer { first.remove() }
        try first.upsert(Self.quakes("a", days: 4, perDay: 2))
        let foreign = try Self.keepSnapshot(first)
        clock.advance(by: 60)
        let second = try TestStore(clock: clock.clock)
        defer { second.remove() }
        try second.upsert(Self.quakes("z", days: 4, perDay: 2, from: Self.start + 30 * Self.day))
        foreign.write(to: second.directory.url)
        #expect(try Self.resumeAndCount(second) == Outcome(resumed: false, same: true))
    }

    /// The snapshot's commit purged from the history (a store not opened for a week): counted.
    @Test func aPurgedCommitIsCountedAgain() throws {
        let clock = ManualClock()
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 2))
        _ = try Self.keepSnapshot(store)
        clock.advance(by: 8 * 86_400)
        try store.upsert([.fixture("later", time: Self.start + 5 * Self.day)])
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: false, same: true))
    }

    /// Days in another zone are other days: a snapshot for UTC is not read for Tokyo.
    @Test func anotherTimeZoneIsCountedAgain() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 5))
        _ = try Self.keepSnapshot(store)
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(try Self.resumeAndCount(store, zone: tokyo) == Outcome(resumed: false, same: true))
    }

    /// Every prefix of a good file, every single flipped byte of it, and random bytes: none
    /// reads as a snapshot, and the list is counted.
    @Test func aTornOrDamagedFileIsCountedAgain() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 2))
        let good = try Self.keepSnapshot(store).encoded()
        for length in 0..<good.count {
            #expect(SectionSnapshot.decode(Data(good[..<length])) == nil, "\(length) bytes")
        }
        for index in good.indices {
            var bad = good
            bad[index] ^= 0x5A
            #expect(SectionSnapshot.decode(Data(bad)) == nil, "byte \(index)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let noise = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SectionSnapshot.decode(Data(noise)) == nil)
        }
        try Data(good.prefix(good.count / 2)).write(to: store.directory.url.appendingPathComponent("sections.cache"))
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: false, same: true))
    }

    /// Only the plain list is kept: a search, a filter or another order has no snapshot.
    @Test func onlyThePlainListHasASnapshot() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 2, perDay: 2))
        var searched = Self.plain()
        searched.predicate.searchText = "chile"
        var byMagnitude = Self.plain()
        byMagnitude.sortDescriptor = QuakeSortDescriptor(.magnitude)
        for request in [searched, byMagnitude] {
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            #expect(try controller.snapshot() == nil)
        }
    }

    /// The browser's engine opens on the plain list whatever the saved order: it keeps what it
    /// counted when asked (after the first frame), and the next one starts from it, then from
    /// the one it merged commits into.
    @Test func anEngineKeepsWhatItCountedForTheNext() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 2))
        var byMagnitude = Self.plain()
        byMagnitude.sortDescriptor = QuakeSortDescriptor(.magnitude)
        let first = try ResultsEngine(container: store.container, request: byMagnitude)
        #expect(!first.startedFromSnapshot)
        first.keepSnapshot()
        first.close()
        let kept = try #require(SectionSnapshot.load(from: store.directory.url))
        try store.upsert([.fixture("later", time: Self.start + 4 * Self.day)])
        let second = try ResultsEngine(container: store.container, request: byMagnitude)
        #expect(second.startedFromSnapshot)
        #expect(second.sections.map(\.title).first == "M 4")
        second.keepSnapshot()
        second.close()
        let merged = try #require(SectionSnapshot.load(from: store.directory.url))
        #expect(merged.token > kept.token && merged.sections.count == kept.sections.count + 1)
    }

    /// What a hostile state directory may hold under the name: a link, a FIFO (whose open would
    /// block), a directory, a file past the limit. None is read, none blocks, the list is counted.
    @Test func aFileThatIsNotAPlainSnapshotIsNotRead() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 2))
        let good = try Self.keepSnapshot(store)
        let path = store.directory.url.appendingPathComponent("sections.cache").path
        let elsewhere = store.directory.url.appendingPathComponent("elsewhere").path
        try FileManager.default.moveItem(atPath: path, toPath: elsewhere)
        let makers: [(String, () throws -> Void)] = [
            ("a link to a good snapshot", { try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere) }),
            ("a FIFO", { #expect(mkfifo(path, 0o600) == 0) }),
            ("a directory", { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }),
            ("a file past the limit", {
                #expect(FileManager.default.createFile(atPath: path, contents: Data(good.encoded())))
                #expect(truncate(path, off_t(SectionSnapshot.maximumBytes + 1)) == 0)
            }),
        ]
        for (name, make) in makers {
            try make()
            #expect(SectionSnapshot.load(from: store.directory.url) == nil, "\(name)")
            #expect(try Self.resumeAndCount(store) == Outcome(resumed: false, same: true), "\(name)")
            try FileManager.default.removeItem(atPath: path)
        }
    }

    /// `snapshot` with some fields replaced, written to the store's directory.
    static func write(_ snapshot: SectionSnapshot, to store: TestStore, rules: String? = nil, origin: String? = nil,
                      sections: [QuakeSection]? = nil) {
        SectionSnapshot(timeZone: snapshot.timeZone, rules: rules ?? snapshot.rules, token: snapshot.token,
                        committedAt: snapshot.committedAt, origin: origin ?? snapshot.origin,
                        sections: sections ?? snapshot.sections).write(to: store.directory.url)
    }

    /// The commit's time alone does not name it: another process's commit at the same
    /// millisecond, under the same token, is another commit.
    @Test func theWritingProcessTellsCommitsApart() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 2))
        let good = try Self.keepSnapshot(store)
        Self.write(good, to: store, origin: "4242-deadbeef")
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: false, same: true))
    }

    /// Another build, or the system's time zone rules updated: the days are counted again.
    @Test func otherRulesAreCountedAgain() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 2))
        let good = try Self.keepSnapshot(store)
        #expect(good.rules == SectionSnapshot.rulesFingerprint(Self.utc))
        Self.write(good, to: store, rules: "another build")
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: false, same: true))
    }

    /// A snapshot that fits the commit but not the rows (counts moved between days, a day left
    /// out): the total tells the first; a merge meeting a row of the missing day reloads, and
    /// the launch shows the count, never a crash.
    @Test func aSnapshotOutOfStepWithTheRowsIsCountedAgain() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 4, perDay: 3))
        let good = try Self.keepSnapshot(store)
        var more = good.sections
        more[0].count += 1
        Self.write(good, to: store, sections: more)
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: false, same: true), "a total that is not the store's")

        var missing = good.sections
        let dropped = missing.remove(at: 1)
        missing[1].count += dropped.count  // the same total, a day short
        Self.write(good, to: store, sections: missing)
        // A quake of the dropped day (the second newest of four: a-6 … a-8) moved to the first.
        try store.upsert([.fixture("a-7", time: Self.start + 600_000, updated: Self.start + 9 * Self.day)])
        #expect(try Self.resumeAndCount(store) == Outcome(resumed: false, same: true), "a row in a day the snapshot lacks")
    }

    /// Days of 25 and 23 hours (New York's clocks going back in November and forward in
    /// March): the merge puts quakes in the days a count puts them in.
    @Test(arguments: [Int64(1_699_070_400_000), 1_710_043_200_000])  // 2023-11-04, 2024-03-10 04:00 UTC
    func daysOfAClockChangeResumeAsTheyCount(from start: Int64) throws {
        let newYork = TimeZone(identifier: "America/New_York")!
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<96).map { .fixture("h-\($0)", time: start + Int64($0) * 3_600_000) })
        _ = try Self.keepSnapshot(store, zone: newYork)
        try store.upsert((0..<24).map { .fixture("late-\($0)", time: start + 30 * 3_600_000 + Int64($0) * 1_800_000 + 1) })
        try store.upsert([.fixture("h-10", time: start + 70 * 3_600_000, updated: start + 200 * 3_600_000)])
        #expect(try Self.resumeAndCount(store, zone: newYork) == Outcome(resumed: true, same: true))
    }

    /// Counts past what any catalogue holds, a day or in all, do not read.
    @Test func countsPastTheLimitDoNotRead() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.quakes("a", days: 3, perDay: 2))
        let good = try Self.keepSnapshot(store)
        let limit = Int(SectionSnapshot.maximumRows)
        for counts in [[limit + 1, 1, 1], [limit, limit, 1], [Int.max, Int.max, Int.max]] {
            var sections = good.sections
            for index in sections.indices { sections[index].count = counts[index] }
            let bad = SectionSnapshot(timeZone: good.timeZone, rules: good.rules, token: good.token,
                                      committedAt: good.committedAt, origin: good.origin, sections: sections)
            #expect(SectionSnapshot.decode(Data(bad.encoded())) == nil, "\(counts)")
        }
    }
}
