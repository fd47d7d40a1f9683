import Foundation
import QuakeModel

/// The backgrounds last computed for a list (`DeclusteredSet`, issue 54), kept as
/// `StatisticsCache` keeps statistics: keyed by the quakes the request matches (its predicate and
/// time zone), the method, and the store's persistent history token read in the same read
/// transaction as the quakes, so a kept answer is never one of an older store. The browser's
/// list asks again after each edit of its search; going back to a list declustered before, with
/// no commit since, is answered at once.
public final class DeclusterCache: Sendable {
    public struct Key: Equatable, Sendable {
        public let request: SectionedFetchRequest
        public let method: Declustering
        public let token: HistoryToken
    }

    private let kept = LockedValue([(key: Key, set: DeclusteredSet)]())
    public let capacity: Int

    public init(capacity: Int = 4) { self.capacity = max(1, capacity) }

    func set(for key: Key) -> DeclusteredSet? { kept.withLock { $0.first { $0.key == key }?.set } }

    func keep(_ set: DeclusteredSet, for key: Key) {
        kept.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.insert((key, set), at: 0)
            if entries.count > capacity { entries.removeLast(entries.count - capacity) }
        }
    }
}

extension Connection {
    /// The background `method` keeps of the quakes `request` matches (sort aside), as the ids
    /// `RowFilter.declustered` filters a list by: the same quakes `list --decluster` and
    /// `stats --decluster` keep. From `cache` when it holds this list, method and store version.
    /// `progress` gets the fraction done. Call it inside a read transaction.
    public func declusteredSet(of request: SectionedFetchRequest, method: Declustering, keptIn cache: DeclusterCache? = nil,
                               progress: ((Double) -> Void)? = nil) throws(SQLiteError) -> DeclusteredSet {
        let list = SectionedFetchRequest(predicate: request.predicate, timeZone: request.timeZone)
        let key = DeclusterCache.Key(request: list, method: method, token: try currentHistoryToken())
        if let kept = cache?.set(for: key) { return kept }
        let events = try catalogueEvents(of: list)
        let result = method.decluster(events, progress: progress)
        try stopIfDue()
        let set = DeclusteredSet(method: method, events: events, result: result)
        cache?.keep(set, for: key)
        return set
    }
}
