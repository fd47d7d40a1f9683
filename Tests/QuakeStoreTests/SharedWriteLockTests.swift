import Foundation
import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 57, point 5: long writers share the store. A delete commits in batches, oldest first,
/// and a writer waiting behind it gets the lock between two; a writer behind a quaketui job that
/// cannot be batched (an import) waits with progress instead of failing; one behind another
/// program gives up with a sentence that blames no import.
@Suite struct SharedWriteLockTests {
    /// `count` quakes whose times are a shuffle of 0..<count seconds (ids and times disagree).
    static func shuffledStore(_ count: Int) throws -> TestStore {
        let store = try TestStore()
        var generator = SplitMix64(seed: 57)
        let times = (0..<count).shuffled(using: &generator)
        try store.upsert(times.enumerated().map { .fixture("q\($0.offset)", time: Int64($0.element) * 1000) })
        return store
    }

    @Test func aBatchedDeleteLeavesTheStoreAsADeleteBeforeSomeEarlierTimeAtEveryCommit() throws {
        let store = try Self.shuffledStore(3_000)
        defer { store.remove() }
        let context = try store.container.newBackgroundContext(author: "delete")
        defer { context.close() }
        let cutoff = Date(timeIntervalSince1970: 2_000)
        var seen: [[Int64]] = []
        let deleted = try context.performInBatches { tx, _ in
            // What the last commit left, read on the view's own connection.
            seen.append(try store.read { db in
                let statement = try db.prepare("SELECT time FROM quake ORDER BY time")
                var times: [Int64] = []
                while try statement.step() { times.append(statement.int64(at: 0)) }
                return times
            })
            let done = try tx.deleteOldestQuakes(before: cutoff, limit: 300)
            return (done, done == 300)
        }
        #expect(deleted == 2_000)
        #expect(seen.count == 7)  // six batches of 300 and one of 200, each seen from the start
        for (batch, times) in seen.enumerated() {
            let oldest = Int64(batch * 300) * 1000
            // Exactly the quakes from some time on: as `delete --before` that time would leave it.
            #expect(times == Array(stride(from: oldest, to: 3_000_000, by: 1000)))
        }
        #expect(try store.read { try $0.quakeCount() } == 1_000)
        #expect(try store.read { try $0.scalar("PRAGMA integrity_check").string } == "ok")
    }

    @Test func deleteAllInBatchesEmptiesTheStore() throws {
        let store = try Self.shuffledStore(1_500)
        defer { store.remove() }
        let context = try store.container.newBackgroundContext(author: "delete")
        defer { context.close() }
        let deleted = try context.performInBatches { tx, rows in
            let done = try tx.deleteOldestQuakes(limit: min(rows, 400))
            return (done, done == min(rows, 400))
        }
        #expect(deleted == 1_500)
        #expect(try store.read { try $0.quakeCount() } == 0)
    }

    @Test func aNotesSaveGetsTheLockWithinASecondWhileALongDeleteRuns() throws {
        let store = try Self.shuffledStore(2_000)
        defer { store.remove() }
        // Another container: its own connections and queue file descriptor, as another process.
        let other = try PersistentContainer(directory: store.directory.url)
        defer { other.close() }
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let deleter = try store.container.newBackgroundContext(author: "delete")
        defer { deleter.close() }
        nonisolated(unsafe) var batches = 0
        DispatchQueue.global().async {
            // 40 batches of 50 quakes, each holding the lock 100 ms: a 4 s delete.
            _ = try? deleter.performInBatches { tx, _ in
                batches += 1
                if batches == 1 { started.signal() }
                usleep(100_000)
                let done = try tx.deleteOldestQuakes(limit: 50)
                return (done, done == 50)
            }
            finished.signal()
        }
        started.wait()
        let notes = try other.newBackgroundContext(author: "notes")
        defer { notes.close() }
        var waits: [Double] = []
        for round in 0..<3 {
            let began = Date()
            #expect(try notes.performAndWait { try $0.setNotes("round \(round)", forCode: "q1999") })
            waits.append(Date().timeIntervalSince(began))
        }
        finished.wait()
        #expect(batches >= 20)  // the delete did run beside the saves
        #expect(waits.allSatisfy { $0 < 1 }, "waits \(waits)")
        #expect(try store.read { try $0.quakeCount() } == 0)
    }

