import Foundation
import QuakeTUI

/// Actions posted from other threads (store changes, settings, refresh progress, handoff) for
/// the main loop to apply between keys. The loop polls it at every key timeout.
final class ActionInbox: @unchecked Sendable {
    // @unchecked: `pending` is guarded by `lock`.
    private let lock = NSLock()
    private var pending: [Action] = []

    func post(_ action: Action) {
        lock.lock()
        defer { lock.unlock() }
        // A burst of commits needs one merge, and only the newest progress matters.
        switch (action, pending.last) {
        case (.storeChanged, .storeChanged?): return
        case (.refreshProgress, .refreshProgress?): pending[pending.count - 1] = action
        default: pending.append(action)
        }
    }

    func drain() -> [Action] {
        lock.lock()
        defer { lock.unlock() }
        let actions = pending
        pending.removeAll(keepingCapacity: true)
        return actions
    }
}
