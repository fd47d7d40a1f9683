import QuakeTUIRuntime
import Testing

/// When the browser merges other processes' commits (issue 57): a lone commit at once, a stream
/// of them at most once an interval that grows with the merge's own time, a key first.
struct MergePaceTests {
    @Test func aCommitAfterAQuietSpellIsMergedAtOnce() {
        var pace = MergePace()
        #expect(pace.milliseconds(untilDueAt: 100) == nil)
        #expect(!pace.isDue(at: 100, afterKey: false))
        pace.noteChange()
        #expect(pace.isDue(at: 100, afterKey: false))
        #expect(pace.milliseconds(untilDueAt: 100) == 0)
        pace.merged(at: 100, took: 0.01)
        #expect(!pace.isPending)
        // Long after the last merge: at once again.
        pace.noteChange()
        #expect(pace.isDue(at: 105, afterKey: false))
    }

    @Test func aStreamOfCommitsIsMergedOnceAnInterval() {
        var pace = MergePace()
        pace.noteChange()
        pace.merged(at: 100, took: 0.01)
        pace.noteChange()
        // 4 × 10 ms is less than the shortest interval: 0.1 s.
        #expect(!pace.isDue(at: 100.05, afterKey: false))
        #expect(pace.milliseconds(untilDueAt: 100.05) == 50)
        #expect(pace.isDue(at: 100.1, afterKey: false))
        // A merge that took 0.2 s (a loaded machine): the next waits 0.8 s.
        pace.merged(at: 100.1, took: 0.2)
        pace.noteChange()
        #expect(!pace.isDue(at: 100.8, afterKey: false))
        #expect(pace.isDue(at: 100.9, afterKey: false))
        // However slow, a stream is shown every 2 s.
        #expect(MergePace.interval(after: 30) == MergePace.longest)
        #expect(MergePace.interval(after: 0) == MergePace.shortest)
    }

    @Test func aKeyGoesFirstUntilTheMergeIsOverdueByAnotherInterval() {
        var pace = MergePace()
        pace.noteChange()
        pace.merged(at: 100, took: 0.05)  // interval 0.2 s
        pace.noteChange()
        #expect(pace.isDue(at: 100.25, afterKey: false))
        #expect(!pace.isDue(at: 100.25, afterKey: true))
        #expect(pace.isDue(at: 100.4, afterKey: true))
    }
}

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
