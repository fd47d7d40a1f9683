import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// `Connection.catalogueStatistics` against plain `GROUP BY` over the same rows (issue 32): a
/// seeded random store, the whole list and filtered ones, every distribution, the largest quakes
/// and the time range. Region titles that differ only in case, or only in Unicode normalization
/// (which Swift's `String` equates), are in the store on purpose.
@Suite struct StatisticsAgreementTests {
    static let places = ["5 km N of Anchor Point, Alaska", "12 km SW of Ugashik, alaska", "40 km E of Adak, ALASKA",
                         "3 km W of Cobb, CA", "Fiji Islands region", "10 km S of Volcano, Hawaii",
                         "2 km NE of Ocotillo, Baja California", "near the coast of Central Peru",
                         "7 km N of Apia, Café", "9 km S of Apia, Cafe\u{301}", "", "South of the Kermadec Islands"]

    /// The statistics' bins are defined in Swift (QuakeModel has no C) and counted into in C by
    /// the pass over the digest: both must be the same bins.
    @Test func talliesBinsAreCs() {
        #expect(CatalogueStatistics.Tally.agreesWithC)
    }

    /// `count` quakes over `spanDays` days: magnitudes from -1.0 to 7.9 with some missing, depths
    /// from -3 to 700 km with some missing and some on a bin's edge.
    static func records(count: Int, spanDays: Int64, seed: UInt64) -> [QuakeRecord] {
        var rng = SeededGenerator(seed: seed)
        let start: Int64 = 1_700_000_000_000
        return (0..<count).map { i in
            let place = places[Int.random(in: 0..<places.count, using: &rng)]
            let magnitude: Double? = Int.random(in: 0..<12, using: &rng) == 0
                ? nil : Double(Int.random(in: -10...79, using: &rng)) / 10 + [0, 0.04, 0.05][Int.random(in: 0..<3, using: &rng)]
            let depth: Double? = switch Int.random(in: 0..<10, using: &rng) {
            case 0: nil
            case 1: Double([0, 10, 90, 100, 200, 600][Int.random(in: 0..<6, using: &rng)])
            default: Double(Int.random(in: -30...7000, using: &rng)) / 10
            }
            let time = start + Int64.random(in: 0..<(spanDays * 86_400_000), using: &rng)
            return QuakeRecord(code: "s\(i)", magnitude: magnitude, place: place, time: time, updated: time,
                               latitude: Double.random(in: -60...60, using: &rng), longitude: Double.random(in: -180...180, using: &rng),
                               depth: depth, type: i % 7 == 0 ? "explosion" : "earthquake")
        }
    }

