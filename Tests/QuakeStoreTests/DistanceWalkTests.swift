import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// `DistanceTable.walk` (nearest-first and farthest-first windows without the distance table)
/// equals `ORDER BY km, id` over the whole table: random origins (poles and the antimeridian
/// among them), filters, starting points (rows, points between rows, nil), both directions,
/// limits 0, 1, 60 and more than the rows; on a generated store (many ties: 360 distinct
/// places) with seeded random quakes, and on a real feed.
@Suite struct DistanceWalkTests {
    typealias Filter = (String, [SQLiteValue])

    static let filters: [Filter] = [("", []), ("magnitude >= ?", [.real(3)]),
                                    ("instr(placeKey, ?) > 0", [.text("region 7")]),
                                    ("magnitude >= ? AND instr(placeKey, ?) > 0", [.real(1.5), .text("japan")])]

    /// Every row passing `filter`, in `ORDER BY km, id` with its km and id.
    static func reference(_ db: Connection, origin: GeoPoint, filter: Filter) throws -> [(code: String, km: Double, id: Int64)] {
        let condition = filter.0.isEmpty ? "1" : filter.0
        let statement = try db.prepare("SELECT code, \(origin.distanceSQL()) AS km, id FROM quake WHERE \(condition) ORDER BY km, id")
        try statement.bind(filter.1)
        var rows: [(String, Double, Int64)] = []
        while try statement.step() { rows.append((statement.text(at: 0), statement.double(at: 1), statement.int64(at: 2))) }
        return rows
    }

    static func check(_ store: TestStore, origins: [GeoPoint], random: inout SeededGenerator, label: String) throws {
        try store.read { db in
            for origin in origins {
                for filter in filters {
                    let all = try reference(db, origin: origin, filter: filter)
                    var starts: [(km: Double, id: Int64)?] = [nil, (0, 0), (Self.halfCircumference + 1, 0), (5_000.5, 0)]
                    for _ in 0..<2 where !all.isEmpty {
                        let row = all[Int(random.next(upperBound: UInt64(all.count)))]
                        starts.append((row.km, row.id))
                    }
                    for from in starts {
                        for outward in [true, false] {
                            // The rows strictly past `from` in the walk's direction, in its order.
                            let expected = (outward ? all : all.reversed()).filter { row in
                                guard let from else { return true }
                                return outward ? (row.km, row.id) > from : (row.km, row.id) < from
                            }
                            for limit in [0, 1, 60, all.count + 5] {
                                let walked = try DistanceTable.walk(db, origin: origin, filter: filter, from: from,
                                                                    outward: outward, limit: limit)
                                let want = expected.prefix(limit)
                                let context = "\(label) origin \(origin) filter \(filter.0) from \(String(describing: from)) outward \(outward) limit \(limit)"
                                #expect(walked.map(\.row.code) == want.map(\.code), "\(context)")
                                #expect(walked.map(\.km.bitPattern) == want.map(\.km.bitPattern), "\(context)")
                                #expect(limit > 60 || walked.allSatisfy { $0.km.bitPattern == origin.distance(to: GeoPoint(latitude: $0.row.latitude, longitude: $0.row.longitude)).bitPattern },
                                        "\(context): km is Swift's distance")
                            }
                        }
                    }
                }
            }
        }
    }

    static let halfCircumference = Double.pi * GeoPoint.earthRadius

    static let fixedOrigins: [GeoPoint] = [.init(latitude: 35.68, longitude: 139.69), .init(latitude: 90, longitude: 0),
                                           .init(latitude: -18.14, longitude: 179.9), .init(latitude: 0, longitude: -180)]

    @Test func equalsOrderByDistanceOnAGeneratedStore() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.generate(count: 1_500)
        var random = SeededGenerator(seed: 13)
        let records = (0..<1_000).map { index in
            QuakeRecord(code: "r\(index)", magnitude: Double(random.next(upperBound: UInt64(70))) / 10,
                        place: index % 3 == 0 ? "near Tokyo, Japan" : "somewhere, Region 7", time: 1_700_000_000_000 + Int64(index) * 1000,
                        updated: 1, latitude: Double(random.next(upperBound: UInt64(18_001))) / 100 - 90,
                        longitude: Double(random.next(upperBound: UInt64(36_001))) / 100 - 180, depth: 10)
        }
        try store.upsert(records)
        let randomOrigins = (0..<2).map { _ in
            GeoPoint(latitude: Double(random.next(upperBound: UInt64(18_001))) / 100 - 90, longitude: Double(random.next(upperBound: UInt64(36_001))) / 100 - 180)
        }
        try Self.check(store, origins: Self.fixedOrigins + randomOrigins, random: &random, label: "generated")
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func equalsOrderByDistanceOnARealFeed() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(try IndependentParse.distinctRecords(SharedData.url("all_week-2018-06-14.geojson")))
        var random = SeededGenerator(seed: 31)
        try Self.check(store, origins: [Self.fixedOrigins[0], .init(latitude: 61.2, longitude: -149.9)], random: &random, label: "real feed")
    }
}
