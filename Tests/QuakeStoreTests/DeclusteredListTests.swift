import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The list filtered to the background (`RowFilter.declustered`, issue 54) on a real store: the
/// ids `declusteredSet` keeps are those an independent Gardner–Knopoff keeps, and a results
/// controller given them counts, sections, searches and sorts exactly those quakes.
@Suite struct DeclusteredListTests {
    /// The generated catalogue of `DeclusteringTests` as stored quakes, in its (time) order, so
    /// the store's row ids follow it.
    static func records(_ quakes: [IndependentDeclustering.Quake]) -> [QuakeRecord] {
        quakes.enumerated().map { index, quake in
            var record = QuakeRecord.fixture("gen\(index)", magnitude: quake.magnitude,
                                             place: index % 3 == 0 ? "10 km N of Tokyo, Japan" : "5 km S of Osaka, Japan",
                                             time: quake.time)
            record.latitude = quake.latitude
            record.longitude = quake.longitude
            record.depth = quake.depth
            return record
        }
    }

    @Test(arguments: [Declustering.gk, .reasenberg])
    func theControllerListsWhatTheIndependentDeclusteringKeeps(_ method: Declustering) throws {
        let quakes = DeclusteringTests.catalogue(seed: 7, background: 600)
        let store = try TestStore(Self.records(quakes))
        defer { store.remove() }
        let keep = method == .gk ? IndependentDeclustering.gk(quakes) : IndependentDeclustering.reasenberg(quakes)
        let expected = Set(quakes.indices.filter { keep[$0] }.map { "gen\($0)" })
        let utc = TimeZone(identifier: "UTC")!
        let all = SectionedFetchRequest(timeZone: utc)
        let kept = try store.read { db in try db.declusteredSet(of: all, method: method) }
        #expect(kept.keptCount == expected.count && kept.declusteredCount == quakes.count)
        #expect(kept.removed > 0)

        // Every order, with its sections: the same quakes, counted as listed.
        for order in [QuakeSortOrder.time, .magnitude, .region, .depth] {
            var request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(order), timeZone: utc)
            request.predicate.rowFilters = [.declustered(kept)]
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            #expect(controller.count == expected.count, "\(order)")
            #expect(controller.sections.reduce(0) { $0 + $1.count } == expected.count, "\(order)")
            #expect(Set(try controller.rows(in: 0..<controller.count).map(\.code)) == expected, "\(order)")
        }
        // A search within the background: the kept quakes whose place holds it.
        var search = SectionedFetchRequest(timeZone: utc)
        search.predicate.searchText = "tokyo"
        search.predicate.rowFilters = [.declustered(kept)]
        let searched = try FetchedResultsController(container: store.container, request: search)
        defer { searched.close() }
        let tokyo = expected.filter { Int($0.dropFirst(3))! % 3 == 0 }
        #expect(Set(try searched.rows(in: 0..<searched.count).map(\.code)) == tokyo)
        // A search by code prefix within the background (its SQL joins the codes matched, whose
        // `id` once made the filter's term ambiguous).
        search.predicate.searchText = "gen1"
        let byCode = try FetchedResultsController(container: store.container, request: search)
        defer { byCode.close() }
        #expect(Set(try byCode.rows(in: 0..<byCode.count).map(\.code)) == expected.filter { $0.hasPrefix("gen1") })

        // `list --decluster`'s way (the rows it reads, the dependent ones left out) keeps the same.
        let removed = try store.read { db in
            let events = try db.catalogueEvents(of: all)
            let result = method.decluster(events)
            return try db.codes(ofIDs: zip(events.ids, result.keep).filter { !$0.1 }.map(\.0))
        }
        #expect(removed == Set(quakes.indices.map { "gen\($0)" }).subtracting(expected))
    }

    /// The bitmap's edges: ids 0, 7, 8 and a large one are kept; others, negative ones and ids
    /// past the bitmap are not; the Swift test and the value agree.
    @Test func theSetHoldsExactlyItsIDs() {
        let ids: [Int64] = [0, 7, 8, 1_000_003]
        let kept = DeclusteredSet(method: .gk, keptIDs: ids + [7], declustered: 10)
        #expect(kept.keptCount == 4 && kept.removed == 6)
        for id in [-1, 1, 6, 9, 1_000_002, 1_000_004, 9_999_999] as [Int64] { #expect(!kept.contains(id)) }
        for id in ids { #expect(kept.contains(id)) }
        #expect(kept == DeclusteredSet(method: .gk, keptIDs: ids.reversed(), declustered: 10))
        #expect(kept != DeclusteredSet(method: .reasenberg, keptIDs: ids, declustered: 10))
    }
}
