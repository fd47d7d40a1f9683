import QuakeModel

/// The statistics view's update (issue 32): `=` opens and closes it; while it is open, a new
/// list (search, `:` filters, near-home, minimum magnitude, the time zone) or a change in the
/// store asks for new statistics with a new generation, and only the newest answer is kept.
extension BrowserState {
    /// `=` (and `Esc` while open): opens or closes the view; the detail view gives way to it.
    mutating func toggleStatistics() {
        self.statistics.isPresented.toggle()
        if self.statistics.isPresented { self.detailPresented = false }
    }

    /// The answer to `Effect.computeStatistics(_, generation)`: kept only for the newest generation.
    mutating func receiveStatistics(generation: Int, _ outcome: Result<CatalogueStatistics, StatisticsFailure>) {
        guard generation == self.statistics.generation, self.statistics.isPending else { return }
        self.statistics.isPending = false
        self.statistics.progress = nil
        switch outcome {
        case .success(let statistics): self.statistics.result = statistics
        case .failure(let failure): self.statistics.failure = failure.message
        }
    }

    /// The counts of the newest computation before its magnitude types and moment: shown while
    /// it is still pending.
    mutating func receivePartialStatistics(generation: Int, _ statistics: CatalogueStatistics) {
        guard generation == self.statistics.generation, self.statistics.isPending else { return }
        self.statistics.result = statistics
    }

    /// How far the newest computation's declustering is: shown while it is pending.
    mutating func receiveStatisticsProgress(generation: Int, fraction: Double) {
        guard generation == self.statistics.generation, self.statistics.isPending, fraction.isFinite else { return }
        self.statistics.progress = min(max(fraction, 0), 1)
    }

    /// After every action: `Effect.computeStatistics` when the open view's list changed (its
    /// result is dropped: another list's numbers would mislead) or the store did (its result
    /// stays, marked pending, until the new one arrives). Nothing while the view is closed; a
    /// computation it closed on stops (`Effect.cancelStatistics`: nobody would see its numbers,
    /// and at 5,000,000 quakes it holds a core for a second), and the view asks again when it opens.
    mutating func statisticsReads(storeChanged: Bool) -> [Effect] {
        guard self.statistics.isPresented else {
            guard self.statistics.isPending else { return [] }
            self.statistics.isPending = false
            self.statistics.progress = nil
            self.statistics.request = nil
            self.statistics.resultDeclustering = nil
            return [.cancelStatistics]
        }
        let request = StatisticsState.statisticsRequest(self.request)
        let listChanged = request != self.statistics.request || self.statistics.declustering != self.statistics.resultDeclustering
        guard listChanged || storeChanged else { return [] }
        if listChanged { self.statistics.result = nil }
        self.statistics.request = request
        self.statistics.resultDeclustering = self.statistics.declustering
        self.statistics.generation += 1
        self.statistics.isPending = true
        self.statistics.progress = nil
        self.statistics.failure = nil
        return [.computeStatistics(request, declustering: self.statistics.declustering, generation: self.statistics.generation)]
    }

    /// The computations the restored state is waiting for (after `restore`, which returns no
    /// effects, and its `pendingReads`): the statistics view or the Map tab was open when the
    /// scene was saved.
    public mutating func resumeStatistics() -> [Effect] {
        declusterReads(storeChanged: false) + statisticsReads(storeChanged: false) + densityReads(storeChanged: false)
    }
}

/// A statistics computation that failed, as the view says it.
public struct StatisticsFailure: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) { self.message = message }
}
