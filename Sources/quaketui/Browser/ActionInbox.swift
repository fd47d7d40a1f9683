import Foundation
import QuakeTUI
import QuakeTUIRuntime
import QuakeStore

/// What other threads post for the main loop to handle between keys, in order: actions (store
/// changes, settings, refresh progress, handoff), and the results engine's answers of its
/// background count, which the loop's performer takes in (`BrowserModel.takeCount`) and hands
/// to the update as an action carrying its results. Posting writes to the wake-up pipe the
/// loop blocks on in `poll(2)`, so a post is handled at once and an idle loop never wakes to look.
final class ActionInbox: @unchecked Sendable {
    // @unchecked: `pending` is guarded by `lock`.
    private let lock = NSLock()
    private var pending: [Posted] = []
    /// Another process committed: one flag for any number of commits, taken apart from the
    /// other actions (the loop merges them at its own pace, `MergePace`).
    private var storeChanged = false
    let wakeUp: WakeUpPipe

    enum Posted {
        case action(Action)
        /// The engine's `onCounted`: a count's answer (its results, or its failure).
        case counted(ResultsEngine.CountAnswer)
    }

    init(wakeUp: WakeUpPipe) { self.wakeUp = wakeUp }

    func post(_ action: Action) { post(.action(action)) }

    func post(_ posted: Posted) {
        defer { wakeUp.wake() }
        lock.lock()
        defer { lock.unlock() }
        // A burst of commits needs one merge, and only the newest progress matters.
        switch (posted, pending.last) {
        case (.action(.storeChanged), _): storeChanged = true
        case (.action(.refreshProgress), .action(.refreshProgress)?): pending[pending.count - 1] = posted
        default: pending.append(posted)
        }
    }

    /// Whether a commit was reported since the last call.
    func takeStoreChange() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { storeChanged = false }
        return storeChanged
    }

    /// What was posted since the last call, in order (not `.storeChanged`: `takeStoreChange()`).
    func drain() -> [Posted] {
        lock.lock()
        defer { lock.unlock() }
        let posted = pending
        pending.removeAll(keepingCapacity: true)
        return posted
    }
}
