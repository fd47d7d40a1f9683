/// The one-time messages a storage has for the status line (a file set aside, a value reset, a
/// failed save), and whom to wake when one is added. Not thread-safe by itself: its owner keeps
/// it under its own lock, and `onAdd` runs with that lock held.
///
/// ```swift
/// notices.add("Could not save scene main: …")   // wakes the loop through onAdd
/// let next = notices.take()
/// ```
struct NoticeQueue {
    private var pending: [String] = []
    /// Called after each notice added; it must be quick and must not call back into the owner
    /// (a wake-up pipe's `wake()` is the intended handler).
    var onAdd: (@Sendable () -> Void)?

    /// Adds `notice`, unless the same one is already waiting to be shown (a save that keeps
    /// failing says so once per showing, not once per attempt).
    mutating func add(_ notice: String) {
        guard !pending.contains(notice) else { return }
        pending.append(notice)
        onAdd?()
    }

    /// The oldest notice not yet shown, removed; nil if none.
    mutating func take() -> String? { pending.isEmpty ? nil : pending.removeFirst() }
}
