import Foundation
import Testing

extension Trait where Self == WaitsOnProcessesTrait {
    /// The suite's tests spend most of their time blocked, waiting on processes they started
    /// (tmux, the `quaketui` binary, a local server): they run on threads of their own instead of
    /// Swift's cooperative pool, which has one thread per core. Blocked there, two of them
    /// would hold every thread of a 2-core machine while its cores idle; here the in-process
    /// tests go on beside them.
    public static var waitsOnProcesses: Self { WaitsOnProcessesTrait() }
}

/// Runs a suite with one of `ProcessWaitExecutor.shared`'s queues as its task executor
/// preference: its test functions (synchronous or not) and the child tasks they start run on
/// that executor's threads. Task-local values, so Swift Testing's issue reporting, are the task's
/// own and unchanged. A `.serialized` suite's tests go first: they are a chain, one test after
/// another, and a chain left to the end would keep one thread busy while the others idle.
public struct WaitsOnProcessesTrait: SuiteTrait, TestTrait, TestScoping {
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let isChain = test.traits.contains { $0 is ParallelizationTrait }
        let queue = isChain ? ProcessWaitExecutor.shared.first : ProcessWaitExecutor.shared.next
        try await withTaskExecutorPreference(queue) { try await function() }
    }
}

/// A fixed set of threads that run jobs from two queues, `first` before `next`, each in the
/// order its jobs come. Its width bounds how many tests marked `.waitsOnProcesses` run at once:
/// each one starts tmux sessions and processes that need the cores too, so more would only make
/// each one slower and the timing checks of some of them (a key drawn, `q` obeyed, within the
/// real budget) fail for want of a core.
public final class ProcessWaitExecutor: @unchecked Sendable {
    public static let shared = ProcessWaitExecutor(width: 2)

    /// One of the executor's queues, as a task executor.
    public final class Queue: TaskExecutor, @unchecked Sendable {
        unowned let pool: ProcessWaitExecutor
        let isFirst: Bool
        init(pool: ProcessWaitExecutor, isFirst: Bool) {
            self.pool = pool
            self.isFirst = isFirst
        }

        public func enqueue(_ job: consuming ExecutorJob) { pool.add(UnownedJob(job), to: self) }
    }

    private(set) public var first: Queue!
    private(set) public var next: Queue!
    private let condition = NSCondition()
    private var firstJobs: [(UnownedJob, Queue)] = []
    private var nextJobs: [(UnownedJob, Queue)] = []

    init(width: Int) {
        first = Queue(pool: self, isFirst: true)
        next = Queue(pool: self, isFirst: false)
        for index in 0..<width {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "waits-on-processes-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    func add(_ job: UnownedJob, to queue: Queue) {
        condition.lock()
        if queue.isFirst { firstJobs.append((job, queue)) } else { nextJobs.append((job, queue)) }
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while firstJobs.isEmpty && nextJobs.isEmpty { condition.wait() }
            let (job, queue) = firstJobs.isEmpty ? nextJobs.removeFirst() : firstJobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: queue.asUnownedTaskExecutor())
        }
    }
}
