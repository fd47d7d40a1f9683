import Foundation
import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The intensity predicted at home (`FeltIntensity`, Allen, Wald & Worden 2012, hypocentral):
/// the equation against an independent computation (`ExpectedResults.intensity`) over a table
/// that crosses the 50 km hinge, goes below M 3 and above M 8 and puts a quake under home; the
/// SQL function equal to the Swift bit for bit; and the `intensity` sort and `:intensity` filter
/// against the independent computation on real USGS feeds.
@Suite struct IntensityTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// (magnitude, epicentral km, depth km): the hinge from both sides, small and great quakes,
    /// a quake under home (0 km, shallow and deep), an unknown depth, the far side of the Earth.
    static let table: [(Double, Double, Double?)] = [
        (6.0, 0, 10), (5.6, 21, 10), (3.1, 14, 5), (4.0, 0, 0.5), (4.0, 0, 0), (2.0, 3, 2), (1.2, 40, 8), (-0.5, 1, 1),
        (5.0, 49.99, 0), (5.0, 50, 0), (5.0, 50.01, 0), (5.0, 40, 30), (5.0, 30, 40.01),
        (7.0, 120, 15), (8.1, 300, 25), (8.8, 1_000, 30), (9.1, 2_500, 20), (6.4, 12_488, 40), (9.5, 20_000, 600),
        (4.5, 80, nil), (2.9, 200, 10),
    ]

    @Test func theEquationEqualsAnIndependentComputation() {
        for (m, km, depth) in Self.table {
            let felt = FeltIntensity(magnitude: m, hypocentralKm: FeltIntensity.hypocentralKm(epicentralKm: km, depth: depth))
            let expected = ExpectedResults.intensity(magnitude: m, epicentralKm: km, depthKm: depth)!
            #expect(abs(felt.value - expected) <= 1e-12 * max(1, abs(expected)), "M \(m) at \(km) km, depth \(depth as Any)")
            let shown = ExpectedResults.shown(expected)
            #expect(felt.oneDecimal == shown.oneDecimal && felt.whole == shown.whole, "M \(m) at \(km) km")
            #expect((1...10).contains(felt.whole) && (1.0...10.0).contains(felt.oneDecimal))
        }
        // Worked by hand: M 6 under home at 10 km: Rm = −0.209 + 2.042·e = 5.3418…,
        // 2.085 + 8.568 − 1.402·ln √(100 + 28.535…) = 7.2488 → VII very strong, 7.2.
        let underHome = FeltIntensity(magnitude: 6, hypocentralKm: 10)
        #expect(abs(underHome.value - 7.248807863969799) < 1e-12)
        #expect(underHome.label == "VII very strong" && underHome.oneDecimal == 7.2)
        // σ at R = 0 is s1 + s2 = 1.19; far away it tends to s1 = 0.82.
        #expect(abs(FeltIntensity(magnitude: 5, hypocentralKm: 0).sigma - 1.19) < 1e-12)
        #expect(abs(FeltIntensity(magnitude: 5, hypocentralKm: 5_000).sigma - 0.82) < 1e-4)
        // The S waves: R / 3.5 km/s within 1,000 km, none past it.
        #expect(FeltIntensity(magnitude: 5, hypocentralKm: 21).sArrivalSeconds == 6.0)
        #expect(FeltIntensity(magnitude: 5, hypocentralKm: 1_000).sArrivalSeconds == 285.7)
        #expect(FeltIntensity(magnitude: 5, hypocentralKm: 1_000.1).sArrivalSeconds == nil)
        // Clamped: a great far quake is I (its value is below 0); the equation saturates for
        // great quakes (M 9.5 at 5 km: VIII), and reaches X only where Rm vanishes under home
        // (M = 5 + ln(0.209 / 2.042) ≈ 2.72 at R = 0, where ln 0 makes it infinite).
        #expect(FeltIntensity(magnitude: 6.4, hypocentralKm: 12_488).value < 0)
        #expect(FeltIntensity(magnitude: 6.4, hypocentralKm: 12_488).label == "I not felt")
        #expect(FeltIntensity(magnitude: 9.5, hypocentralKm: 5).label == "VIII severe")
        let singular = FeltIntensity(magnitude: 5 + log(0.209 / 2.042), hypocentralKm: 0)
        #expect(singular.value > 10 && singular.label == "X extreme" && singular.oneDecimal == 10.0)
    }

    @Test func theHingeAddsTheFarTermOnlyPast50Kilometres() {
        let at = FeltIntensity.equation(magnitude: 5, hypocentralKm: 50)
        let rm = -0.209 + 2.042 * exp(0.0)
        #expect(at == 2.085 + 1.428 * 5 + -1.402 * log(sqrt(2_500 + rm * rm)))
        let past = FeltIntensity.equation(magnitude: 5, hypocentralKm: 100)
        #expect(abs(past - (2.085 + 1.428 * 5 - 1.402 * log(sqrt(10_000 + rm * rm)) + 0.078 * log(2.0))) < 1e-12)
    }

    /// `quaketui_intensity` in SQL equals `FeltIntensity.value` to the bit, for every row of the table.
    @Test func theSQLFunctionEqualsTheSwiftToTheBit() throws {
        let store = try TestStore()
        defer { store.remove() }
        let home = GeoPoint(latitude: 38.37, longitude: 34.03)
        var records: [QuakeRecord] = []
        for (index, (m, km, depth)) in Self.table.enumerated() {
            // A point `km` due east or north of home (the exact distance is recomputed below).
            let latitude = min(89, home.latitude + (index.isMultiple(of: 2) ? km / 111.2 : 0))
            let longitude = index.isMultiple(of: 2) ? home.longitude : (home.longitude + km / 87.2).truncatingRemainder(dividingBy: 180)
            var record = QuakeRecord.fixture("t\(index)", magnitude: m)
            record.latitude = latitude
            record.longitude = longitude
            record.depth = depth
            records.append(record)
        }
        var unknown = QuakeRecord.fixture("unknown", magnitude: nil)
        unknown.latitude = home.latitude
        records.append(unknown)
        _ = try store.upsert(records)
        for record in records {
            let sql = try store.read { db in
                try db.scalar("SELECT \(home.intensitySQL()) FROM quake WHERE code = ?", [.text(record.code)])
            }
            let swift = FeltIntensity(home: home, latitude: record.latitude, longitude: record.longitude, depth: record.depth,
                                      magnitude: record.magnitude)
            #expect(sql.double?.bitPattern == swift?.value.bitPattern, "\(record.code)")
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"),
          arguments: ["all_week-2018-06-14.geojson", "4.5_month-2014-04-01.geojson"])
    func theIntensitySortAndFilterMatchAnIndependentComputation(_ name: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = try IndependentParse.distinctRecords(SharedData.url(name))
        try store.upsert(records)
        // Anchorage (many near quakes in the week of 2018), Tokyo, Santiago.
        for home in [(61.2, -149.9), (35.68, 139.69), (-33.45, -70.67)] {
            let origin = GeoPoint(latitude: home.0, longitude: home.1)
            for ascending in [false, true] {
                let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.intensity, ascending: ascending),
                                                    timeZone: Self.utc, distanceReference: DistanceReference(origin: origin))
                let controller = try FetchedResultsController(container: store.container, request: request)
                defer { controller.close() }
                let expected = ExpectedResults.sections(records, order: .intensity, ascending: ascending, timeZone: Self.utc,
                                                        distanceFrom: (home.0, home.1))
                #expect(try DistanceFetchTests.contents(controller) == expected, "\(name) home \(home) asc \(ascending)")
                // The filter: the quakes shown as III or more, the same set under the time order.
                for whole in [2, 3, 5] {
                    var filtered = request
                    filtered.sortDescriptor = QuakeSortDescriptor(.time)
                    filtered.predicate.rowFilters = [.intensity(atLeast: whole, home: origin)]
                    try controller.configure(filtered)
                    let codes = Set(try controller.rows(in: 0..<controller.count).map(\.code))
                    let strong = records.filter { r in
                        let km = ExpectedResults.kilometres(fromLatitude: home.0, longitude: home.1, toLatitude: r.latitude, longitude: r.longitude)
                        return ExpectedResults.intensity(magnitude: r.magnitude, epicentralKm: km, depthKm: r.depth)
                            .map { ExpectedResults.shown($0).whole >= whole } ?? false
                    }
                    #expect(codes == Set(strong.map(\.code)), "\(name) home \(home) :intensity \(whole)+")
                }
            }
        }
    }
}
