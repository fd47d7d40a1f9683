import Foundation
import QuakeStore
import QuakeTestSupport
import Testing

/// An observer may be stopped and released at any moment, even while its coalesced check of a
/// commit it has just seen is still pending (it used to read a freed `unowned self`).
@Suite struct ObserverLifetimeTests {
    @Test func releasingAnObserverRightAfterACommitIsSafe() throws {
        let store = try TestStore()
        defer { store.remove() }
        for i in 0..<10 {
            let observer = try StoreChangeObserver(container: store.container) {}
            _ = try store.upsert([QuakeRecord.fixture("lifetime\(i)")])
            usleep(2_000)  // inotify has delivered; the 5 ms coalesced check is pending
            observer.stop()
        }
        usleep(50_000)  // every pending check fires after its observer is gone
        #expect(try store.read { try $0.quakeCount() } == 10)
    }
}
