import Foundation
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The distance sort's band counts from the distance table alone (`DistanceTable.bandCounts`):
/// range counts without a magnitude filter, one grouped pass with one; with a search, a near
/// filter, both directions and both units, against an independent haversine on a real feed.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct DistanceBandCountTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test func magnitudeFilteredBandsMatchAnIndependentFilter() throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = try IndependentParse.distinctRecords(SharedData.url("all_week-2018-06-14.geojson"))
        try store.upsert(records)
        for home in [(latitude: 35.68, longitude: 139.69), (latitude: 61.2, longitude: -149.9)] {
            let origin = GeoPoint(latitude: home.latitude, longitude: home.longitude)
            for (minimum, search, radius) in [(2.5, "", nil), (4.0, "", nil), (1.0, "alaska", nil), (3.0, "", 2_500.0), (9.5, "", nil)] as [(Double, String, Double?)] {
                for (unit, ascending) in [(DistanceReference.Unit.km, true), (.mi, false)] {
                    let request = SectionedFetchRequest(
                        predicate: QuakePredicate(searchText: search, minimumMagnitude: minimum,
                                                  rowFilters: radius.map { [.near(origin, radiusKm: $0)] } ?? []),
                        sortDescriptor: QuakeSortDescriptor(.distance, ascending: ascending), timeZone: Self.utc,
                        distanceReference: DistanceReference(origin: origin, unit: unit))
                    let controller = try FetchedResultsController(container: store.container, request: request)
                    defer { controller.close() }
                    let expected = ExpectedResults.sections(records, search: search, minimumMagnitude: minimum, order: .distance,
                                                            ascending: ascending, timeZone: Self.utc, distanceFrom: home,
                                                            within: radius, kmPerUnit: unit.kilometres)
                    let label = "home \(home) M≥\(minimum) '\(search)' radius \(String(describing: radius)) \(unit) asc \(ascending)"
                    #expect(controller.sections.map(\.id) == expected.map(\.id), "\(label)")
                    #expect(controller.sections.map(\.count) == expected.map(\.codes.count), "\(label)")
                    let rows = try controller.rows(in: 0..<controller.count).map(\.code)
                    #expect(rows == expected.flatMap(\.codes), "\(label)")
                }
            }
        }
    }
}
