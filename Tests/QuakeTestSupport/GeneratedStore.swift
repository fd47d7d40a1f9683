import Foundation
import QuakeModel
import QuakeStore

extension TestStore {
    /// Fills the store with `count` synthetic quakes in one bulk transaction, in SQL (fast enough
    /// for a million rows in a test): 50 regions, magnitudes −0.5…7.4 and some nulls, 2 s apart.
    public func generate(count: Int) throws {
        let context = try container.newBackgroundContext(author: "generate")
        defer { context.close() }
        try context.performAndWait { tx in
            tx.markBulk()
            try tx.connection.execute("""
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(count - 1))
                INSERT INTO quake (code, magnitude, place, time, updated, latitude, longitude, depth, region, regionKey, placeKey)
                SELECT 'g' || i, CASE WHEN i % 97 = 0 THEN NULL ELSE (i % 80) / 10.0 - 0.5 END,
                       (i % 300) || ' km N of Town ' || (i % 89) || ', Region ' || (i % 50),
                       1700000000000 + i * 2000, 1700000000000 + i * 2000, (i % 180) - 90.0, (i % 360) - 180.0, i % 700,
                       'Region ' || (i % 50), 'region ' || (i % 50),
                       (i % 300) || ' km n of town ' || (i % 89) || ', region ' || (i % 50)
                FROM n
                """)
        }
    }
}
