import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Timings of `DistanceTable.walk` at scale, on a store named by `QUAKETUI_WALK_STORE` (a
/// `quakes.sqlite`, opened read-only; skipped without it): 60 rows nearest Tokyo, from a middle
/// distance both ways, farthest first, each run 7 times (BENCHMARKS.md, issue 13d).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["QUAKETUI_WALK_STORE"] != nil, "set QUAKETUI_WALK_STORE"))
struct DistanceWalkTimingTests {
    @Test func walkTimings() throws {
        let path = ProcessInfo.processInfo.environment["QUAKETUI_WALK_STORE"]!
        let db = try Connection(path: path, readOnly: true, create: false)
        defer { db.close() }
        let tokyo = GeoPoint(latitude: 35.68, longitude: 139.69)
        let middle = try db.scalar("SELECT \(tokyo.distanceSQL()) AS km FROM quake ORDER BY km LIMIT 1 OFFSET 500000").double ?? 0
        let cases: [(String, (km: Double, id: Int64)?, Bool, (String, [SQLiteValue]))] = [
            ("nearest 60", nil, true, ("", [])),
            ("nearest 60, M ≥ 4.5", nil, true, ("magnitude >= ?", [.real(4.5)])),
            ("60 outward from the median distance (\(Int(middle)) km)", (middle, 0), true, ("", [])),
            ("60 inward from the median distance", (middle, 0), false, ("", [])),
            ("farthest 60", nil, false, ("", [])),
        ]
        for (name, from, outward, filter) in cases {
            var times: [Double] = []
            var count = 0
            for _ in 0..<7 {
                let start = DispatchTime.now().uptimeNanoseconds
                count = try DistanceTable.walk(db, origin: tokyo, filter: filter, from: from, outward: outward, limit: 60).count
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            print("walk timing: \(name): \(count) rows, median \(String(format: "%.1f", times[3])) ms, max \(String(format: "%.1f", times[6])) ms")
        }
    }
}
