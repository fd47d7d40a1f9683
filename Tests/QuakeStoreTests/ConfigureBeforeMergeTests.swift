import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// A key can change the request between a commit and its merge: the controller keeps the search's
/// match set and the distance table it has, and must catch them up with that commit, not skip it.
@Suite struct ConfigureBeforeMergeTests {
    let probe = BuildProducts.executable("store-probe")

    @Test(arguments: [1, 2, 3])
    func aRequestChangedBeforeTheMergeShowsWhatAFreshFetchShows(seed: Int) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(ExpectedResults.variedRecords(count: 150))
        let home = DistanceReference(origin: GeoPoint(latitude: 19.4, longitude: -99.1))
        let predicates = [QuakePredicate(searchText: "ic"), QuakePredicate(searchText: "a", minimumMagnitude: 2),
                          QuakePredicate(rowFilters: [.near(home.origin, radiusKm: 3_000)])]
        let orders: [QuakeSortOrder] = [.time, .distance, .magnitude, .region, .distance, .depth]
        for predicate in predicates {
            func request(_ round: Int) -> SectionedFetchRequest {
                SectionedFetchRequest(predicate: predicate, sortDescriptor: .init(orders[round % orders.count]),
                                      timeZone: TimeZone(identifier: "UTC")!, distanceReference: home)
            }
            let controller = try FetchedResultsController(container: store.container, request: request(0))
            defer { controller.close() }
            for round in 1..<10 {
                let mutate = try ChildProcess.run(probe, ["mutate", store.directory.path, "\(seed * 1000 + round)"])
                #expect(mutate.status == 0, "\(mutate.stderr)")
                try controller.configure(request(round))
                _ = try controller.merge()
                let fresh = try FetchedResultsController(container: store.container, request: request(round))
                defer { fresh.close() }
                let label = "\(predicate) round \(round) \(orders[round % orders.count])"
                #expect(fresh.sections == controller.sections, "\(label)")
                #expect(try fresh.rows(in: 0..<fresh.count) == (try controller.rows(in: 0..<controller.count)), "\(label)")
            }
        }
    }
}
