import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The statistics kept between computations (issue 54), on a real store: the same list and
/// method with no commit since is answered from the cache, declustered once; a commit, another
/// method or another list computes again.
@Suite struct StatisticsCacheTests {
    static let t0: Int64 = 1_700_000_000_000
    static let hour: Int64 = 3_600_000

    /// A mainshock of M 6 and 20 aftershocks of M 3 within a day, at the same epicentre:
    /// Gardner–Knopoff keeps the mainshock alone.
    static func sequence() -> [QuakeRecord] {
        [.fixture("main", magnitude: 6, time: t0)]
            + (1...20).map { QuakeRecord.fixture("after\($0)", magnitude: 3, time: t0 + Int64($0) * hour) }
    }

    @Test func aSecondComputationWithNoCommitIsKeptAndACommitComputesAgain() throws {
        let store = try TestStore(Self.sequence())
        defer { store.remove() }
        let cache = StatisticsCache()
        let request = SectionedFetchRequest(timeZone: TimeZone(identifier: "UTC")!)
        let fractions = LockedValue<[Double]>([])
        func compute(_ declustering: Declustering?) throws -> CatalogueStatistics {
            try store.read { db in
                try db.catalogueStatistics(of: request, declustering: declustering, keptIn: cache,
                                           progress: { fraction in fractions.withLock { $0.append(fraction) } })
            }
        }

        let first = try compute(.gk)
        #expect(first.count == 1 && first.declustered == DeclusterSummary(method: .gk, removed: 20))
        #expect(cache.computations == 1)
        #expect(fractions.withLock { $0 } == [0], "the declustering said how far it was")
        // Again, no commit since: the same numbers, nothing computed, no progress.
        #expect(try compute(.gk) == first)
        #expect(cache.computations == 1)
        #expect(fractions.withLock { $0 } == [0])
        // The whole list is another entry; the declustered one is still kept beside it.
        #expect(try compute(nil).count == 21)
        #expect(cache.computations == 2)
        #expect(try compute(.gk) == first)
        #expect(cache.computations == 2)

        // A commit (a quake three years later, past M 6's 499 days: its own mainshock) moves the history token: computed again.
        try store.upsert([.fixture("later", magnitude: 4, time: Self.t0 + 3 * 365 * 24 * Self.hour)])
        let second = try compute(.gk)
        #expect(second.count == 2 && second.declustered == DeclusterSummary(method: .gk, removed: 20))
        #expect(cache.computations == 3)
        #expect(fractions.withLock { $0 } == [0, 0])
        #expect(try compute(.gk) == second)
        #expect(cache.computations == 3)

        // Any commit counts, even one that changes no statistic (notes): never an older store's numbers.
        try store.setNotes("felt", code: "main")
        #expect(try compute(.gk) == second)
        #expect(cache.computations == 4)
    }

    /// Another list (a search) is another entry.
    @Test func anotherListIsComputedApart() throws {
        let store = try TestStore(Self.sequence())
        defer { store.remove() }
        let cache = StatisticsCache()
        let utc = TimeZone(identifier: "UTC")!
        let all = SectionedFetchRequest(timeZone: utc)
        let some = SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: 4), timeZone: utc)
        let whole = try store.read { try $0.catalogueStatistics(of: all, declustering: .gk, keptIn: cache) }
        let strong = try store.read { try $0.catalogueStatistics(of: some, declustering: .gk, keptIn: cache) }
        #expect(whole.count == 1 && strong.count == 1 && strong.declustered?.removed == 0)
        #expect(cache.computations == 2)
    }
}
