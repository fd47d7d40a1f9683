import Foundation

/// When the browser merges what other processes committed (issue 57). A commit after a quiet
/// spell is merged at once (SPEC §9: a live change reaches the frame within 50 ms); while
/// commits keep coming (a `delete`'s hundreds of batches, a `fetch`'s windows) they are merged
/// together, at most once every ``interval(after:)`` — never less than ``shortest``, and four
/// times the last merge's own time, so merging takes at most a fifth of the loop whatever the
/// machine's load — and the last commit of a stream is always merged. A key handled in the same
/// turn of the loop goes first: the merge waits for the next turn, unless it is overdue by
/// another interval (keys held down never starve it).
///
/// A value on the loop's clock (seconds, monotonic); the loop asks it how long it may sleep.
///
/// ```swift
/// var pace = MergePace()
/// pace.noteChange()                                   // a commit was reported
/// if pace.isDue(at: now, afterKey: false) { merge(); pace.merged(at: now, took: 0.004) }
/// ```
public struct MergePace: Sendable, Equatable {
    /// The least time between two merges of a stream of commits: a commit reaches the frame
    /// within SPEC §5's 250 ms even right behind another.
    public static let shortest = 0.1
    /// The most: a stream is shown at least this often, however slow its merges.
    public static let longest = 2.0

    /// A commit was reported and not merged yet.
    public private(set) var isPending = false
    private var lastMerge: Double?
    private var lastDuration = 0.0

    public init() {}

    /// The time between two merges after one that took `duration` seconds.
    public static func interval(after duration: Double) -> Double {
        min(longest, max(shortest, 4 * duration))
    }

    /// When the pending merge is due (nil: none is pending).
    public func due() -> Double? {
        guard isPending else { return nil }
        guard let lastMerge else { return -.infinity }
        return lastMerge + Self.interval(after: lastDuration)
    }

    public mutating func noteChange() { isPending = true }

    /// Whether to merge now; `afterKey`: a key was handled in this turn of the loop.
    public func isDue(at now: Double, afterKey: Bool) -> Bool {
        guard let due = due(), now >= due else { return false }
        guard afterKey, let lastMerge else { return true }
        // Overdue by another interval: the keys have had their turn.
        return now >= lastMerge + 2 * Self.interval(after: lastDuration)
    }

    /// How long the loop may sleep before the pending merge is due (nil: no merge pending).
    public func milliseconds(untilDueAt now: Double) -> Int? {
        guard let due = due() else { return nil }
        guard due > now else { return 0 }
        return Int(((due - now) * 1000).rounded(.up))
    }

    /// A merge began at `now` and took `duration` seconds: every change reported before it began is in.
    public mutating func merged(at now: Double, took duration: Double) {
        isPending = false
        lastMerge = now
        lastDuration = max(0, duration)
    }
}
