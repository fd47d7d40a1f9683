/// Whether `ResultsEngine` tries a request exactly within its budget, or answers with a
/// provisional window at once, from how long the exact answers before it took.
///
/// Trying a request that does not fit costs its key the whole budget before the window is read
/// (and clearing a large match set is one SQLite step that no deadline stops, 30 ms at 1M
/// quakes). So a request is tried only when the last one like it fitted:
/// - a new search or filter in the order shown: when the last request fitted (typing `alaska`,
///   each letter costs about what the one before it did);
/// - a new order: when that order's own last answer fitted. Another order's cost says nothing
///   of it: at 1M quakes a region count fits the budget and a depth count does not, and a
///   depth sort tried because the region count before it fitted added the budget to its key.
struct ExactAttempts: Equatable, Sendable {
    /// The last answer (tried, or counted in the background) took longer than the budget.
    private(set) var lastWasSlow = false
    /// The orders whose last answer took longer than the budget.
    private(set) var slowOrders: Set<QuakeSortOrder> = []

    /// Whether a request in `order` is tried exactly while the list shows `shown`.
    func tries(_ order: QuakeSortOrder, shown: QuakeSortOrder) -> Bool {
        order == shown ? !lastWasSlow : !slowOrders.contains(order)
    }

    /// An exact answer in `order` fitted the budget, or did not (a try interrupted, or a
    /// background count that took longer).
    mutating func record(_ order: QuakeSortOrder, withinBudget: Bool) {
        lastWasSlow = !withinBudget
        if withinBudget { slowOrders.remove(order) } else { slowOrders.insert(order) }
    }
}