    /// The same statistics by `GROUP BY`, with `condition` the request's predicate in SQL written
    /// out by hand (a minimum magnitude as shown: `M × 10 + 0.5 ≥ 10 × minimum`, 2.45 is 2.5). Days are in UTC; regions are merged as Swift strings (canonically equal titles
    /// are one region, as `String` keys are).
    static func expected(_ db: Connection, where condition: String) throws -> Expected {
        func rows(_ sql: String) throws -> [[SQLiteValue]] {
            let statement = try db.prepare(sql)
            var result: [[SQLiteValue]] = []
            while try statement.step() { result.append((0..<statement.columnCount).map { statement.value(at: $0) }) }
            return result
        }
        var expected = Expected()
        let total = try rows("SELECT count(*), min(time), max(time) FROM quake WHERE \(condition)")[0]
        expected.count = Int(total[0].int64 ?? 0)
        if let low = total[1].int64, let high = total[2].int64 { expected.timeRange = low...high }
        // floor(M × 10 + 0.5), stepped to the bin whose edges (2t ∓ 1) / 20 hold M where the
        // product rounds across an edge (7.6 + 0.05 is just below 7.65: the bin of 7.6).
        for row in try rows("""
            SELECT t0 - (m < (2 * t0 - 1) / 20.0) + (m >= (2 * t0 + 1) / 20.0) AS t, count(*)
            FROM (SELECT m, CAST(x AS INTEGER) - (x < CAST(x AS INTEGER)) AS t0
                  FROM (SELECT magnitude AS m, magnitude * 10 + 0.5 AS x FROM quake WHERE magnitude IS NOT NULL AND \(condition)))
            GROUP BY t
            """) { expected.tenths[Int(row[0].int64!)] = Int(row[1].int64!) }
        for row in try rows("""
            SELECT CASE WHEN depth < 100 THEN CAST((depth + 1000) / 10 AS INTEGER) * 10 - 1000
                        ELSE CAST(depth / 100 AS INTEGER) * 100 END AS b, count(*) FROM quake
            WHERE depth IS NOT NULL AND \(condition) GROUP BY b
            """) { expected.depths[Double(row[0].int64!)] = Int(row[1].int64!) }
        for row in try rows("SELECT date(time / 1000, 'unixepoch'), count(*) FROM quake WHERE \(condition) GROUP BY 1") {
            expected.days.append((row[0].string!, Int(row[1].int64!)))
        }
        for row in try rows("SELECT time / 3600000 * 3600000, count(*) FROM quake WHERE \(condition) GROUP BY 1") {
            expected.hours.append((row[0].int64!, Int(row[1].int64!)))
        }
        for row in try rows("SELECT region, count(*) FROM quake WHERE \(condition) GROUP BY region") {
            expected.regions[row[0].string!, default: 0] += Int(row[1].int64!)
        }
        for row in try rows("""
            SELECT magnitude, time, region FROM quake WHERE magnitude IS NOT NULL AND \(condition)
            ORDER BY magnitude DESC, time, id LIMIT \(CatalogueStatistics.largestCount)
            """) { expected.largest.append("\(row[0].double!) \(row[1].int64!) \(row[2].string!)") }
        return expected
    }

    struct Expected {
        var count = 0
        var timeRange: ClosedRange<Int64>?
        var tenths: [Int: Int] = [:]
        var depths: [Double: Int] = [:]
        var days: [(String, Int)] = []
        var hours: [(Int64, Int)] = []
        var regions: [String: Int] = [:]
        /// "magnitude time region" each.
        var largest: [String] = []
    }

    static func check(_ stats: CatalogueStatistics, _ expected: Expected, _ label: String) {
        #expect(stats.count == expected.count, "\(label)")
        #expect(stats.timeRange == expected.timeRange, "\(label)")
        #expect(stats.magnitudes.tenths == expected.tenths, "\(label)")
        #expect(Dictionary(uniqueKeysWithValues: stats.depthBins.map { ($0.from, $0.count) }) == expected.depths, "\(label)")
        #expect(stats.daily.map(\.day) == expected.days.map(\.0), "\(label)")
        #expect(stats.daily.map(\.count) == expected.days.map(\.1), "\(label)")
        let spansHours = (expected.timeRange.map { $0.upperBound - $0.lowerBound } ?? 0) < CatalogueStatistics.hourlySpan
        #expect(stats.isHourly == spansHours, "\(label)")
        if spansHours {
            #expect(stats.timeline.map(\.start) == expected.hours.map(\.0), "\(label)")
            #expect(stats.timeline.map(\.count) == expected.hours.map(\.1), "\(label)")
        }
        #expect(stats.regionCounts == expected.regions, "\(label)")
        #expect(stats.topRegions(100).count == expected.regions.count, "\(label)")
        #expect(stats.largest.map { "\($0.magnitude) \($0.time) \($0.region)" } == expected.largest, "\(label)")
    }

    static let utc = TimeZone(identifier: "UTC")!

