import QuakeModel
/// Whether `ResultsEngine` tries a request exactly within its budget, or answers with a
/// provisional window at once, from how long the exact answers of requests of the same shape
/// took.
///
/// Trying a request that does not fit costs its key the whole budget before the window is read
/// (and clearing a large match set is one SQLite step that no deadline stops, 30 ms at 1M
/// quakes). What a request costs follows from its shape — its order, whether it searches, has a
/// minimum magnitude, and which kinds of filter — far more than from the request before it: at
/// 1M quakes a region count fits the budget and a depth count does not, and a depth sort tried
/// because the region count before it fitted added the budget to its key; near home (`~`) tried
/// after a plain list that fitted did the same. So a request is tried unless the last answer of
/// its shape (tried, or counted in the background) took longer than the budget.
struct ExactAttempts: Equatable, Sendable {
    /// What decides a request's cost, not its values: typing `alaska` is one shape, each letter
    /// costing about what the one before it did.
    struct Shape: Hashable, Sendable {
        var order: QuakeSortOrder
        var searches: Bool
        var minimumMagnitude: Bool
        var filters: Set<String>

        init(_ request: SectionedFetchRequest) {
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
            }
        }
    }

    /// The shapes whose last answer took longer than the budget.
    private(set) var slowShapes: Set<Shape> = []

    /// Whether `request` is tried exactly.
    func tries(_ request: SectionedFetchRequest) -> Bool {
        !slowShapes.contains(Shape(request))
    }

    /// An exact answer to `request` fitted the budget, or did not (a try interrupted, or a
    /// background count that took longer).
    mutating func record(_ request: SectionedFetchRequest, withinBudget: Bool) {
        if withinBudget { slowShapes.remove(Shape(request)) } else { slowShapes.insert(Shape(request)) }
    }
}
