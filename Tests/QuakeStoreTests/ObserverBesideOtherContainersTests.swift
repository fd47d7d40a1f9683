import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// A second container of a store opened and closed in a process where one is open (a test's, a
/// benchmark's) leaves the first hearing commits, another process's too. Its header check used
/// to open and close a descriptor of the database file, which dropped every POSIX lock the
/// process held on it; the other process's writer then reset the WAL under the open
/// connections, and they never saw its commits again (quakebench's live rows lost all 40).
@Suite struct ObserverBesideOtherContainersTests {
    let probe = BuildProducts.executable("store-probe")

    @Test(arguments: [false, true])
    func aSecondContainerOpenedAndClosedLeavesTheFirstHearingCommits(fromAnotherProcess: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(ExpectedResults.variedRecords(count: 150))
        let other = try PersistentContainer(directory: store.directory.url)
        _ = try other.viewContext.read { db in try db.scalar("SELECT count(*) FROM quake") }
        other.close()
        let seen = Counter()
        let observer = try StoreChangeObserver(container: store.container) { seen.increment() }
        defer { observer.stop() }
        if fromAnotherProcess {
            #expect(try ChildProcess.run(probe, ["mutate", store.directory.path, "7"]).status == 0)
        } else {
            _ = try store.upsert([QuakeRecord.fixture("heard")])
        }
        // Within the observer's first follow-up checks, not its one-second timer.
        #expect(eventually(timeout: 0.9) { seen.value > 0 }, "the commit was heard")
    }
}
