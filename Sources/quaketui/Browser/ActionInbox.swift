import Foundation
import QuakeTUI
import QuakeTUIRuntime

/// Actions posted from other threads (store changes, settings, refresh progress, handoff) for
/// the main loop to apply between keys. Posting writes to the wake-up pipe the loop blocks on
/// in `poll(2)`, so an action is handled at once and an idle loop never wakes to look.
final class ActionInbox: @unchecked Sendable {
    // @unchecked: `pending` is guarded by `lock`.
    private let lock = NSLock()
    private var pending: [Action] = []
    /// Another process committed: one flag for any number of commits, taken apart from the
    /// other actions (the loop merges them at its own pace, `MergePace`).
    private var storeChanged = false
    let wakeUp: WakeUpPipe

    init(wakeUp: WakeUpPipe) { self.wakeUp = wakeUp }

    func post(_ action: Action) {
        defer { wakeUp.wake() }
        lock.lock()
        defer { lock.unlock() }
        // A burst of commits needs one merge, and only the newest progress matters.
        switch (action, pending.last) {
        case (.storeChanged, _): storeChanged = true
        case (.refreshProgress, .refreshProgress?): pending[pending.count - 1] = action
        default: pending.append(action)
        }
    }

    /// Whether a commit was reported since the last call.
    func takeStoreChange() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { storeChanged = false }
        return storeChanged
    }

    /// The actions posted since the last call, in order (not `.storeChanged`: `takeStoreChange()`).
    func drain() -> [Action] {
        lock.lock()
        defer { lock.unlock() }
        let actions = pending
        pending.removeAll(keepingCapacity: true)
        return actions
    }
}
