import CQuakeSQL
import CSQLite
import Foundation
import QuakeModel
import QuakeStore
import Testing

/// `quaketui_haversine_km` and its SQL function `quaketui_distance`: known distances, bit for bit
/// `GeoPoint.distance(to:)` (no fused multiply-add may creep in), and NULL for what is not a number.
@Suite struct DistanceTests {
    static let radius = QUAKETUI_EARTH_RADIUS_KM

    /// Distances that follow from the radius alone (arcs of the equator and of a meridian), and one
    /// between cities (London–Paris, 343.56 km on this sphere).
    @Test func knownDistances() {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }
        #expect(quaketui_haversine_km(35.68, 139.69, 35.68, 139.69) == 0)
        #expect(close(quaketui_haversine_km(0, 0, 0, 90), Self.radius * .pi / 2))
        #expect(close(quaketui_haversine_km(0, 0, 0, 180), Self.radius * .pi))
        #expect(close(quaketui_haversine_km(90, 0, -90, 0), Self.radius * .pi))
        #expect(close(quaketui_haversine_km(0, 179.5, 0, -179.5), Self.radius * .pi / 180))  // across 180°
        #expect(close(quaketui_haversine_km(10, 0, 11, 0), Self.radius * .pi / 180))  // 1° of a meridian
        #expect(abs(quaketui_haversine_km(51.5074, -0.1278, 48.8566, 2.3522) - 343.5565) < 0.001)
        // Antipodes: rounding may push the haversine's sine past 1; it is clamped, not NaN.
        #expect(quaketui_haversine_km(35.68, 139.69, -35.68, -40.31).isFinite)
    }

    /// Bit for bit Swift's `GeoPoint.distance(to:)` on seeded random pairs anywhere on the globe,
    /// near each other and near antipodes: C and Swift compute the same operations in the same
    /// order, which holds only if the C compiler contracts nothing into a fused multiply-add.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func equalsGeoPointDistanceToTheBit(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func coordinate(_ range: Double) -> Double { Double(random.next() >> 11) / Double(1 << 53) * 2 * range - range }
        var mismatches = 0
        for index in 0..<50_000 {
            let from = GeoPoint(latitude: coordinate(90), longitude: coordinate(180))
            let to: GeoPoint = switch index % 3 {
            case 0: GeoPoint(latitude: coordinate(90), longitude: coordinate(180))
            case 1: GeoPoint(latitude: from.latitude + coordinate(0.01), longitude: from.longitude + coordinate(0.01))
            default: GeoPoint(latitude: -from.latitude + coordinate(0.01), longitude: from.longitude + 180 + coordinate(0.01))
            }
            let c = quaketui_haversine_km(from.latitude, from.longitude, to.latitude, to.longitude)
            if c.bitPattern != from.distance(to: to).bitPattern { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func theSQLFunctionIsTheHaversineAndNullForWhatIsNotANumber() throws {
        let db = try MemoryDatabase()
        #expect(quaketui_register_functions(db.handle) == SQLITE_OK)
        let km = quaketui_haversine_km(35.68, 139.69, 61.2, -149.9)
        #expect(try db.scalar("SELECT quaketui_distance(35.68, 139.69, 61.2, -149.9)") == .real(km))
        // Integers and numeric text count as numbers, as in SQLite's own math functions.
        #expect(try db.scalar("SELECT quaketui_distance(0, 0, '0', '90')") == .real(quaketui_haversine_km(0, 0, 0, 90)))
        #expect(try db.scalar("SELECT quaketui_distance(' 35.68', 139.69, 61.2, -149.9)") == .real(km))
        for arguments in ["NULL, 0, 0, 0", "0, 'east', 0, 0", "0, 0, x'00', 0", "0, 0, 0, ''"] {
            #expect(try db.scalar("SELECT quaketui_distance(\(arguments))") == .null, "\(arguments)")
        }
        // A call with the wrong number of arguments does not prepare.
        #expect(throws: MemoryDatabase.Failure.self) { try db.scalar("SELECT quaketui_distance(1, 2, 3)") }
        // Deterministic and innocuous: usable in an index on an expression and in a view.
        try db.execute("""
            CREATE TABLE p(latitude REAL, longitude REAL);
            INSERT INTO p VALUES (61.2, -149.9), (-18.14, 178.44), (NULL, 0);
            CREATE INDEX p_distance ON p(quaketui_distance(35.68, 139.69, latitude, longitude));
            CREATE VIEW v AS SELECT quaketui_distance(35.68, 139.69, latitude, longitude) AS d FROM p;
            """)
        let sorted = try db.rows("SELECT d FROM v ORDER BY d")
        #expect(sorted == [[.null], [.real(km)], [.real(quaketui_haversine_km(35.68, 139.69, -18.14, 178.44))]])
    }
}
