import Foundation
@testable import QuakeModel
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

    /// A reader on 50 quakes (magnitudes 2.0 … 6.9) running job 1, which waits between two
    /// statements until `release()` and then runs a query too long to end by itself within a
    /// test; every job's answer is written down as "generation: value".
    final class RunningJob: @unchecked Sendable {
        let store: TestStore
        let reader: LatestReader<ViewContext>
        private let started = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        private let answered = DispatchSemaphore(value: 0)
        let answers = LockedValue<[String]>([])

        init() throws {
            store = try TestStore()
            try store.upsert((0..<50).map { QuakeRecord.fixture("q\($0)", magnitude: 2 + Double($0) / 10) })
            reader = try LatestReader(container: store.container)
            submit(generation: 1) { [started, released] db in
                started.signal()
                released.wait()
                let row = try db.scalar("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) SELECT count(*) FROM n")
                return Int(row.int64 ?? 0)
            }
            started.wait()
        }

        func submit(generation: Int, _ body: @escaping @Sendable (Connection) throws -> Int) {
            reader.submit(generation: generation, body) { [answers, answered] generation, result in
                answers.withLock { $0.append("\(generation): \((try? result.get()).map(String.init) ?? "\(result)")") }
                answered.signal()
            }
        }

        /// Lets job 1 go on to its long statement.
        func release() { released.signal() }

        /// The answers once one came (within 20 s).
        func firstAnswers() -> [String]? {
            answered.wait(timeout: .now() + 20) == .success ? answers.withLock { $0 } : nil
        }

        func close() {
            reader.close()
            store.remove()
        }
    }

    /// A newer job stops the running one, which is never answered; the newest is. Here the
    /// newer job comes while the older one is between statements, where an `sqlite3_interrupt`
    /// alone is forgotten when the next statement starts (which would run on to its end).
    @Test func aNewerJobStopsTheRunningOne() throws {
        let job = try RunningJob()
        defer { job.close() }
        let request = SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: 6), timeZone: Self.utc)
        job.submit(generation: 2) { db in try db.catalogueStatistics(of: request).count }
        job.release()
        #expect(job.firstAnswers() == ["2: 10"])  // 6.0 … 6.9
    }

    /// `cancel` stops the running job, which is never answered, even when it comes between two
    /// statements; the reader answers the next job as before.
    @Test func cancelStopsTheRunningJob() throws {
        let job = try RunningJob()
        defer { job.close() }
        job.reader.cancel()
        job.release()
        job.submit(generation: 2) { db in Int(try db.scalar("SELECT count(*) FROM quake").int64 ?? 0) }
        #expect(job.firstAnswers() == ["2: 50"])
    }
}
