import Foundation

/// Values that handlers on background queues append and tests read, in order.
///
/// ```swift
/// let delivered = Collected<UserActivity>()
/// let token = center.onActivity(for: .main) { delivered.append($0) }
/// #expect(eventually { delivered.values.map(\.quakeCode) == ["us7000abcd"] })
/// ```
public final class Collected<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `items` is guarded by `lock`.
    private let lock = NSLock()
    private var items: [Element] = []
    public init() {}
    public func append(_ value: Element) { lock.lock(); items.append(value); lock.unlock() }
    public var values: [Element] { lock.lock(); defer { lock.unlock() }; return items }
}
