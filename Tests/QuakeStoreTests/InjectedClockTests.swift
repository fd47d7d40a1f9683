import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import QuakeTime
import Testing

/// The store reads time only from its injected clock (issue 16): history timestamps, the
/// hourly purge of history older than 7 days (per container, no process-global state), and
/// the observer's delays — so these tests move time by hand instead of sleeping.
@Suite struct InjectedClockTests {
    static let day: TimeInterval = 24 * 3600

    @Test func historyIsStampedWithTheClocksTime() throws {
        let clock = ManualClock()
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        try store.upsert([.fixture("a")])
        clock.advance(by: 90)
        try store.upsert([.fixture("b")])
        guard case .transactions(let txs, _) = try store.read({ try $0.history(after: .zero) }) else {
            Issue.record("expected transactions"); return
        }
        #expect(txs.map(\.timestamp) == [clock.now.addingTimeInterval(-90), clock.now])
    }

    /// A week and ten minutes on, the next commit purges the first one's history and a reader
    /// from before it is told to refetch; a purge runs at most once an hour, then catches up.
    @Test func historyOlderThanTheRetentionIsPurgedAndItsReadersExpire() throws {
        let clock = ManualClock()
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        let reader = try store.read { try $0.currentHistoryToken() }
        try store.upsert([.fixture("a")])          // t0: the purge runs, finds nothing
        let a = try store.read { try $0.currentHistoryToken() }
        clock.advance(by: 30 * 60)
        try store.upsert([.fixture("b")])          // t0 + 30 min: not due
        let b = try store.read { try $0.currentHistoryToken() }
        clock.advance(by: 7 * Self.day - 20 * 60)
        try store.upsert([.fixture("c")])          // t0 + 7 d 10 min: due; "a" is older than 7 days
        #expect(try store.read { try $0.purgedThrough() } == a)
        let latest = try store.read { try $0.currentHistoryToken() }
        #expect(try store.read { try $0.history(after: reader) } == .expired(latest: latest))
        #expect(try store.read { try $0.history(after: a) } != .expired(latest: latest), "a reader at a lost nothing")
        clock.advance(by: 30 * 60)
        try store.upsert([.fixture("d")])          // "b" is now older than 7 days, but the purge ran 30 min ago
        #expect(try store.read { try $0.purgedThrough() } == a)
        clock.advance(by: 40 * 60)
        try store.upsert([.fixture("e")])          // past the hour: it runs and takes "b"
        #expect(try store.read { try $0.purgedThrough() } == b)
        #expect(try store.read { try $0.quakeCount() } == 5, "the purge touches history only")
    }

    /// Two stores in one process purge on their own schedules (the purge used to keep one
    /// process-wide `lastRun`, so a second store's purge waited for the first one's hour).
    @Test func eachContainerPurgesOnItsOwn() throws {
        let clock = ManualClock()
        let first = try TestStore(clock: clock.clock)
        defer { first.remove() }
        let second = try TestStore(clock: clock.clock)
        defer { second.remove() }
        try second.upsert([.fixture("a")])
        let token = try second.read { try $0.currentHistoryToken() }
        clock.advance(by: 8 * Self.day)
        try first.upsert([.fixture("x")])
        try second.upsert([.fixture("b")])
        #expect(try second.read { try $0.purgedThrough() } == token)
    }

    /// The observer's coalesced check waits on the clock: nothing is reported before it runs,
    /// one change after. Woken by inotify, it schedules nothing while idle.
    @Test func theObserverReportsACommitWhenItsCheckRuns() throws {
        let clock = ManualClock()
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        let seen = Counter()
        let observer = try StoreChangeObserver(container: store.container) { seen.increment() }
        defer { observer.stop() }
        clock.advance(by: 0.005 + 0.05 + 0.25 + 1)  // the checks a start runs
        #expect(clock.pendingCount == 0, "no timed checks while the kernel can wake it")
        try store.upsert([.fixture("a")])
        #expect(eventually(timeout: 20) { clock.pendingCount == 1 }, "inotify schedules the coalesced check")
        #expect(seen.value == 0)
        clock.advance(by: 0.005)
        #expect(seen.value == 1)
        // The commit's last file events (the WAL index) can arrive after the check ran, on a
        // loaded machine, and schedule one more: it finds nothing new to report.
        clock.advance(by: 0.005)
        #expect(seen.value == 1)
    }

    /// A commit's WAL write is heard before its WAL index header makes it visible: a writer
    /// descheduled between the two leaves a check seeing nothing new, and no event follows. So
    /// a check, whether an event woke it or the observer's start ran it (a commit under way then
    /// made its events before the watch began), is followed by checks that find the commit. (The
    /// stress runs caught both: a first launch's refresh imported 4,711 quakes, another's
    /// replaced the sample as its watching began, and each list kept the sample's 775.)
    @Test(arguments: [false, true])
    func aCommitSeenOnlyAfterACheckIsFoundByItsFollowUps(atStart: Bool) throws {
        let clock = ManualClock()
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        let seen = Counter()
        // No kernel events (the test stands in for them) and no timed checks within the test.
        let observer = try StoreChangeObserver(container: store.container, safetyInterval: 3600, events: nil) { seen.increment() }
        defer { observer.stop() }
        if atStart {
            #expect(clock.pendingCount == 2, "the hourly check and the start's check")
        } else {
            clock.advance(by: 0.005 + 0.05 + 0.25 + 1)  // the checks a start runs
            #expect(clock.pendingCount == 1, "the hourly check")
            observer.fileChanged()
            #expect(eventually(timeout: 20) { clock.pendingCount == 2 }, "the woken check")
        }
        clock.advance(by: 0.005)
        #expect(seen.value == 0, "the commit is not visible yet")
        try store.upsert([.fixture("a")])
        clock.advance(by: 0.05)
        #expect(seen.value == 1, "the first follow-up finds it")
        clock.advance(by: 0.25 + 1)
        #expect(seen.value == 1, "the later ones find nothing new")
        #expect(clock.pendingCount == 1, "then only the hourly check is left")
    }

    /// Without the kernel's file events, a check every second finds the commit.
    @Test func withoutFileEventsTheTimedCheckFindsACommit() throws {
        let clock = ManualClock()
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        let seen = Counter()
        let observer = try StoreChangeObserver(container: store.container, events: nil) { seen.increment() }
        defer { observer.stop() }
        #expect(clock.pendingCount == 2, "the timed check and the start's check")
        try store.upsert([.fixture("a")])
        #expect(seen.value == 0)
        clock.advance(by: 1)
        #expect(seen.value == 1)
        clock.advance(by: 5)
        #expect(seen.value == 1, "the checks after it find nothing new")
    }
}
