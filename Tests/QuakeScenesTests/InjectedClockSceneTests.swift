import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

/// Scene-storage coalescing and app-storage polling wait on an injected clock (issue 16), so
/// these tests move time by hand: no sleeps, no deadlines a loaded machine could miss.
@Suite struct InjectedClockSceneTests {
    @Test func aChangeIsWrittenWhenTheCoalescingDelayHasPassed() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let clock = ManualClock()
        let storage = try SceneStorage(state: state, scene: .main, restoring: false, clock: clock.clock)
        try storage.set("chile", for: SceneKeys.searchText)
        try storage.set("magnitude", for: SceneKeys.sortOrder)
        #expect(!storage.isFlushed, "kept in memory until the delay passes")
        #expect(clock.pendingCount == 1, "two changes, one write scheduled")
        #expect(readPlist(state.scenePlistPath(.main)) == nil)
        clock.advance(by: 0.039)
        #expect(!storage.isFlushed)
        clock.advance(by: 0.001)
        #expect(storage.isFlushed)
        let root = readPlist(state.scenePlistPath(.main))
        #expect(root?["ContentView.searchText"] == .string("chile"))
        #expect(root?["ContentView.sortOrder"] == .string("magnitude"))
    }

    /// A background save that fails tells the loop at once (it sleeps until something happens),
    /// and the notice is there for it to show.
    @Test func aFailedBackgroundSaveCallsTheNoticeHandler() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let clock = ManualClock()
        let storage = try SceneStorage(state: state, scene: .main, restoring: false, clock: clock.clock)
        let woken = Counter()
        storage.onNotice { woken.increment() }
        try? FileManager.default.removeItem(atPath: state.scenePlistPath(.main))
        try FileManager.default.createDirectory(atPath: state.scenePlistPath(.main) + "/blocker", withIntermediateDirectories: true)
        try storage.set("chile", for: SceneKeys.searchText)
        #expect(woken.value == 0)
        clock.advance(by: 0.04)
        #expect(woken.value == 1)
        #expect(storage.takeNotice()?.contains("Could not save scene") == true)
        // A key cleared the status line; the next save fails too and says so again, once.
        try storage.set("peru", for: SceneKeys.searchText)
        clock.advance(by: 0.04)
        try storage.set("fiji", for: SceneKeys.searchText)
        clock.advance(by: 0.04)
        #expect(woken.value == 2, "the same failure is not queued twice while it waits to be shown")
        #expect(storage.takeNotice()?.contains("Could not save scene") == true)
        #expect(storage.takeNotice() == nil)
        #expect(storage.lastWriteError != nil, "q still exits 1 saying the scene was not saved")
    }

    @Test func anotherProcesssChangeIsSeenAtTheNextPoll() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let clock = ManualClock()
        let watching = try AppStorage(state: state, pollingClock: clock.clock)
        let writer = try AppStorage(state: state)
        let changes = Counter()
        let token = watching.onChange { changes.increment() }
        defer { token.cancel() }
        try writer.set("utc", for: AppKeys.timeZone)
        #expect(changes.value == 0, "not before the poll")
        #expect(watching.value(for: AppKeys.timeZone) == "local")
        clock.advance(by: 0.25)
        #expect(changes.value == 1)
        #expect(watching.value(for: AppKeys.timeZone) == "utc")
        clock.advance(by: 1)
        #expect(changes.value == 1, "polls that find nothing new report nothing")
    }
}
