import QuakeModel
import Foundation

/// A background reader that answers only the newest question: one serial queue running jobs on
/// one resource of its own (a connection, a spare results controller), a newer job interrupting
/// the one running (`sqlite3_interrupt`), each answer tagged with the generation it was asked
/// with. fzf's matcher (`src/matcher.go`): a one-slot box, so an older job is overwritten, never
/// queued. The statistics and the map's density run on one (`LatestReader(container:)`, whose
/// jobs read a `Connection`); so does the results engine's background count (its resource a
/// spare `FetchedResultsController`, handed over with `takeResource` and given back with `give`).
///
/// ```swift
/// let reader = try LatestReader(container: container)
/// reader.submit(generation: 3) { db in try db.catalogueStatistics(of: request) } done: { generation, result in
///     inbox.post(…)   // on the reader's queue
/// }
/// ```
///
/// `done` is called once for each job that ran to its end (with its value or its error), never
/// for a job a newer one replaced, `cancel` dropped or an interrupt stopped, and never after
/// `close`. When it is called no other job waits, and the resource is free to `takeResource()`.
public final class LatestReader<Resource>: @unchecked Sendable {
    // @unchecked: `resource` is used by the queue while `running` and otherwise only under
    // `lock`, which guards every other variable (`interrupt` may be called from any thread).

    /// What a running job knows of itself.
    struct Job {
        let generation: Int
        /// Whether a newer job, `cancel` or `close` has replaced this one: a job checks it
        /// between its statements (`Connection.withCancellation`), as an `sqlite3_interrupt`
        /// that comes between two statements is forgotten when the next one starts.
        let isReplaced: () -> Bool
    }

    /// A job waiting for the queue: its run, which tells whether it was interrupted and how to
    /// report its outcome.
    private struct Waiting {
        let generation: Int
        let run: (_ resource: () throws -> Resource, Job) -> (interrupted: Bool, report: () -> Void)
    }

    private let lock = NSLock()
    private let queue: DispatchQueue
    private let open: () throws -> Resource
    private let interrupt: (Resource) -> Void
    private let closeResource: (Resource) -> Void
    /// nil: not opened yet, or handed over (`takeResource`); the next job opens one.
    private var resource: Resource?
    private var latest: Waiting?
    /// Changes with every submit, cancel and close: the running job stops once it is not its own.
    private var ticket = 0
    private var running = false
    private var closed = false

    /// A reader on its own queue (`label`) holding `resource`, or opening one with `open` (on the
    /// queue, so that even that job can be interrupted) for the first job that finds none.
    /// `interrupt` stops a job running on the resource from another thread; `close` closes it.
    init(label: String, resource: Resource? = nil, open: @escaping () throws -> Resource,
         interrupt: @escaping (Resource) -> Void, close: @escaping (Resource) -> Void) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        self.resource = resource
        self.open = open
        self.interrupt = interrupt
        closeResource = close
    }

    /// Runs `body` on the queue with the reader's resource, interrupting the job running and
    /// replacing any job waiting; `done` gets the outcome on the reader's queue.
    func submit<T>(generation: Int, _ body: @escaping (Resource, Job) throws -> T,
                   done: @escaping (_ generation: Int, _ result: Result<T, any Error>) -> Void) {
        let job = Waiting(generation: generation) { resource, job in
            let result = Result { try body(resource(), job) }
            return (Self.isInterruption(result), { done(generation, result) })
        }
        lock.withLock {
            guard !closed else { return }
            latest = job
            ticket += 1
            if running {
                resource.map(interrupt)
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
            if running { resource.map(interrupt) }
        }
    }

    /// Stops the running job, drops any waiting one, waits for the queue and closes the resource.
    public func close() {
        lock.withLock {
            closed = true
            latest = nil
            ticket += 1
            if running { resource.map(interrupt) }
        }
        queue.sync {}
        let held: Resource? = lock.withLock {
            defer { resource = nil }
            return resource
        }
        held.map(closeResource)
    }

    /// The resource, handed over to the caller, when no job runs (nil while one does, or when
    /// the reader holds none); the next job opens another unless one is given back (`give`).
    func takeResource() -> Resource? {
        lock.withLock {
            guard !running else { return nil }
            defer { resource = nil }
            return resource
        }
    }

    /// Gives the reader a resource for its next jobs (closed at once if the reader is closed).
    func give(_ resource: Resource) {
        let unused: Resource? = lock.withLock {
            guard !closed else { return resource }
            self.resource = resource
            return nil
        }
        unused.map(closeResource)
    }

    private func pump() {
        while true {
            let next: (Waiting, Int)? = lock.withLock {
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
            let (interrupted, report) = job.run({ try self.heldOrOpened() }, Job(generation: job.generation, isReplaced: isReplaced))
            // Replaced (a newer job waits), cancelled or closed: nothing to report; on to the
            // next job, if any. A job still current has none waiting: the reader is idle, and
            // reports unless an interrupt stopped the job.
            let current = lock.withLock {
                let current = ticket == jobTicket && !closed
                if current { running = false }
                return current
            }
            guard current else { continue }
            if !interrupted { report() }
            return
        }
    }

    /// The resource a job runs on: the one held, or a new one, held from then on (so that
    /// `interrupt` reaches it).
    private func heldOrOpened() throws -> Resource {
        if let held = lock.withLock({ resource }) { return held }
        let opened = try open()
        lock.withLock { resource = opened }
        return opened
    }

    private static func isInterruption<T>(_ result: Result<T, any Error>) -> Bool {
        if case .failure(let error as SQLiteError) = result { return error.isInterrupted }
        return false
    }
}

extension LatestReader where Resource == ViewContext {
    /// A reader on a new read-only connection to `container`'s store.
    ///
    /// - Throws: `StoreError` when the connection cannot be opened.
    public convenience init(container: PersistentContainer) throws {
        self.init(label: "quaketui.latest-reader", resource: try container.newViewContext(),
                  open: { try container.newViewContext() }, interrupt: { $0.interrupt() }, close: { $0.close() })
    }

    /// Runs `body` on the reader's connection (in one read transaction), interrupting the job
    /// running and replacing any job waiting; `done` gets the outcome on the reader's queue.
    public func submit<T: Sendable>(generation: Int, _ body: @escaping @Sendable (Connection) throws -> T,
                                    done: @escaping @Sendable (_ generation: Int, _ result: Result<T, any Error>) -> Void) {
        submit(generation: generation, { (context: ViewContext, job: Job) in
            try context.read { db in try db.withCancellation(job.isReplaced) { try body(db) } }
        }, done: done)
    }
}