    /// The whole list and filtered lists (a minimum magnitude, a search, a `:` filter, all three),
    /// over a store spanning weeks (a timeline per day).
    @Test func everyDistributionMatchesGroupBy() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(count: 3000, spanDays: 40, seed: 32))
        let cases: [(QuakePredicate, String)] = [
            (QuakePredicate(), "1"),
            (QuakePredicate(minimumMagnitude: 2.5), "magnitude * 10 + 0.5 >= 25"),
            (QuakePredicate(searchText: "apia"), "instr(placeKey, 'apia') > 0"),
            (QuakePredicate(searchText: "Al"), "instr(placeKey, 'al') > 0"),
            (QuakePredicate(rowFilters: [.depth(0...100)]), "depth BETWEEN 0 AND 100"),
            (QuakePredicate(searchText: "ALASKA", minimumMagnitude: 1, rowFilters: [.eventType("explosion", excluded: true)]),
             "magnitude * 10 + 0.5 >= 10 AND instr(placeKey, 'alaska') > 0 AND (type IS NULL OR type <> 'explosion' COLLATE NOCASE)"),
            (QuakePredicate(minimumMagnitude: 9), "magnitude * 10 + 0.5 >= 90"),
        ]
        try store.read { db in
            for (predicate, condition) in cases {
                let stats = try db.catalogueStatistics(of: SectionedFetchRequest(predicate: predicate, timeZone: Self.utc))
                Self.check(stats, try Self.expected(db, where: condition), condition)
            }
        }
    }

    /// A minimum magnitude most of the store passes is read by scanning the table (looking up a
    /// third of a million rows through the magnitude index took 1.1 s, the table 0.2 s); one few
    /// quakes pass still goes through the index. The statistics are the same either way (above).
    @Test func aMinimumMostQuakesPassIsReadByTheTable() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(count: 2000, spanDays: 10, seed: 3))
        try store.read { db in
            for (minimum, usesIndex) in [(2.5, false), (7.5, true), (9.0, true)] {
                let plan = QueryPlan(SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: minimum), timeZone: Self.utc))
                let (condition, arguments) = try db.everyRowWhere(plan)
                let statement = try db.prepare("EXPLAIN QUERY PLAN SELECT magnitude, depth, time, region FROM quake WHERE \(condition)")
                try statement.bind(arguments)
                var details: [String] = []
                while try statement.step() { details.append(statement.text(at: 3)) }
                #expect(details.contains { $0.contains("quake_magnitude") } == usesIndex, "M ≥ \(minimum): \(details)")
                #expect(try db.scalar("SELECT count(*) FROM quake WHERE \(condition)", arguments)
                        == db.scalar("SELECT count(*) FROM quake WHERE magnitude * 10 + 0.5 >= ?", [.real(minimum * 10)]), "M ≥ \(minimum)")
            }
        }
    }

    /// The search the statistics test in Swift on each row's placeKey finds what SQLite's `instr`
    /// finds: at the start, the end, after a partial match, in multi-byte text, in empty text.
    @Test func thePlaceTestAgreesWithInstr() throws {
        let store = try TestStore()
        defer { store.remove() }
        let places = ["", "a", "aab", "aaab", "abab", "banana", "höfn, iceland", "cafe\u{301}", "café", "x\u{0}a", "ba"]
        let searches = ["a", "ab", "aab", "na", "ana", "ö", "é", "e\u{301}", "\u{0}a", "banana!", "ba"]
        try store.read { db in
            for place in places {
                for search in searches {
                    let expected = try db.scalar("SELECT instr(?, ?) > 0", [.text(place), .text(search)]).int64 == 1
                    var haystack = place
                    let found = haystack.withUTF8 { PlaceSearch.contains(UnsafeRawBufferPointer($0), Array(search.utf8)) }
                    #expect(found == expected, "\(place.debugDescription) ∋ \(search.debugDescription)")
                }
            }
        }
    }

    /// Under three days the timeline is per hour, whole and filtered.
    @Test func hoursMatchGroupByUnderThreeDays() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(count: 800, spanDays: 2, seed: 7))
        try store.read { db in
            for (predicate, condition) in [(QuakePredicate(), "1"), (QuakePredicate(minimumMagnitude: 3), "magnitude * 10 + 0.5 >= 30")] {
                let stats = try db.catalogueStatistics(of: SectionedFetchRequest(predicate: predicate, timeZone: Self.utc))
                #expect(stats.isHourly)
                Self.check(stats, try Self.expected(db, where: condition), condition)
            }
        }
    }
}
