import QuakeModel
import Foundation

/// The background half of `ResultsEngine`: a `LatestReader` whose resource is a spare
/// controller, configuring it for the latest request (a newer one interrupts it), and keeping
/// the outcome for the engine to `take` on its own thread with the controller that holds it.
final class CountWorker: Sendable {
    struct Job {
        var request: SectionedFetchRequest
        var anchorCode: String?
        var generation: Int
    }

    /// What the engine and the queue share: what the engine takes (the last job's outcome: the
    /// offset of its anchor and how long it took; a distance sort's sections counted before its
    /// table is built), the engine's callback, and the time zone of the latest job.
    private struct Outcome {
        var finished: (generation: Int, result: Result<(Int?, Duration), any Error>)?
        var countedBands: (generation: Int, sections: [QuakeSection])?
        var onSettled: (@Sendable () -> Void)?
        var timeZone = TimeZone(identifier: "UTC")!
    }

    private let reader: LatestReader<FetchedResultsController>
    private let outcome: LockedValue<Outcome>

    var onSettled: (@Sendable () -> Void)? {
        get { outcome.withLock { $0.onSettled } }
        set { outcome.withLock { $0.onSettled = newValue } }
    }

    /// A worker that opens its controller for the first count, on its queue, on the plain time
    /// order in the job's zone (the kept counts answer it at once), so that even that count can
    /// be interrupted.
    init(container: PersistentContainer) {
        let outcome = LockedValue(Outcome())
        self.outcome = outcome
        reader = LatestReader(label: "quaketui.results.count", open: { [outcome] in
            try FetchedResultsController(container: container,
                                         request: SectionedFetchRequest(timeZone: outcome.withLock { $0.timeZone }))
        }, interrupt: { $0.interrupt() }, close: { $0.close() })
    }

    /// Starts counting `job`, interrupting the count of an older one.
    func submit(_ job: Job) {
        forget()
        outcome.withLock { $0.timeZone = job.request.timeZone }
        reader.submit(generation: job.generation, { [outcome] controller, running in
            let started = ContinuousClock.now
            let offset = try controller.configure(job.request, anchoring: job.anchorCode, withinNanoseconds: nil,
                                                  isCancelled: running.isReplaced) { sections in
                // Handed over unless a newer job replaced this one (the engine asks by generation).
                guard !running.isReplaced() else { return }
                let settled = outcome.withLock { $0.countedBands = (job.generation, sections); return $0.onSettled }
                settled?()
            }
            return (offset, ContinuousClock.now - started)
        }, done: { [outcome] generation, result in
            let settled = outcome.withLock { $0.finished = (generation, result); return $0.onSettled }
            settled?()
        })
    }

    /// Drops the pending job (the request was applied exactly meanwhile).
    func cancel() {
        forget()
        reader.cancel()
    }

    /// The finished result for `generation`: on success with the controller holding it (handed
    /// over: the worker has none until `giveSpare`). nil while it runs, or when a newer job replaced it.
    func take(generation: Int) -> Result<(FetchedResultsController, Int?, Duration), any Error>? {
        guard let finished = outcome.withLock({ $0.finished }), finished.generation == generation else { return nil }
        switch finished.result {
        case .failure(let error):
            outcome.withLock { $0.finished = nil }
            return .failure(error)
        case .success(let (offset, duration)):
            guard let controller = reader.takeResource() else { return nil }
            outcome.withLock { $0.finished = nil }
            return .success((controller, offset, duration))
        }
    }

    /// The band counts of a distance sort's job `generation`, once (nil: none, or taken).
    func takeCountedBands(generation: Int) -> [QuakeSection]? {
        outcome.withLock {
            guard let counts = $0.countedBands, counts.generation == generation else { return nil }
            $0.countedBands = nil
            return counts.sections
        }
    }

    /// Gives the worker a controller to count with (the one a settle replaced).
    func giveSpare(_ controller: FetchedResultsController) {
        reader.give(controller)
    }

    /// Stops the running count and waits for the queue, then closes the spare.
    func close() {
        forget()
        reader.close()
    }

    /// Forgets what an older job left for the engine.
    private func forget() {
        outcome.withLock {
            $0.finished = nil
            $0.countedBands = nil
        }
    }
}
