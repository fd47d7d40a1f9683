import Foundation

/// The URLSession delegate queue, holding at most `bound` blocks: adding one more waits until
/// one has run. This is the helper's backpressure.
///
/// swift-corelibs-foundation hands each chunk of a body to the delegate with
/// `session.delegateQueue.addOperation { … didReceive: data … }`, called from libcurl's write
/// callback on the session's work queue. The delegate writes the chunk to stdout and blocks while
/// the pipe is full (the import is slower than the network), but curl would go on reading the
/// socket and queueing chunks here without end: an endless uncompressed body grew the helper by
/// 2 GB in 10 s. Waiting in `addOperation` holds the write callback, so curl stops reading the
/// socket and the kernel's TCP window stops the server, while this process holds `bound` chunks.
/// (Suspending the task instead takes its handle off curl's multi handle, which restarts the
/// transfer: see `Download.received(_:task:)`.)
///
/// Blocks added from the queue itself never wait (they could not be run). A block added through
/// `addOperation(_: Operation)` is not counted; URLSession adds its delegate calls as blocks.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: `pending` is under `condition`.
    private let condition = NSCondition()
    private var pending = 0
    let bound: Int

    /// A serial queue holding at most `bound` blocks.
    init(bound: Int) {
        precondition(bound > 0)
        self.bound = bound
        super.init()
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        condition.lock()
        if OperationQueue.current !== self {
            while pending >= bound { condition.wait() }
        }
        pending += 1
        condition.unlock()
        super.addOperation { [condition] in
            block()
            condition.lock()
            self.pending -= 1
            condition.signal()
            condition.unlock()
        }
    }

    /// Blocks added and not yet run.
    var pendingBlocks: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending
    }
}
