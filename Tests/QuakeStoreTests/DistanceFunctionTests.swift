import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// `quaketui_distance`, the C function every connection registers (CQuakeSQL): bit for bit
/// `GeoPoint.distance(to:)` on every row of real feeds from several homes and at the edges
/// (poles, the antimeridian, antipodes, identical points), NULL for NULL or garbage arguments,
/// and the math-function spelling the `sqlite3` shell peer uses agreeing with both.
@Suite struct DistanceFunctionTests {
    /// Tokyo; Suva (near 180°); near the North Pole; Anchorage; the null island; the South Pole.
    static let homes: [GeoPoint] = [
        .init(latitude: 35.68, longitude: 139.69), .init(latitude: -18.14, longitude: 178.44),
        .init(latitude: 89.2, longitude: -30), .init(latitude: 61.2, longitude: -149.9),
        .init(latitude: 0, longitude: 0), .init(latitude: -90, longitude: 0),
    ]

    /// `SELECT quaketui_distance(?, ?, ?, ?)` (and the math-function spelling) for each pair.
    static func inSQL(_ pairs: [(GeoPoint, GeoPoint)]) throws -> [(function: Double?, math: Double?)] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Connection(path: directory.url.appendingPathComponent("d.sqlite").path)
        defer { db.close() }
        var result: [(Double?, Double?)] = []
        for (from, to) in pairs {
            let statement = try db.prepare("""
                SELECT quaketui_distance(\(from.latitude.sqlLiteral), \(from.longitude.sqlLiteral), ?, ?),
                       \(from.mathFunctionsDistanceSQL(latitude: "?1", longitude: "?2"))
                """)
            try statement.bind([.real(to.latitude), .real(to.longitude)])
            _ = try statement.step()
            result.append((statement.optionalDouble(at: 0), statement.optionalDouble(at: 1)))
        }
        return result
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"),
          arguments: ["all_month-2025-09-18.csv", "all_week-2018-06-14.geojson"])
    func bitForBitSwiftOnEveryRowOfARealFeed(_ name: String) throws {
        let points = try IndependentParse.distinctRecords(SharedData.url(name))
            .map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        #expect(points.count > 1_000)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Connection(path: directory.url.appendingPathComponent("d.sqlite").path)
        defer { db.close() }
        try db.execute("CREATE TABLE p(latitude REAL NOT NULL, longitude REAL NOT NULL)")
        try db.transaction(.immediate) {
            let insert = try db.prepare("INSERT INTO p VALUES (?, ?)")
            for point in points {
                insert.reset()
                try insert.bind([.real(point.latitude), .real(point.longitude)])
                while try insert.step() {}
            }
        }
        for home in Self.homes {
            let statement = try db.prepare("SELECT latitude, longitude, \(home.distanceSQL()), \(home.mathFunctionsDistanceSQL()) FROM p ORDER BY rowid")
            var index = 0, mismatches = 0, mathMismatches = 0
            while try statement.step() {
                let point = GeoPoint(latitude: statement.double(at: 0), longitude: statement.double(at: 1))
                let swift = home.distance(to: point)
                if statement.double(at: 2).bitPattern != swift.bitPattern { mismatches += 1 }
                if statement.double(at: 3).bitPattern != swift.bitPattern { mathMismatches += 1 }
                index += 1
            }
            #expect(index == points.count)
            #expect(mismatches == 0, "\(name) from \(home): \(mismatches) of \(index) differ")
            #expect(mathMismatches == 0, "\(name) from \(home) (math functions): \(mathMismatches) of \(index) differ")
        }
    }

    @Test func bitForBitSwiftAtTheEdges() throws {
        let edges: [GeoPoint] = [
            .init(latitude: 90, longitude: 0), .init(latitude: -90, longitude: 180), .init(latitude: 90, longitude: -180),
            .init(latitude: 0, longitude: 180), .init(latitude: 0, longitude: -180), .init(latitude: 0, longitude: 179.999999),
            .init(latitude: -18.14, longitude: -178.44), .init(latitude: 35.68, longitude: 139.69),
            .init(latitude: -35.68, longitude: -40.31),  // Tokyo's antipode
            .init(latitude: 1e-300, longitude: -1e-300), .init(latitude: 45, longitude: 45.000000000000007),
        ]
        var pairs: [(GeoPoint, GeoPoint)] = []
        for a in edges + Self.homes { for b in edges + Self.homes { pairs.append((a, b)) } }
        let results = try Self.inSQL(pairs)
        for ((from, to), result) in zip(pairs, results) {
            let swift = from.distance(to: to)
            #expect(result.function?.bitPattern == swift.bitPattern, "\(from) → \(to): \(String(describing: result.function)) vs \(swift)")
            #expect(result.math?.bitPattern == swift.bitPattern, "\(from) → \(to) (math functions)")
        }
        // Identical points are 0; antipodes are half the circumference (asin clamped at 1).
        #expect(results[pairs.firstIndex { $0.0 == edges[7] && $0.1 == edges[7] }!].function == 0)
        let antipode = results[pairs.firstIndex { $0.0 == edges[7] && $0.1 == edges[8] }!].function!
        #expect(abs(antipode - .pi * GeoPoint.earthRadius) < 1e-6)
    }

    @Test func nullOrGarbageArgumentsGiveNull() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Connection(path: directory.url.appendingPathComponent("d.sqlite").path)
        defer { db.close() }
        for arguments in ["NULL, 0, 0, 0", "0, NULL, 0, 0", "0, 0, NULL, 0", "0, 0, 0, NULL", "'abc', 0, 0, 0",
                          "0, 0, x'00', 0", "0, 0, 0, ''"] {
            #expect(try db.scalar("SELECT quaketui_distance(\(arguments))") == .null, "\(arguments)")
        }
        // Numeric text and integers are numbers, as for SQLite's own math functions.
        let swift = GeoPoint(latitude: 35, longitude: 139).distance(to: GeoPoint(latitude: 36.5, longitude: 140))
        #expect(try db.scalar("SELECT quaketui_distance('35', 139, 36.5, '140.0')").double?.bitPattern == swift.bitPattern)
        // An infinite coordinate is a number: what Swift gives (sin(∞) is NaN, and min(1, NaN) is 1).
        let infinite = GeoPoint(latitude: .infinity, longitude: 0).distance(to: GeoPoint(latitude: 0, longitude: 0))
        #expect(try db.scalar("SELECT quaketui_distance(1e999, 0, 0, 0)").double?.bitPattern == infinite.bitPattern)
        // A wrong number of arguments is an error, not a NULL.
        #expect(throws: SQLiteError.self) { try db.scalar("SELECT quaketui_distance(1, 2, 3)") }
    }
}
