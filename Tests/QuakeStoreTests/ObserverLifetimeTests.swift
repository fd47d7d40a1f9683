import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// An observer may be stopped and released at any moment, even while its coalesced check of a
/// commit it has just seen is still pending (it used to read a freed `unowned self`).
@Suite struct ObserverLifetimeTests {
    @Test func releasingAnObserverWhileItsCheckIsPendingIsSafe() throws {
        let clock = ManualClock()
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        let seen = Counter()
        for i in 0..<10 {
            let observer = try StoreChangeObserver(container: store.container) { seen.increment() }
            clock.advance(by: 0.005 + 0.05 + 0.25 + 1)  // the checks a start runs
            let before = clock.pendingCount
            _ = try store.upsert([QuakeRecord.fixture("lifetime\(i)")])
            // inotify has delivered: the coalesced check is scheduled, not yet run.
            #expect(eventually(timeout: 20) { clock.pendingCount > before }, "the coalesced check is scheduled")
            observer.stop()
        }
        clock.advance(by: 2)  // every pending check runs after its observer is gone
        #expect(seen.value == 0)
        #expect(try store.read { try $0.quakeCount() } == 10)
    }
}
