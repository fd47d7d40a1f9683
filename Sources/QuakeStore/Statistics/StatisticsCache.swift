import Foundation
import QuakeModel

/// The statistics last computed, kept (issue 54): declustering a million quakes takes seconds,
/// so the browser computes the statistics of a list once per store change and answers the same
/// list again (the view closed and opened, `:decluster off` then `gk`) from here at once.
///
/// An entry is keyed by what decides its numbers: the quakes the request matches (its predicate
/// and time zone: `StatisticsState.statisticsRequest` drops the sort), the declustering method
/// (nil: the whole list) and the store's persistent history token when it was read, in the same
/// read transaction as the quakes. Any commit moves the token, so a kept answer is never one of
/// an older store. The newest `capacity` entries are kept.
public final class StatisticsCache: Sendable {
    public struct Key: Equatable, Sendable {
        public let request: SectionedFetchRequest
        public let declustering: Declustering?
        public let token: HistoryToken
    }

    private struct Kept {
        var entries: [(key: Key, statistics: CatalogueStatistics)] = []
        var computations = 0
    }

    public let capacity: Int
    private let kept = LockedValue(Kept())

    public init(capacity: Int = 4) { self.capacity = max(1, capacity) }

    /// How many answers were computed rather than kept ones given (for tests and quakebench).
    public var computations: Int { kept.withLock { $0.computations } }

    func statistics(for key: Key) -> CatalogueStatistics? {
        kept.withLock { kept in kept.entries.first { $0.key == key }?.statistics }
    }

    func keep(_ statistics: CatalogueStatistics, for key: Key) {
        kept.withLock { kept in
            kept.computations += 1
            kept.entries.removeAll { $0.key == key }
            kept.entries.insert((key, statistics), at: 0)
            if kept.entries.count > capacity { kept.entries.removeLast(kept.entries.count - capacity) }
        }
    }
}

extension Connection {
    /// `catalogueSummary(of:declustering:progress:)`'s statistics, from `cache` when it holds
    /// them for this request, method and the store as it is now (no commit since), else computed
    /// and kept there. `partial` gets the counts first when the whole list is computed (not
    /// declustered), as the view shows them while the rest is read; `progress` gets the fraction
    /// of the declustering done. Call it inside a read transaction, so the token and the quakes
    /// are of the same store.
    public func catalogueStatistics(of request: SectionedFetchRequest, declustering: Declustering?, keptIn cache: StatisticsCache,
                                    partial: ((CatalogueStatistics) -> Void)? = nil,
                                    progress: ((Double) -> Void)? = nil) throws(SQLiteError) -> CatalogueStatistics {
        let key = StatisticsCache.Key(request: request, declustering: declustering, token: try currentHistoryToken())
        if let kept = cache.statistics(for: key) { return kept }
        let statistics = try catalogueSummary(of: request, declustering: declustering, partial: partial, progress: progress).0
        cache.keep(statistics, for: key)
        return statistics
    }
}
