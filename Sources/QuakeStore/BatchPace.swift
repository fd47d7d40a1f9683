/// How many rows the next transaction of a long job (a `delete` of a million quakes) takes,
/// so that each holds the store's one write lock for about ``target`` seconds: other writers
/// (a notes save, an import) wait for one batch at most, never for the whole job.
///
/// Each batch's time sets the next one's size: at most doubled after a fast one (a batch that
/// took 4 ms tells little about the next on a loaded machine), but cut at once to what would
/// have fitted after a slow one (a machine that stalls must not hold the lock for seconds a
/// batch, issue 57). Within ``smallest`` and ``largest``: a count of rows as well as a time, so
/// that a batch sized in a fast moment holds the lock for ``largest`` rows' worth of work at
/// most when the machine stalls under it.
public struct BatchPace: Sendable, Equatable {
    /// The time one batch should hold the lock.
    public static let target = 0.2
    public static let smallest = 100
    /// About 0.2 s of a delete at 1M quakes on an idle 2-core machine (23 µs a quake).
    public static let largest = 10_000
    /// The first batch's rows: small enough to take well under `target` on a slow disk.
    public static let first = 2_000

    /// The rows the next batch takes.
    public private(set) var rows: Int

    public init(rows: Int = BatchPace.first) {
        self.rows = min(Self.largest, max(Self.smallest, rows))
    }

    /// Sizes the next batch from one that did `done` rows in `seconds`.
    public mutating func record(rows done: Int, seconds: Double) {
        guard done > 0 else { return }
        let fitting = seconds > 0 ? Double(done) * Self.target / seconds : Double(rows) * 2
        let next = min(Double(rows) * 2, fitting)
        rows = min(Self.largest, max(Self.smallest, Int(next)))
    }
}
