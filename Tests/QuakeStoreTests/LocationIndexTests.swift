import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The location index (`quake_location`, schema 10) leads with the row's block of ids
/// (`IDBlocks`), so a box (`GeoPoint.boundingBoxSQL`) names every block the table
/// has. Rows in many blocks, negative and sparse ids included, are found exactly as the
/// haversine in Swift finds them (the plan: `DistanceFetchTests.nearFilterUsesTheLocationIndex`).
struct LocationIndexTests {
    /// Ids in blocks -2, 0, 1, 3 and 76, with gaps of whole blocks between them.
    static let ids: [Int64] = [-70_000, 1, 2, 65_535, 65_536, 200_000, 5_000_000]
    /// Places around Tokyo, Suva (across 180°) and the North Pole, and one far from all of them.
    static let places: [(latitude: Double, longitude: Double)] = [
        (35.7, 139.7), (35.0, 140.5), (-18.1, 178.4), (-17.9, -179.8), (89.5, 10), (88.9, -170), (0, 0),
    ]

    static func store() throws -> TestStore {
        let store = try TestStore()
        let writer = try store.container.newBackgroundContext(author: "test")
        defer { writer.close() }
        try writer.performAndWait { tx in
            for (index, id) in ids.enumerated() {
                _ = try tx.upsert(.fixture("q\(index)"))
                let place = places[index % places.count]
                try tx.connection.execute("UPDATE quake SET id = ?, latitude = ?, longitude = ? WHERE code = ?",
                                          [.integer(id), .real(place.latitude), .real(place.longitude), .text("q\(index)")])
            }
        }
        return store
    }

    @Test(arguments: [(35.68, 139.69, 100.0), (-18.14, 178.44, 300.0), (89.2, -30.0, 200.0), (10.0, 10.0, 20_000.0)])
    func aBoxFindsTheRowsOfEveryBlock(latitude: Double, longitude: Double, radius: Double) throws {
        let store = try Self.store()
        defer { store.remove() }
        let home = GeoPoint(latitude: latitude, longitude: longitude)
        let found = try store.read { db in
            let statement = try db.prepare("SELECT id FROM quake WHERE \(home.withinSQL(radiusKm: radius)) ORDER BY id")
            var ids: [Int64] = []
            while try statement.step() { ids.append(statement.int64(at: 0)) }
            return ids
        }
        let expected = Self.ids.enumerated().filter { index, _ in
            let place = Self.places[index % Self.places.count]
            return home.distance(to: GeoPoint(latitude: place.latitude, longitude: place.longitude)) <= radius
        }.map(\.element)
        #expect(found == expected)
        #expect(!found.isEmpty)
    }

    @Test func anEmptyTableHasNoBlockToRead() throws {
        let store = try TestStore()
        defer { store.remove() }
        let count = try store.read { db in
            try db.scalar("SELECT count(*) FROM quake WHERE \(GeoPoint(latitude: 0, longitude: 0).boundingBoxSQL(radiusKm: 100))").int64
        }
        #expect(count == 0)
    }
}
