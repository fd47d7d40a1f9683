import Foundation
import QuakeModel
import QuakeStore

/// Runs a ``RecordParser`` on its own thread, a few batches ahead of the consumer.
///
/// The store's import loop is single-threaded: it pulls a record, binds it, steps an
/// `INSERT`. With read-ahead, JSON parsing happens on the second core at the same time, so
/// on a 2-core machine it costs the import almost nothing. Memory stays bounded:
/// at most `maximumQueued` batches of `batchSize` records wait in the queue.
///
/// The parser, its input and its source are used only by the producer thread from `init`
/// until it exits; ``cancel()`` waits for that, so nothing outlives the reader.
final class ReadAhead: @unchecked Sendable {
    enum Item {
        case batch([QuakeRecord])
        case end
        case failure(FeedError)
    }

    private let condition = NSCondition()
    private var queue: [Item] = []
    private let maximumQueued: Int
    private var cancelled = false
    private var running = true
    private var skipsSnapshot: SkipLog
    private var bytesSnapshot: Int64 = 0

    /// Hands a non-Sendable value to the producer thread, which becomes its only user.
    private struct Handoff: @unchecked Sendable {
        let parser: any RecordParser
        let counter: CountingStream
    }

    init(parser: any RecordParser, counter: CountingStream, skips: SkipLog, batchSize: Int, maximumQueued: Int) {
        self.maximumQueued = max(1, maximumQueued)
        skipsSnapshot = skips
        bytesSnapshot = counter.count
        let handoff = Handoff(parser: parser, counter: counter)
        let size = max(1, batchSize)
        let thread = Thread { [self] in
            produce(handoff, skips: skips, batchSize: size)
        }
        thread.name = "QuakeFeed read-ahead"
        thread.start()
    }

    private func produce(_ handoff: Handoff, skips: SkipLog, batchSize: Int) {
        var skips = skips
        var batch: [QuakeRecord] = []
        batch.reserveCapacity(batchSize)
        defer {
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        while true {
            do {
                if let record = try handoff.parser.next(skips: &skips) {
                    batch.append(record)
                    if batch.count < batchSize { continue }
                    // Reversed so the consumer can popLast(), moving records out without copies.
                    guard publish([.batch(batch.reversed())], skips, handoff.counter.count) else { return }
                    batch.removeAll(keepingCapacity: true)
                } else {
                    _ = publish(batch.isEmpty ? [.end] : [.batch(batch.reversed()), .end], skips, handoff.counter.count)
                    return
                }
            } catch {
                _ = publish(batch.isEmpty ? [.failure(error)] : [.batch(batch.reversed()), .failure(error)],
                            skips, handoff.counter.count)
                return
            }
        }
    }

    /// Queues items, waiting while the queue is full; false when cancelled.
    private func publish(_ items: [Item], _ skips: SkipLog, _ bytes: Int64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= maximumQueued && !cancelled { condition.wait() }
        if cancelled { return false }
        queue += items
        skipsSnapshot = skips
        bytesSnapshot = bytes
        condition.broadcast()
        return true
    }

    /// The next item, waiting for the producer if needed.
    func take() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty { condition.wait() }
        let item = queue.removeFirst()
        condition.broadcast()
        return item
    }

    /// Skips and source bytes as of the last batch the producer queued.
    var progress: (skips: SkipLog, bytesRead: Int64) {
        condition.lock()
        defer { condition.unlock() }
        return (skipsSnapshot, bytesSnapshot)
    }

    /// Whether the producer thread is still working (false once it finished or was cancelled).
    var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    /// Stops the producer and waits until it no longer touches the parser or the source.
    /// (A producer blocked in `read(2)` on a pipe is waited for until that read returns.)
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }
}
