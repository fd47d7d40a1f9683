import QuakeTUIRuntime
import Testing

/// A frame waits for the new-quake marks while the store is ahead of them (issue 52), a moment
/// at most, and never when a key was handled.
struct ArrivalsWaitTests {
    @Test func aFrameWaitsWhileTheMarksAreBehindThenIsDrawnAnyway() {
        var wait = ArrivalsWait()
        func holds(_ now: Double, _ behind: Bool, afterKey: Bool = false) -> Bool {
            wait.holdsFrame(at: now, marksBehind: behind, afterKey: afterKey)
        }
        #expect(!holds(100, false))
        #expect(wait.milliseconds(untilDrawAt: 100) == nil)
        // A merge, its arrivals read running: held, and the loop wakes when the wait ends.
        #expect(holds(100, true))
        #expect(wait.milliseconds(untilDrawAt: 100.125) == 125)
        #expect(holds(100.2, true))
        // A read slower than the wait: drawn as it stands, and not held again while it runs.
        #expect(!holds(100.25, true))
        #expect(wait.milliseconds(untilDrawAt: 100.3) == nil)
        #expect(!holds(100.4, true))
        // The read in: drawn, and the next commit waits afresh.
        #expect(!holds(100.5, false))
        #expect(holds(101, true))
    }

    @Test func aKeysFrameIsNeverHeld() {
        var wait = ArrivalsWait()
        func holds(_ now: Double, _ behind: Bool, afterKey: Bool = false) -> Bool {
            wait.holdsFrame(at: now, marksBehind: behind, afterKey: afterKey)
        }
        #expect(holds(100, true))
        #expect(!holds(100.01, true, afterKey: true))
        #expect(wait.milliseconds(untilDrawAt: 100.01) == nil)
    }
}
