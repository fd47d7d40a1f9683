import QuakeModel

/// The list declustered (`:decluster gk`, issue 54): while a method is set, a new list (search,
/// `:` filters, near-home, minimum magnitude) or a change in the store asks for its declustering
/// with a new generation; only the newest answer is kept. The answer goes into the request as a
/// row filter (`AppState.request`), so the list, its sections and counts, the header count,
/// search, sorts, the map and `n` are all of the background.
extension BrowserState {
    /// `:decluster METHOD` / `:decluster off`: the list and the statistics (`=`) of the background
    /// by that method, or of every quake.
    mutating func setDeclustering(_ method: Declustering?) {
        self.decluster.method = method
        self.statistics.declustering = method
        if method == nil {
            self.decluster.failure = nil
            self.decluster.progress = nil
        }
    }

    /// The answer to `Effect.declusterList` of `generation`: kept only for the newest.
    mutating func receiveDeclustering(generation: Int, _ outcome: Result<DeclusteredSet, StatisticsFailure>) {
        guard generation == self.decluster.generation, self.decluster.isPending else { return }
        self.decluster.isPending = false
        self.decluster.progress = nil
        switch outcome {
        case .success(let kept):
            self.decluster.result = kept
            self.decluster.resultRequest = self.decluster.request
            self.decluster.failure = nil
        case .failure(let failure):
            self.decluster.failure = failure.message
            let method = self.decluster.method.map(DeclusterState.name) ?? "the method"
            self.status.message = "Could not decluster the list by \(method): \(failure.message). The list shows every quake; "
                + ":decluster off to stop asking, or the same :decluster to try again"
            self.status.isError = true
        }
    }

    /// How far the newest declustering is: shown in the header while it runs.
    mutating func receiveDeclusteringProgress(generation: Int, fraction: Double) {
        guard generation == self.decluster.generation, self.decluster.isPending, fraction.isFinite else { return }
        self.decluster.progress = min(max(fraction, 0), 1)
    }

    /// After every action: `Effect.declusterList` when a method is set and the list changed
    /// (the kept ids of another list no longer apply: the list shows every quake, labelled
    /// `declustering…`) or the store did (the kept ids stay applied, labelled `updating…`, until
    /// the new ones arrive); `Effect.cancelListDeclustering` when declustering was turned off
    /// while one ran.
    mutating func declusterReads(storeChanged: Bool) -> [Effect] {
        guard let method = self.decluster.method else {
            guard self.decluster.isPending else { return [] }
            self.decluster.isPending = false
            self.decluster.progress = nil
            self.decluster.request = nil
            self.decluster.requestMethod = nil
            return [.cancelListDeclustering]
        }
        let list = DeclusterState.listKey(self.listRequest)
        guard storeChanged || list != self.decluster.request || method != self.decluster.requestMethod else { return [] }
        self.decluster.request = list
        self.decluster.requestMethod = method
        self.decluster.generation += 1
        self.decluster.isPending = true
        self.decluster.progress = nil
        self.decluster.failure = nil
        return [.declusterList(list, method: method, generation: self.decluster.generation)]
    }
}