    @Test func aWriterBehindAQuaketuiJobWaitsPastTheBusyTimeoutNamingIt() throws {
        let store = try Self.shuffledStore(10)
        defer { store.remove() }
        let other = try PersistentContainer(directory: store.directory.url)
        defer { other.close() }
        let holding = DispatchSemaphore(value: 0)
        let importer = try store.container.newBackgroundContext(author: "import")
        defer { importer.close() }
        let done = DispatchSemaphore(value: 0)
        // The import holds the lock until the waiting writer has said, past the busy timeout,
        // whom it waits for: a condition, not a sleep a loaded machine could outrun.
        let named = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? importer.performAndWait { _ in
                holding.signal()
                _ = named.wait(timeout: .now() + 60)
            }
            done.signal()
        }
        holding.wait()
        let notes = try other.newBackgroundContext(author: "notes", lockPatience: 300)
        defer { notes.close() }
        nonisolated(unsafe) var reports: [WriteLockWait] = []
        notes.onLockWait = { report in
            reports.append(report)
            named.signal()
        }
        #expect(try notes.performAndWait { try $0.setNotes("kept", forCode: "q1") })
        done.wait()
        #expect(reports.count >= 1)
        #expect(reports.allSatisfy { $0.holder == WriteLockHolder(author: "import", pid: getpid()) })
        #expect(reports.first?.sentence == "waiting for quaketui import (pid \(getpid())) to finish writing the store (1 s)")
        #expect(try store.read { try $0.scalar("SELECT notes FROM quake WHERE code = 'q1'").string } == "kept")
    }

    @Test func aWriterBehindAnotherProgramGivesUpWithoutBlamingAnImport() throws {
        let store = try Self.shuffledStore(10)
        defer { store.remove() }
        // A plain connection: what an sqlite3 shell holding the lock looks like.
        let foreign = try Connection(path: store.container.path, create: false)
        defer { foreign.close() }
        try foreign.execute("BEGIN IMMEDIATE")
        let notes = try store.container.newBackgroundContext(author: "notes", lockPatience: 300)
        defer { notes.close() }
        let began = Date()
        do {
            _ = try notes.performAndWait { try $0.setNotes("refused", forCode: "q1") }
            Issue.record("the save should have given up")
        } catch let error as StoreError {
            #expect(error.code == .busy)
            #expect(error.sentence == "The store \(store.container.path) stayed locked by another process for more than 10 s "
                    + "(not a quaketui command writing it). Nothing was changed; try again when that process has finished.")
        }
        #expect(Date().timeIntervalSince(began) < 2)
        try foreign.execute("ROLLBACK")
        // The queue file says no one waits once the writer gave up.
        #expect(WriterQueue(storePath: store.container.path)?.someoneIsWaiting == false)
    }

    @Test func batchPaceAimsEachBatchAtAFifthOfASecond() {
        var pace = BatchPace()
        #expect(pace.rows == 2_000)
        pace.record(rows: 2_000, seconds: 0.05)  // fast: doubled at most
        #expect(pace.rows == 4_000)
        pace.record(rows: 4_000, seconds: 0.16)
        #expect(pace.rows == 5_000)
        pace.record(rows: 5_000, seconds: 2)  // slow: cut at once to what would have fitted
        #expect(pace.rows == 500)
        pace.record(rows: 500, seconds: 0.01)
        #expect(pace.rows == 1_000)
        for _ in 0..<20 { pace.record(rows: pace.rows, seconds: 0.000_001) }
        #expect(pace.rows == BatchPace.largest)  // a count of rows too: a stall under it holds the lock this long at most
        for _ in 0..<20 { pace.record(rows: pace.rows, seconds: 100) }
        #expect(pace.rows == BatchPace.smallest)
    }

    @Test func aHolderLineIsReadOnlyWhenWhole() {
        #expect(WriteLockHolder(parsing: "delete 4242\n") == WriteLockHolder(author: "delete", pid: 4242))
        #expect(WriteLockHolder(parsing: "delete 4242") == nil)
        #expect(WriteLockHolder(parsing: "delete -1\n") == nil)
        #expect(WriteLockHolder(parsing: "\u{1b}[2J 42\n") == nil)
        #expect(WriteLockHolder(author: "notes", pid: 7).description == "a quaketui browser saving notes (pid 7)")
    }
}
