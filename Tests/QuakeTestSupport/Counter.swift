import Foundation

/// A count that handlers on background queues bump and tests read.
///
/// ```swift
/// let seen = Counter()
/// let token = storage.onChange { seen.increment() }
/// #expect(eventually { seen.value == 1 })
/// ```
public final class Counter: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    public init() {}
    public func increment() { lock.lock(); count += 1; lock.unlock() }
    public var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
