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
        // Nearer than 6 km, the model is evaluated at 6 km (ETH's fct_GMPE_Allen2012): an M 2.3
        // 0.3 km from home, Rm = −0.209 + 2.042·e^−2.7 = −0.0718…, is 2.085 + 3.2844 −
        // 1.402·ln √(36 + 0.00516) = 2.8573 → III weak, not the VII the equation gives at 0.3 km.
        let nearHome = FeltIntensity(magnitude: 2.3, hypocentralKm: 0.3)
        #expect(abs(nearHome.value - 2.8573) < 1e-4 && nearHome.label == "III weak")
        #expect(nearHome.value == FeltIntensity(magnitude: 2.3, hypocentralKm: 6).value && nearHome.hypocentralKm == 0.3)
        // σ at 6 km and nearer is s1 + s2 / (1 + (6 / 22.9)²) = 1.1662…; far away it tends to s1 = 0.82.
        #expect(abs(FeltIntensity(magnitude: 5, hypocentralKm: 0).sigma - (0.82 + 0.37 / (1 + pow(6 / 22.9, 2)))) < 1e-12)
        #expect(abs(FeltIntensity(magnitude: 5, hypocentralKm: 5_000).sigma - 0.82) < 1e-4)
        // The S waves: R / 3.5 km/s within 1,000 km, none past it.
        #expect(FeltIntensity(magnitude: 5, hypocentralKm: 21).sArrivalSeconds == 6.0)
        #expect(FeltIntensity(magnitude: 5, hypocentralKm: 1_000).sArrivalSeconds == 285.7)
        #expect(FeltIntensity(magnitude: 5, hypocentralKm: 1_000.1).sArrivalSeconds == nil)
        // Clamped: a great far quake is I (its value is below 0); the equation saturates for
        // great quakes (M 9.5 at 5 km: VIII). Where Rm vanishes (M = 5 + ln(0.209 / 2.042) ≈ 2.72)
        // under home, ln 0 made it infinite, X; at 6 km it is III.
        #expect(FeltIntensity(magnitude: 6.4, hypocentralKm: 12_488).value < 0)
        #expect(FeltIntensity(magnitude: 6.4, hypocentralKm: 12_488).label == "I not felt")
        #expect(FeltIntensity(magnitude: 9.5, hypocentralKm: 5).label == "VIII severe")
        let singular = FeltIntensity(magnitude: 5 + log(0.209 / 2.042), hypocentralKm: 0)
        #expect(singular.value.isFinite && singular.label == "III weak")
    }

    /// A quake placed where the paper's equation gives `value` (`ExpectedResults.latitude`), and
    /// what must be shown for it, written out: the one-decimal value rounded from the equation's
    /// value, and the nearest whole intensity to the equation's value (issue 55's words), not
    /// the one-decimal value rounded again.
    struct Rounding: Sendable, CustomStringConvertible {
        let code: String
        let magnitude: Double, depth: Double
        let value: Double
        let oneDecimal: Double
        let whole: Int
        let label: String
        var description: String { "\(code): M \(magnitude) at \(value)" }
    }

    static let roundings: [Rounding] = [
        // 4.45–4.499: 4.5 to one decimal, and IV (the nearest whole), never V.
        .init(code: "r447", magnitude: 4.0, depth: 10, value: 4.47, oneDecimal: 4.5, whole: 4, label: "IV light"),
        .init(code: "r44501", magnitude: 5.0, depth: 10, value: 4.4501, oneDecimal: 4.5, whole: 4, label: "IV light"),
        .init(code: "r44999", magnitude: 5.0, depth: 10, value: 4.4999, oneDecimal: 4.5, whole: 4, label: "IV light"),
        .init(code: "r45001", magnitude: 5.0, depth: 10, value: 4.5001, oneDecimal: 4.5, whole: 5, label: "V moderate"),
        .init(code: "r4449", magnitude: 5.0, depth: 10, value: 4.449, oneDecimal: 4.4, whole: 4, label: "IV light"),
        .init(code: "r546", magnitude: 6.0, depth: 10, value: 5.46, oneDecimal: 5.5, whole: 5, label: "V moderate"),
        // Past the 50 km hinge.
        .init(code: "r346", magnitude: 5.0, depth: 10, value: 3.46, oneDecimal: 3.5, whole: 3, label: "III weak"),
        .init(code: "r648", magnitude: 7.0, depth: 15, value: 6.48, oneDecimal: 6.5, whole: 6, label: "VI strong"),
        // I and II either side of 1.5; VII and VIII either side of 7.5, and 8.1 (M 7 near home:
        // at 6 km and nearer, 8.19; the model reaches IX for no magnitude, 8.34 at M 9.5).
        .init(code: "r147", magnitude: 2.5, depth: 5, value: 1.47, oneDecimal: 1.5, whole: 1, label: "I not felt"),
        .init(code: "r15001", magnitude: 2.5, depth: 5, value: 1.5001, oneDecimal: 1.5, whole: 2, label: "II weak"),
        .init(code: "r747", magnitude: 7.0, depth: 0, value: 7.47, oneDecimal: 7.5, whole: 7, label: "VII very strong"),
        .init(code: "r75001", magnitude: 7.0, depth: 0, value: 7.5001, oneDecimal: 7.5, whole: 8, label: "VIII severe"),
        .init(code: "r810", magnitude: 7.0, depth: 0, value: 8.1, oneDecimal: 8.1, whole: 8, label: "VIII severe"),
        // Clamped below 1 (far away).
        .init(code: "r04", magnitude: 6.4, depth: 10, value: 0.4, oneDecimal: 1.0, whole: 1, label: "I not felt"),
    ]

    static let aksaray = GeoPoint(latitude: 38.37, longitude: 34.03)

    /// `roundings` as quakes due north of Aksaray.
    static func roundingRecords() throws -> [QuakeRecord] {
        try roundings.map { rounding in
            var record = QuakeRecord.fixture(rounding.code, magnitude: rounding.magnitude)
            record.latitude = try #require(ExpectedResults.latitude(northOf: aksaray.latitude, longitude: aksaray.longitude,
                                                                    magnitude: rounding.magnitude, depthKm: rounding.depth,
                                                                    intensity: rounding.value), "\(rounding)")
            record.longitude = aksaray.longitude
            record.depth = rounding.depth
            return record
        }
    }

    @Test func theWholeIntensityIsTheNearestToTheEquationsValue() throws {
        for (rounding, record) in zip(Self.roundings, try Self.roundingRecords()) {
            let felt = try #require(FeltIntensity(home: Self.aksaray, latitude: record.latitude, longitude: record.longitude,
                                                  depth: record.depth, magnitude: record.magnitude))
            #expect(abs(felt.value - rounding.value) < 1e-9, "\(rounding): \(felt.value)")
            #expect(felt.oneDecimal == rounding.oneDecimal && felt.whole == rounding.whole && felt.label == rounding.label,
                    "\(rounding): \(felt.oneDecimal) \(felt.label)")
        }
        // The 3.46 is past the hinge: its hypocentral distance is over 50 km.
        let hinge = try #require(try Self.roundingRecords().first { $0.code == "r346" })
        #expect(FeltIntensity(home: Self.aksaray, latitude: hinge.latitude, longitude: hinge.longitude, depth: hinge.depth,
                              magnitude: hinge.magnitude)!.hypocentralKm > 50)
        // Each whole's boundary, n − 0.5, exactly: it is n, the double below it n − 1, and the
        // SQL floor over ten times the value (`quaketui_intensity(…) * 10 >= floor`) agrees.
        for whole in 2...10 {
            let boundary = Double(whole) - 0.5
            #expect(FeltIntensity.whole(boundary) == whole && FeltIntensity.whole(boundary.nextDown) == whole - 1, "\(whole)")
            #expect(boundary * 10 >= FeltIntensity.scaledFloor(whole: whole), "\(whole)")
            #expect(!(boundary.nextDown * 10 >= FeltIntensity.scaledFloor(whole: whole)), "\(whole)")
        }
        #expect(FeltIntensity.whole(-3) == 1 && FeltIntensity.whole(.nan) == 1 && FeltIntensity.whole(.infinity) == 10)
        #expect(FeltIntensity.whole(10.7) == 10 && FeltIntensity.whole(1.4999) == 1)
    }

    /// The sort's sections, `:intensity` (SQL and the Swift test of a row) and the alert terms
    /// `quaketui status` reads by, against the literal answers of `roundings`.
    @Test func theSortFilterAndAlertTermsRoundAsShown() throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = try Self.roundingRecords()
        try store.upsert(records)
        let origin = Self.aksaray
        let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.intensity, ascending: false),
                                            timeZone: Self.utc, distanceReference: DistanceReference(origin: origin))
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        let sections = try DistanceFetchTests.contents(controller)
        for rounding in Self.roundings {
            let section = sections.first { $0.codes.contains(rounding.code) }
            #expect(section?.id == "intensity-\(rounding.whole)", "\(rounding): \(sections)")
        }
        for whole in 1...10 {
            var filtered = request
            filtered.sortDescriptor = QuakeSortDescriptor(.time)
            filtered.predicate.rowFilters = [.intensity(atLeast: whole, home: origin)]
            try controller.configure(filtered)
            let codes = Set(try controller.rows(in: 0..<controller.count).map(\.code))
            let expected = Set(Self.roundings.filter { $0.whole >= whole }.map(\.code))
            #expect(codes == expected, ":intensity \(whole)+")
            #expect(Set(records.filter(filtered.matches).map(\.code)) == expected, ":intensity \(whole)+, tested in Swift")
        }
        // `alertIntensity` compares to one decimal: 4.5 takes the 4.45–4.499 quakes, 1.0 all.
        for tenths in [10, 15, 45, 46, 75, 81, 82, 100] {
            let terms = RecentQuakeTerms(intensity: (origin, tenths))
            let codes = Set(try store.read { try $0.quakes(from: 0, through: .max, meeting: terms) }.map(\.code))
            let expected = Set(Self.roundings.filter { Int(($0.oneDecimal * 10).rounded()) >= tenths }.map(\.code))
            #expect(codes == expected, "alertIntensity \(Double(tenths) / 10)")
        }
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
