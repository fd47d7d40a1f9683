import Foundation
import QuakeStore

/// A results engine's count answers (`ResultsEngine.onCounted`), queued for a test's thread in
/// the order they were posted, as the browser's inbox queues them for its loop.
public final class CountAnswers: @unchecked Sendable {
    // @unchecked: `answers` is guarded by `lock`.
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var answers: [ResultsEngine.CountAnswer] = []

    /// Takes `results`' answers from now on.
    public init(_ results: ResultsEngine) {
        results.onCounted = { [self] answer in
            lock.withLock { answers.append(answer) }
            ready.signal()
        }
    }

    /// The oldest answer not taken, waiting for one on the condition (nil: none in `seconds`).
    public func next(timeout seconds: Double = 60) -> ResultsEngine.CountAnswer? {
        guard ready.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { answers.removeFirst() }
    }
}
