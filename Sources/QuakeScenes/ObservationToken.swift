import Foundation

/// Keeps an observation alive; ``cancel()`` (or dropping the token) ends it.
///
/// ```swift
/// let token = defaults.onChange { print("changed") }
/// token.cancel()
/// ```
/// `@unchecked Sendable`: the cancel closure is taken out under `mutex` and run once.
public final class ObservationToken: @unchecked Sendable {
    private let mutex = NSLock()
    private var onCancel: (@Sendable () -> Void)?

    init(_ onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    deinit { cancel() }

    /// Stops the observation; safe to call twice.
    public func cancel() {
        mutex.lock()
        let action = onCancel
        onCancel = nil
        mutex.unlock()
        action?()
    }
}
