import Foundation
import QuakeTime

/// A clock tests move by hand: `now` stands still until ``advance(by:)``, which runs the work
/// that became due (on its queue, in order of due time) and waits for it to finish.
///
/// ```swift
/// let clock = ManualClock()
/// let storage = try SceneStorage(state: state, scene: id, clock: clock.clock)
/// try storage.set("x", for: SceneKeys.searchText)   // nothing written yet
/// clock.advance(by: 0.1)                            // the coalesced write ran
/// ```
public final class ManualClock: @unchecked Sendable {
    // @unchecked: `current` and `pending` are only touched while `lock` is held.
    private let lock = NSLock()
    private var current: Date
    private var pending: [(due: Date, order: Int, queue: DispatchQueue, work: @Sendable () -> Void)] = []
    private var counter = 0

    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = now }

    /// The clock to inject.
    public var clock: AppClock {
        AppClock(now: { [self] in now }, scheduleAfter: { [self] delay, queue, work in
            lock.lock()
            defer { lock.unlock() }
            counter += 1
            pending.append((current.addingTimeInterval(Self.seconds(delay)), counter, queue, work))
        })
    }

    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// How many scheduled pieces of work have not run yet.
    public var pendingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.count
    }

    /// Moves time forward, running (and waiting for) every piece of work that became due,
    /// including work that work scheduled within the same span.
    public func advance(by seconds: TimeInterval) {
        lock.lock()
        let target = current.addingTimeInterval(seconds)
        lock.unlock()
        while true {
            lock.lock()
            let due = pending.enumerated().filter { $0.element.due <= target }
                .min { ($0.element.due, $0.element.order) < ($1.element.due, $1.element.order) }
            guard let (index, next) = due else {
                current = target
                lock.unlock()
                return
            }
            pending.remove(at: index)
            current = max(current, next.due)
            lock.unlock()
            next.queue.sync(execute: next.work)
        }
    }

    public static func seconds(_ interval: DispatchTimeInterval) -> TimeInterval {
        switch interval {
        case .seconds(let s): TimeInterval(s)
        case .milliseconds(let ms): TimeInterval(ms) / 1_000
        case .microseconds(let us): TimeInterval(us) / 1_000_000
        case .nanoseconds(let ns): TimeInterval(ns) / 1_000_000_000
        case .never: .infinity
        @unknown default: 0
        }
    }
}
