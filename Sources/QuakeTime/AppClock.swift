import Dispatch
import Foundation

/// Where the app's time comes from: the current date, and delayed work. Injected into every
/// piece that waits or stamps (scene-storage coalescing, app-storage polling, the store
/// observer, the history's timestamps and purge), so tests move time themselves instead of
/// sleeping — swift-dependencies' `DateGenerator` and scheduler idea, without the package.
///
/// ```swift
/// let storage = try SceneStorage(state: state, scene: id, clock: .system)
/// clock.schedule(after: .milliseconds(40), on: queue) { write() }
/// let stamp = clock.now()
/// ```
public struct AppClock: Sendable {
    /// The current date.
    public var now: @Sendable () -> Date
    /// Runs `work` on `queue` once `delay` has passed.
    public var scheduleAfter: @Sendable (_ delay: DispatchTimeInterval, _ queue: DispatchQueue,
                                         _ work: @escaping @Sendable () -> Void) -> Void

    public init(now: @escaping @Sendable () -> Date,
                scheduleAfter: @escaping @Sendable (DispatchTimeInterval, DispatchQueue, @escaping @Sendable () -> Void) -> Void) {
        self.now = now
        self.scheduleAfter = scheduleAfter
    }

    /// The wall clock and `DispatchQueue.asyncAfter`.
    public static let system = AppClock(now: { Date() }, scheduleAfter: { delay, queue, work in
        queue.asyncAfter(deadline: .now() + delay, execute: work)
    })

    /// Runs `work` on `queue` once `delay` has passed.
    public func schedule(after delay: DispatchTimeInterval, on queue: DispatchQueue,
                         _ work: @escaping @Sendable () -> Void) {
        scheduleAfter(delay, queue, work)
    }
}
