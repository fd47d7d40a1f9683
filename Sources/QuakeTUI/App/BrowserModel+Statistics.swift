import QuakeStore

/// The statistics view's update (issue 32): `=` opens and closes it; while it is open, a new
/// list (search, `:` filters, near-home, minimum magnitude, the time zone) or a change in the
/// store asks for new statistics with a new generation, and only the newest answer is kept.
extension BrowserModel {
    /// `=` (and `Esc` while open): opens or closes the view; the detail view gives way to it.
    func toggleStatistics() {
        state.statistics.isPresented.toggle()
        if state.statistics.isPresented { state.detailPresented = false }
    }

    /// The answer to `Effect.computeStatistics(_, generation)`: kept only for the newest generation.
    func receiveStatistics(generation: Int, _ outcome: Result<CatalogueStatistics, StatisticsFailure>) {
        guard generation == state.statistics.generation, state.statistics.isPending else { return }
        state.statistics.isPending = false
        switch outcome {
        case .success(let statistics): state.statistics.result = statistics
        case .failure(let failure): state.statistics.failure = failure.message
        }
    }

    /// After every action: `Effect.computeStatistics` when the open view's list changed (its
    /// result is dropped: another list's numbers would mislead) or the store did (its result
    /// stays, marked pending, until the new one arrives). Nothing while the view is closed.
    func statisticsReads(storeChanged: Bool) -> [Effect] {
        guard state.statistics.isPresented else { return [] }
        let request = StatisticsState.statisticsRequest(state.request)
        let listChanged = request != state.statistics.request
        guard listChanged || storeChanged else { return [] }
        if listChanged { state.statistics.result = nil }
        state.statistics.request = request
        state.statistics.generation += 1
        state.statistics.isPending = true
        state.statistics.failure = nil
        return [.computeStatistics(request, generation: state.statistics.generation)]
    }

    /// The computations the restored state is waiting for (after `restore`, which returns no
    /// effects, and its `pendingReads`): the statistics view or the Map tab was open when the
    /// scene was saved.
    public func resumeStatistics() -> [Effect] {
        statisticsReads(storeChanged: false) + densityReads(storeChanged: false)
    }
}

/// A statistics computation that failed, as the view says it.
public struct StatisticsFailure: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) { self.message = message }
}
