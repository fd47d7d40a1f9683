import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The distance sort's band counts from the distance table alone (`DistanceTable.bandCountsFromTable`):
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
                    // Windows read from either end of a band (DistanceTable.windowSQL) are slices of the whole.
                    for start in stride(from: 0, to: rows.count, by: max(1, rows.count / 9)) {
                        let fresh = try FetchedResultsController(container: store.container, request: request)
                        defer { fresh.close() }
                        let window = start..<min(rows.count, start + 7)
                        #expect(try fresh.rows(in: window).map(\.code) == Array(rows[window]), "\(label) window \(window)")
                    }
                }
            }
        }
    }

    /// The counts without the table (`DistanceTable.bandCountsInOnePass(_:origin:plan:bands:)`) equal the
    /// controller's from the table, with and without filters, in km and miles.
    @Test func countsWithoutTheTableEqualTheTables() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(try IndependentParse.distinctRecords(SharedData.url("all_week-2018-06-14.geojson")))
        let homes = [GeoPoint(latitude: 35.68, longitude: 139.69), GeoPoint(latitude: 61.2, longitude: -149.9),
                     GeoPoint(latitude: -18.14, longitude: 178.44), GeoPoint(latitude: 89.2, longitude: -30)]
        for origin in homes {
            for (minimum, unit) in [(nil, DistanceReference.Unit.km), (2.5, .mi)] as [(Double?, DistanceReference.Unit)] {
                let reference = DistanceReference(origin: origin, unit: unit)
                let request = SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: minimum),
                                                    sortDescriptor: QuakeSortDescriptor(.distance), timeZone: Self.utc,
                                                    distanceReference: reference)
                let controller = try FetchedResultsController(container: store.container, request: request)
                defer { controller.close() }
                let counts = try store.read { db in
                    try DistanceTable.bandCountsInOnePass(db, origin: origin, plan: QueryPlan(request.normalized),
                                                          bands: reference.bands.map(\.key.distanceBounds))
                }
                let expected = reference.bands.map { band in controller.sections.first { $0.id == band.id }?.count ?? 0 }
                #expect(counts == expected, "\(origin) M≥\(String(describing: minimum)) \(unit)")
                #expect(counts.reduce(0, +) == controller.count)
            }
        }
    }

    /// The counts from the digest (in C) are the SQL pass's, over more than one chunk, with
    /// coordinates a damaged feed may hold (off the globe, past the date line, at the poles) and a
    /// minimum magnitude, from homes near a pole and the antimeridian.
    @Test func countsFromTheDigestAreTheSQLPasss() throws {
        var random = SeededGenerator(seed: 41)
        let store = try TestStore()
        defer { store.remove() }
        let odd: [(Double, Double)] = [(90, 180), (-90, -180), (95, 10), (1e300, -1e300), (0, 540), (-0.0, -0.0), (35.68, 139.69)]
        var records: [QuakeRecord] = []
        for index in 0..<9_000 {
            var record = SearchDigestTests.record("d\(index)", &random)
            if index % 97 == 0 { (record.latitude, record.longitude) = odd[random.next(odd.count)] }
            records.append(record)
        }
        try store.upsert(records)
        #expect(try store.read { try SearchDigest.isCurrent($0) })
        for origin in [GeoPoint(latitude: 35.68, longitude: 139.69), GeoPoint(latitude: -89.9, longitude: 179.99), GeoPoint(latitude: 0, longitude: -180)] {
            // A search's SQL pass needs a filled match set: QueryPlanAgreementTests compares those.
            for predicate in [QuakePredicate(), QuakePredicate(minimumMagnitude: 2.5)] {
                for unit in [DistanceReference.Unit.km, .mi] {
                    let reference = DistanceReference(origin: origin, unit: unit)
                    let request = SectionedFetchRequest(predicate: predicate, sortDescriptor: QuakeSortDescriptor(.distance),
                                                        timeZone: Self.utc, distanceReference: reference)
                    let plan = QueryPlan(request.normalized)
                    let bands = reference.bands.map(\.key.distanceBounds)
                    let (digest, sql) = try store.read { db in
                        #expect(try SearchDigest.query(db, plan: plan, countingKind: nil) != nil, "the digest answers")
                        return (try DistanceTable.bandCountsInOnePass(db, origin: origin, plan: plan, bands: bands),
                         try DistanceTable.bandCountsInOnePass(db, origin: origin, plan: plan, bands: bands, usingDigest: false))
                    }
                    #expect(digest == sql, "\(origin) \(predicate) \(unit)")
                    #expect(digest.reduce(0, +) > 0)
                }
            }
        }
    }
}
