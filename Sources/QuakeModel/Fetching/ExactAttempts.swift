/// Whether a request is tried exactly within the results engine's budget, or answered with a
/// provisional window at once, from how long the exact answers of requests of the same shape
/// took. A value the browser's update keeps (`BrowserState.exactAttempts`) and asks with each
/// request (`ResultsQuery.triesExactly`), learning from each answer: the engine remembers none.
///
/// Trying a request that does not fit costs its key the whole budget before the window is read
/// (and clearing a large match set is one SQLite step that no deadline stops, 30 ms at 1M
/// quakes). What a request costs follows from its shape — its order, whether it searches, has a
/// minimum magnitude, and which kinds of filter — far more than from the request before it: at
/// 1M quakes a region count fits the budget and a depth count does not, and a depth sort tried
/// because the region count before it fitted added the budget to its key; near home (`~`) tried
/// after a plain list that fitted did the same. So a request is tried unless the last answer of
/// its shape (tried, or counted in the background) took longer than the budget.
///
/// ```swift
/// var attempts = ExactAttempts()
/// attempts.record(depthSort, withinBudget: false)   // answered provisionally
/// attempts.tries(depthSort)                          // false: its window at once next time
/// ```
public struct ExactAttempts: Equatable, Sendable {
    /// What decides a request's cost, not its values: typing `alaska` is one shape, each letter
    /// costing about what the one before it did.
    public struct Shape: Hashable, Sendable {
        public var order: QuakeSortOrder
        public var searches: Bool
        public var minimumMagnitude: Bool
        public var filters: Set<String>

        public init(_ request: SectionedFetchRequest) {
            order = request.sortDescriptor.order
            searches = !request.predicate.searchText.isEmpty
            minimumMagnitude = request.predicate.minimumMagnitude != nil
            filters = Set(request.predicate.rowFilters.map(Self.kind))
        }

        private static func kind(_ filter: RowFilter) -> String {
            switch filter {
            case .depth: "depth"
            case .magnitude: "magnitude"
            case .time: "time"
            case .eventType: "eventType"
            case .alert: "alert"
            case .felt: "felt"
            case .revised: "revised"
            case .magnitudeType: "magnitudeType"
            case .near: "near"
            case .intensity: "intensity"
            case .declustered: "declustered"
            }
        }
    }

    /// The shapes whose last answer took longer than the budget.
    public private(set) var slowShapes: Set<Shape> = []

    public init() {}

    /// Whether `request` is tried exactly.
    public func tries(_ request: SectionedFetchRequest) -> Bool {
        !slowShapes.contains(Shape(request))
    }

    /// An exact answer to `request` fitted the budget, or did not (a try interrupted, or a
    /// background count that took longer).
    public mutating func record(_ request: SectionedFetchRequest, withinBudget: Bool) {
        if withinBudget { slowShapes.remove(Shape(request)) } else { slowShapes.insert(Shape(request)) }
    }
}
