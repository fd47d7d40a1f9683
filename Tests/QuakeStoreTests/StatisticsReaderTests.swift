import Foundation
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The statistics view's engine (issue 32): the timeline's bins and largest quakes, and the
/// background reader that answers only the newest request, interrupting older ones.
@Suite struct StatisticsReaderTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let hour: Int64 = 3_600_000
    static let start: Int64 = 1_700_006_400_000  // 2023-11-15 00:00 UTC

    /// Under three days the timeline is per hour; the first quake that stretches it past three
    /// days makes it per day, whatever order the quakes come in.
    @Test func theTimelineIsPerHourUnderThreeDays() {
        var stats = CatalogueStatistics(timeZone: Self.utc)
        for (offset, magnitude) in [(0, 2.0), (90, 3.0), (95, 1.0), (71 * 60, 4.0)] {
            stats.add(magnitude: magnitude, depth: 5, time: Self.start + Int64(offset) * 60_000, region: "Alaska")
        }
        #expect(stats.isHourly)
        #expect(stats.timeline.map(\.start) == [Self.start, Self.start + Self.hour, Self.start + 71 * Self.hour])
        #expect(stats.timeline.map(\.count) == [1, 2, 1])
        stats.add(magnitude: nil, depth: nil, time: Self.start - 2 * Self.hour, region: "Chile")  // 73 h in all
        #expect(!stats.isHourly)
        #expect(stats.timeline.map(\.count) == [1, 3, 1])  // 14, 15 and 17 November
        #expect(stats.timeRange == (Self.start - 2 * Self.hour)...(Self.start + 71 * Self.hour))
    }

    /// The three largest by magnitude, largest first, the earlier on a tie.
    @Test func theLargestAreKeptInOrder() {
        var stats = CatalogueStatistics(timeZone: Self.utc)
        for (index, magnitude) in [3.0, 5.5, 4.0, 5.5, 6.1, 2.0, nil].enumerated() {
            stats.add(magnitude: magnitude, depth: 5, time: Self.start + Int64(index), region: "R\(index)")
        }
        #expect(stats.largest.map(\.magnitude) == [6.1, 5.5, 5.5])
        #expect(stats.largest.map(\.region) == ["R4", "R1", "R3"])
    }

    /// A newer job stops the running one, which is never answered; the newest is. Here the
    /// newer job comes while the older one is between statements, where an `sqlite3_interrupt`
    /// alone is forgotten when the next statement starts (which would run on to its end).
    @Test func aNewerJobStopsTheRunningOne() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<50).map { QuakeRecord.fixture("q\($0)", magnitude: 2 + Double($0) / 10) })
        let reader = try LatestReader(container: store.container)
        defer { reader.close() }
        let started = DispatchSemaphore(value: 0), replaced = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        let answers = LockedValue<[String]>([])
        reader.submit(generation: 1, { db -> Int in
            started.signal()
            replaced.wait()
            // Long enough never to end by itself within the test.
            let row = try db.scalar("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) SELECT count(*) FROM n")
            return Int(row.int64 ?? 0)
        }) { generation, result in
            answers.withLock { $0.append("\(generation): \(result)") }
            answered.signal()
        }
        started.wait()
        let request = SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: 6), timeZone: Self.utc)
        reader.submit(generation: 2, { db in try db.catalogueStatistics(of: request).count }) { generation, result in
            answers.withLock { $0.append("\(generation): \((try? result.get()).map(String.init) ?? "\(result)")") }
            answered.signal()
        }
        replaced.signal()
        #expect(answered.wait(timeout: .now() + 20) == .success)
        #expect(answers.withLock { $0 } == ["2: 10"])  // 6.0 … 6.9
    }

    /// `cancel` stops the running job, which is never answered, even when it comes between two
    /// statements; the reader answers the next job as before.
    @Test func cancelStopsTheRunningJob() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert((0..<50).map { QuakeRecord.fixture("q\($0)", magnitude: 2 + Double($0) / 10) })
        let reader = try LatestReader(container: store.container)
        defer { reader.close() }
        let started = DispatchSemaphore(value: 0), cancelled = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        let answers = LockedValue<[String]>([])
        reader.submit(generation: 1, { db -> Int in
            started.signal()
            cancelled.wait()
            let row = try db.scalar("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) SELECT count(*) FROM n")
            return Int(row.int64 ?? 0)
        }) { generation, _ in
            answers.withLock { $0.append("\(generation)") }
            answered.signal()
        }
        started.wait()
        reader.cancel()
        cancelled.signal()
        reader.submit(generation: 2, { db in Int(try db.scalar("SELECT count(*) FROM quake").int64 ?? 0) }) { generation, result in
            answers.withLock { $0.append("\(generation): \((try? result.get()).map(String.init) ?? "\(result)")") }
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 20) == .success)
        #expect(answers.withLock { $0 } == ["2: 50"])
    }
}
