import Foundation

/// A background reader that answers only the newest question: one serial queue reading on its
/// own connection, a newer job interrupting the one running (`sqlite3_interrupt`), each answer
/// tagged with the generation it was asked with. fzf's matcher in the shape of `CountWorker`:
/// a one-slot box, so an older job is overwritten, never queued.
///
/// ```swift
/// let reader = try LatestReader(container: container)
/// reader.submit(generation: 3) { db in try db.catalogueStatistics(of: request) } done: { generation, result in
///     inbox.post(…)   // on the reader's queue
/// }
/// ```
///
/// `done` is called once for each job that ran to its end (with its value or its error), never
/// for a job a newer one replaced or interrupted, and never after `close`.
public final class LatestReader: @unchecked Sendable {
    // @unchecked: `context` is used by the queue only; `latest`, `running` and `closed` are
    // guarded by `lock` (the context's `interrupt` may be called from any thread).
    public typealias Completion = @Sendable (_ generation: Int, _ result: Result<any Sendable, any Error>) -> Void

    private struct Job {
        var generation: Int
        var body: @Sendable (Connection) throws -> any Sendable
        var done: Completion
    }

    private let lock = NSLock()
    private let context: ViewContext
    private let queue = DispatchQueue(label: "quaketui.latest-reader", qos: .userInitiated)
    private var latest: Job?
    /// Changes with every submit and cancel: the running job stops once it is not its own.
    private var ticket = 0
    private var running = false
    private var closed = false

    /// A reader on a new read-only connection to `container`'s store.
    ///
    /// - Throws: `StoreError` when the connection cannot be opened.
    public init(container: PersistentContainer) throws {
        context = try container.newViewContext()
    }

    /// Runs `body` on the reader's connection (in one read transaction), interrupting the job
    /// running and replacing any job waiting; `done` gets the outcome on the reader's queue.
    public func submit<T: Sendable>(generation: Int, _ body: @escaping @Sendable (Connection) throws -> T,
                                    done: @escaping @Sendable (_ generation: Int, _ result: Result<T, any Error>) -> Void) {
        let job = Job(generation: generation, body: { try body($0) }) { generation, result in
            done(generation, result.map { $0 as! T })
        }
        lock.withLock {
            guard !closed else { return }
            latest = job
            ticket += 1
            if running {
                context.interrupt()
            } else {
                running = true
                queue.async { self.pump() }
            }
        }
    }

    /// Stops the running job and drops any waiting one, without waiting (neither is answered);
    /// the reader takes new jobs as before.
    public func cancel() {
        lock.withLock {
            latest = nil
            ticket += 1
            if running { context.interrupt() }
        }
    }

    /// Stops the running job, drops any waiting one, waits for the queue and closes the connection.
    public func close() {
        lock.withLock {
            closed = true
            latest = nil
            if running { context.interrupt() }
        }
        queue.sync {}
        context.close()
    }

    private func pump() {
        while true {
            let next: (Job, Int)? = lock.withLock {
                guard let job = latest else {
                    running = false
                    return nil
                }
                latest = nil
                return (job, ticket)
            }
            guard let (job, jobTicket) = next else { return }
            // Stopped by `interrupt` at once, and by the check (every 1,000 steps) when the
            // interrupt came between two statements, where SQLite forgets it.
            let isReplaced = { self.lock.withLock { self.ticket != jobTicket || self.closed } }
            let result = Result { () throws -> any Sendable in
                try context.read { db -> Sendable in try db.withCancellation(isReplaced) { try job.body(db) } }
            }
            // Superseded (a newer job waits), cancelled, interrupted or closed: nothing to report.
            let report = lock.withLock { ticket == jobTicket && !closed && !Self.isInterruption(result) }
            if report { job.done(job.generation, result) }
        }
    }

    private static func isInterruption(_ result: Result<any Sendable, any Error>) -> Bool {
        if case .failure(let error as SQLiteError) = result { return error.isInterrupted }
        return false
    }
}
