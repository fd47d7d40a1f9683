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
