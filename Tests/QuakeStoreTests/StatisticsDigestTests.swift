import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The statistics' types, agencies, moments and b-positive, and declustering's events, from the
/// digest (issue 54, point 7) equal, number for number, what reading every row in time order gives
/// (`catalogueEvents`, `including(_:)`, `CatalogueEvents.bPositive`): on a seeded store with
/// mixed magnitude types (spelt in several cases, none, blank), agencies and ComCat's networks,
/// equal times and quakes without a magnitude, for the whole list and filtered and searched ones,
/// and again after writes that change a quake's magnitude type, agency or network alone.
@Suite struct StatisticsDigestTests {
    static let types: [String?] = ["ml", "ML", "Ml ", "mb", "mww", "Mww", nil, "", "md", "mb_lg"]
    static let agencies: [String?] = [nil, "usgs", "emsc", "isc"]
    /// ComCat's contributing networks as feeds spell them (a net on another agency's row is not one).
    static let networks: [String?] = [nil, "", "ci", "nc", "AK", "us"]

    static func records(count: Int, seed: UInt64) -> [QuakeRecord] {
        var rng = SeededGenerator(seed: seed)
        let start: Int64 = 1_700_000_000_000
        var time = start
        return (0..<count).map { i in
            // Equal times now and then: the earlier row comes first, as `ORDER BY time, id` reads.
            if Int.random(in: 0..<5, using: &rng) != 0 { time += Int64.random(in: 1...3 * 3_600_000, using: &rng) }
            let magnitude: Double? = Int.random(in: 0..<15, using: &rng) == 0
                ? nil : Double(Int.random(in: -10...79, using: &rng)) / 10 + [0, 0.04, 0.05][Int.random(in: 0..<3, using: &rng)]
            let place = ["5 km N of Anchor Point, Alaska", "3 km W of Cobb, CA", "Fiji Islands region"][i % 3]
            return QuakeRecord(code: "d\(i)", magnitude: magnitude, magType: types[Int.random(in: 0..<types.count, using: &rng)],
                               place: place, time: time, updated: time,
                               latitude: Double.random(in: -60...60, using: &rng), longitude: Double.random(in: -180...180, using: &rng),
                               depth: Double(Int.random(in: 0...700, using: &rng)),
                               net: networks[Int.random(in: 0..<networks.count, using: &rng)],
                               source: agencies[Int.random(in: 0..<agencies.count, using: &rng)])
        }
        // Stored in an order unlike time's, so ids and times disagree.
        .shuffled(using: &rng)
    }

    static let utc = TimeZone(identifier: "UTC")!
    static let requests: [SectionedFetchRequest] = [
        SectionedFetchRequest(timeZone: utc),
        SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: 2.5), timeZone: utc),
        SectionedFetchRequest(predicate: QuakePredicate(searchText: "alaska"), timeZone: utc),
        SectionedFetchRequest(predicate: QuakePredicate(rowFilters: [.depth(0...100)]), timeZone: utc),
        // Days that start 15 minutes into a run of 30 (UTC+5:45): the walk leaves a run midway.
        SectionedFetchRequest(timeZone: TimeZone(identifier: "Asia/Kathmandu")!),
    ]

    /// The digest answered (unless `digestAnswers` is false: the caller checks where it did
    /// not), and every number equals the rows'; the counts given first are the whole summary's.
    static func expectDigestEqualsRows(_ store: TestStore, digestAnswers: Bool = true,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        try store.read { (db: Connection) throws -> Void in
            try SearchDigestTests.expectCurrentAndEqual(db, sourceLocation: sourceLocation)
            for request in requests {
                let plan = QueryPlan(request)
                if digestAnswers {
                    #expect(try db.catalogueSummaryFromDigest(plan, timeZone: request.timeZone) != nil, "the digest answers",
                            sourceLocation: sourceLocation)
                }
                var counted: CatalogueStatistics?
                let (statistics, positive) = try db.catalogueSummary(of: request, partial: { counted = $0 })
                #expect(counted == (try db.catalogueStatistics(of: request)), sourceLocation: sourceLocation)
                let events = try db.catalogueEventsFromRows(plan)
                // Declustering's events from the digest: the rows', column for column.
                let fromDigest = try #require(try db.catalogueEventsFromDigest(plan), sourceLocation: sourceLocation)
                #expect(fromDigest == events, sourceLocation: sourceLocation)
                #expect(fromDigest.regionNames == events.regionNames && fromDigest.typeNames == events.typeNames
                        && fromDigest.agencyNames == events.agencyNames, sourceLocation: sourceLocation)
                #expect(Declustering.gk.decluster(fromDigest) == Declustering.gk.decluster(events), sourceLocation: sourceLocation)
                let expected = try db.catalogueStatistics(of: request).including(events)
                #expect(statistics == expected, "\(request.predicate)", sourceLocation: sourceLocation)
                #expect(statistics.composition == expected.composition, sourceLocation: sourceLocation)
                #expect(statistics.dayMoments == expected.dayMoments && statistics.hourMoments == expected.hourMoments,
                        sourceLocation: sourceLocation)
                #expect(positive == events.bPositive, sourceLocation: sourceLocation)
                #expect(statistics.composition?.types.count ?? 0 > 1 || statistics.count == 0, sourceLocation: sourceLocation)
            }
        }
    }

    /// The C pass bins the usable magnitudes that `MagnitudeFrequency` bins, no others.
    @Test func theCPassKnowsTheUsableBins() {
        #expect(DigestCompositionReader.cTenths == MagnitudeFrequency.usableTenths)
        #expect(DigestCompositionReader.cTenthCount == MagnitudeFrequency.usableTenths.count)
    }

    @Test(arguments: [1, 2] as [UInt64])
    func theDigestGivesTheRowsNumbers(_ seed: UInt64) throws {
        let store = try TestStore(Self.records(count: 3_000, seed: seed))
        defer { store.remove() }
        try Self.expectDigestEqualsRows(store)
    }

    /// A store written in time order is read in it: nothing is reordered, the same numbers.
    @Test func aStoreInTimeOrderGivesTheRowsNumbers() throws {
        let store = try TestStore(Self.records(count: 1_500, seed: 5).sorted { $0.time < $1.time })
        defer { store.remove() }
        try Self.expectDigestEqualsRows(store)
    }

    /// Many quakes in one run of time, in no order, some at one millisecond: each run is sorted by
    /// time, the earlier row first on equal times (`MagnitudesInTimeOrder`).
    /// Stored newest first too (a feed's order), where a run is reversed and its equal times put
    /// back in id order.
    @Test(arguments: [false, true])
    func aCrowdedRunIsPutInOrder(newestFirst: Bool) throws {
        var rng = SeededGenerator(seed: 11)
        var records = Self.records(count: 600, seed: 11).enumerated().map { index, record in
            var record = record
            record.time = 1_700_000_000_000 + Int64.random(in: 0 ..< 1_800_000, using: &rng) / (index % 4 == 0 ? 100_000 : 1)
            record.updated = record.time
            return record
        }
        if newestFirst { records.sort { $0.time > $1.time } }
        let store = try TestStore(records)
        defer { store.remove() }
        try Self.expectDigestEqualsRows(store)
    }

    /// Magnitudes given to thousandths, and times from 1900 to 2100, before 1970 too: the digest
    /// answers, the same numbers.
    @Test func thousandthsAndACenturyAgree() throws {
        var rng = SeededGenerator(seed: 12)
        let records = Self.records(count: 800, seed: 12).map { record in
            var record = record
            if let magnitude = record.magnitude, Bool.random(using: &rng) {
                record.magnitude = magnitude + 0.001  // under 300 values: within the codes (`MagnitudeCodes`)
            }
            record.time = Int64.random(in: -2_208_988_800_000 ... 4_102_444_800_000, using: &rng)
            record.updated = record.time
            return record
        }
        let store = try TestStore(records)
        defer { store.remove() }
        try Self.expectDigestEqualsRows(store)
    }

    /// More distinct magnitudes than the codes hold, or times wider than the runs counted
    /// (about 239 years): the rows answer instead, with the same numbers.
    @Test(arguments: [false, true])
    func whatTheDigestCannotHoldIsReadFromTheRows(_ wide: Bool) throws {
        let records = Self.records(count: 1_200, seed: 13).enumerated().map { index, record in
            var record = record
            if wide {
                if index == 0 { (record.time, record.magnitude) = (-30_000_000_000_000, 3.3) }  // 1019
            } else if record.magnitude != nil {
                record.magnitude = 1 + Double(index) / 997  // 1,200 values that are not hundredths
            }
            return record
        }
        let store = try TestStore(records)
        defer { store.remove() }
        try store.read { (db: Connection) throws -> Void in
            let whole = Self.requests[0]
            #expect(try db.catalogueSummaryFromDigest(QueryPlan(whole), timeZone: whole.timeZone) == nil)
        }
        try Self.expectDigestEqualsRows(store, digestAnswers: false)
    }

    /// Each run of 30 minutes has the room of the store's quakes in its two 15-minute buckets
    /// (before 1970 too); a run given more rows than that fails rather than write past its room.
    @Test func runsHoldTheRoomTheStoreCounts() throws {
        let run = MagnitudesInTimeOrder.runMilliseconds, bucket: Int64 = 900_000
        // Buckets -2 and -1 (run -1), 4 and 5 (run 2), 20 (run 10), 79 (run 39).
        let room = try #require(TimeRunRoom(buckets: [(-2, 1), (-1, 1), (4, 1), (5, 1), (20, 1), (79, 1)]))
        #expect(room.first == -1 && room.counts.count == 41 && room.total == 6)
        #expect(room.counts[0] == 2 && room.counts[3] == 2 && room.counts[11] == 1 && room.counts[40] == 1)
        let times: [Int64] = [10 * run + 5, 2 * run, -1, 40 * run - 1, 2 * run + bucket + 7, -run]
        var ordered = try #require(MagnitudesInTimeOrder(room))
        // Whole magnitudes, and one in thousandths (coded in Swift, not in C).
        ordered.place(times: times, magnitudes: times.indices.map { Double($0) + ($0 == 3 ? 0.001 : 0) })
        #expect(!ordered.failed)
        // Each run rising or falling (run -1 placed newest first): no milliseconds needed in UTC.
        let marks = ordered.markRuns(timeZone: Self.utc, dayRange: CatalogueStatistics(timeZone: Self.utc).dayRange(of:))
        #expect(!marks)
        ordered.sortRuns()
        var seen: [Int64] = []
        var magnitudes: [Double] = []
        ordered.forEach { time, code in
            seen.append(time)
            magnitudes.append(ordered.codes.magnitude(UInt32(code)))
            #expect(ordered.codes.tenth(UInt32(code)) == Int16(MagnitudeBin.tenth(of: magnitudes.last!)!))
        }
        // An unmarked run's rows are given at its start: the day and hour they are counted in.
        #expect(seen == times.sorted().map { $0 - (($0 % run) + run) % run })
        #expect(magnitudes == [5, 2, 1, 4, 0, 3.001])
        // A third row in run 2, which the store counts two in.
        var crowded = try #require(MagnitudesInTimeOrder(room))
        crowded.place(times: [2 * run, 2 * run + 1, 2 * run + 2], magnitudes: [1, 1, 1])
        #expect(crowded.failed)
        // A row in a run the store counts none in.
        var outside = try #require(MagnitudesInTimeOrder(room))
        outside.place(times: [5 * run], magnitudes: [1])
        #expect(outside.failed)
        // Buckets out of order, spanning more runs than kept, or overflowing a run's count give no room.
        #expect(TimeRunRoom(buckets: [(10, 1), (2, 1)]) == nil)
        #expect(TimeRunRoom(buckets: [(0, 1), (2 * Int64(TimeRunRoom.maximumRuns), 1)]) == nil)
        #expect(TimeRunRoom(buckets: [(0, Int64(Int32.max) - 1), (1, 2)]) == nil)
        #expect(TimeRunRoom(buckets: [])?.total == 0)
    }

    /// A run is marked, its rows' milliseconds read again, only when it is in no order or a day
    /// starts inside it: rising, falling and equal times need none in a zone whose days start on
    /// a half hour; Kathmandu's start at 18:15 UTC, and Kolkata's at local mean time until 1906.
    @Test func onlyRunsInNoOrderOrSplitByADayAreMarked() throws {
        let run = MagnitudesInTimeOrder.runMilliseconds, day = 48 * run
        let start = 1_700_006_400_000 - 1_700_006_400_000 % day  // a UTC midnight
        // Runs 0 (rising), 1 (falling, a tie), 2 (one time), 3 (in no order); 36 holds 18:00–18:30 UTC.
        let times = [start + 5, start + 9, start + run + 9, start + run + 9, start + run + 2, start + 2 * run + 1,
                     start + 2 * run + 1, start + 3 * run + 5, start + 3 * run + 1, start + 3 * run + 7,
                     start + 36 * run + 100]
        let buckets = Dictionary(grouping: times) { $0 / (run / 2) }.map { (bucket: $0.key, count: Int64($0.value.count)) }
        let room = try #require(TimeRunRoom(buckets: buckets.sorted { $0.bucket < $1.bucket }))
        func marked(in zone: String) throws -> [Int64] {
            var ordered = try #require(MagnitudesInTimeOrder(room))
            ordered.place(times: times, magnitudes: times.map { _ in 2 })
            let timeZone = try #require(TimeZone(identifier: zone))
            _ = ordered.markRuns(timeZone: timeZone, dayRange: CatalogueStatistics(timeZone: timeZone).dayRange(of:))
            return ordered.markedRuns.map { Int64($0) + room.first - start / run }
        }
        #expect(try marked(in: "UTC") == [3])
        #expect(try marked(in: "Asia/Kathmandu") == [3, 36])
        let kolkata = try #require(TimeZone(identifier: "Asia/Kolkata"))
        let year: Int64 = 365 * 86_400_000
        #expect(!MagnitudesInTimeOrder.daysStartOnRunEdges(kolkata, from: -70 * year, to: -65 * year))  // 1900–1905
        #expect(MagnitudesInTimeOrder.daysStartOnRunEdges(kolkata, from: 0, to: 50 * year))
        #expect(MagnitudesInTimeOrder.daysStartOnRunEdges(try #require(TimeZone(identifier: "Europe/Berlin")), from: 0, to: 50 * year))
        #expect(!MagnitudesInTimeOrder.daysStartOnRunEdges(try #require(TimeZone(identifier: "Asia/Kathmandu")), from: 0, to: 50 * year))
    }

    /// A feed imported newest first, then quakes that came late into runs it filled: the late
    /// runs are in no order; local mean time splits runs by day (Kolkata before 1906). The same
    /// numbers as the rows'.
    @Test func lateQuakesAndLocalMeanTimeGiveTheRowsNumbers() throws {
        // About eight quakes a run of 30 minutes, newest first.
        var records = Self.records(count: 1_200, seed: 21).map { record in
            var record = record
            record.time = 1_700_000_000_000 + (record.time - 1_700_000_000_000) / 20
            record.updated = record.time
            return record
        }.sorted { $0.time > $1.time }
        let late = records.indices.filter { $0 % 7 == 3 }.map { records[$0] }
        records = records.enumerated().filter { $0.offset % 7 != 3 }.map(\.element) + late
        let store = try TestStore(records)
        defer { store.remove() }
        try Self.expectDigestEqualsRows(store)
        let old = Self.records(count: 600, seed: 22).map { record in
            var record = record
            record.time = record.time - 1_700_000_000_000 - 2_200_000_000_000  // 1900–1905
            record.updated = record.time
            return record
        }
        let early = try TestStore(old)
        defer { early.remove() }
        try early.read { (db: Connection) throws -> Void in
            let kolkata = TimeZone(identifier: "Asia/Kolkata")!
            let request = SectionedFetchRequest(timeZone: kolkata)
            let (statistics, positive) = try db.catalogueSummary(of: request)
            let events = try db.catalogueEventsFromRows(QueryPlan(request))
            #expect(try db.catalogueSummaryFromDigest(QueryPlan(request), timeZone: kolkata) != nil)
            #expect(statistics == (try db.catalogueStatistics(of: request)).including(events))
            #expect(positive == events.bPositive)
        }
    }

    /// Under three days the moments are per hour too.
    @Test func hourlyMomentsAgree() throws {
        let records = Self.records(count: 400, seed: 7).enumerated().map { index, record in
            var record = record
            record.time = 1_700_000_000_000 + Int64(index % 200) * 600_000
            record.updated = record.time
            return record
        }
        let store = try TestStore(records)
        defer { store.remove() }
        try Self.expectDigestEqualsRows(store)
        try store.read { (db: Connection) throws -> Void in #expect(try !db.catalogueSummary(of: Self.requests[0]).0.hourMoments.isEmpty) }
    }

    /// A revision that changes a quake's magnitude type, agency or network alone (its magnitude,
    /// place and time as they were) is in the digest's next pass: the digest's update trigger lists
    /// all three.
    @Test func aTypeAgencyOrNetworkChangedAloneIsCounted() throws {
        let records = Self.records(count: 500, seed: 3)
        let store = try TestStore(records)
        defer { store.remove() }
        var revised = Array(records.prefix(60))
        for index in revised.indices {
            revised[index].updated += 1
            switch index % 3 {
            case 0: revised[index].magType = "mwr"
            case 1: revised[index].source = "gcmt"
            default: (revised[index].source, revised[index].net) = ("usgs", "uu")
            }
        }
        try store.upsert(revised)
        try Self.expectDigestEqualsRows(store)
        try store.read { (db: Connection) throws -> Void in
            let composition = try #require(try db.catalogueSummary(of: Self.requests[0]).0.composition)
            #expect(composition.types.contains { $0.name == "mwr" && $0.count == 20 })
            #expect(composition.agencies.contains { $0.name == "gcmt" && $0.count == 20 })
            #expect(composition.agencies.contains { $0.name == "uu" && $0.count == 20 })
        }
    }

    /// ComCat's rows are named by the network that contributed them (lower-cased), another
    /// agency's by the agency (a `net` it gives is not ComCat's), a ComCat row without one `usgs`;
    /// a type from two networks is a type from two agencies, which the statistics warn about.
    @Test func comCatsNetworksAreItsAgencies() throws {
        func quake(_ code: String, _ net: String?, source: String?, at minute: Int64) -> QuakeRecord {
            QuakeRecord(code: code, magnitude: 2.5, magType: "ml", place: "3 km W of Cobb, CA", time: 1_700_000_000_000 + minute * 60_000,
                        updated: 1, latitude: 38.8, longitude: -122.7, depth: 5, net: net, source: source)
        }
        let records = (0..<6).map { quake("c\($0)", "CI", source: nil, at: Int64($0)) }
            + (0..<3).map { quake("n\($0)", "nc", source: "usgs", at: 10 + Int64($0)) }
            + (0..<2).map { quake("e\($0)", "nc", source: "emsc", at: 20 + Int64($0)) }
            + [quake("u0", nil, source: nil, at: 30)]
        let store = try TestStore(records)
        defer { store.remove() }
        try store.read { (db: Connection) throws -> Void in
            try SearchDigestTests.expectCurrentAndEqual(db)
            let plan = QueryPlan(Self.requests[0])
            for events in [try db.catalogueEventsFromRows(plan), try #require(try db.catalogueEventsFromDigest(plan))] {
                #expect(Dictionary(grouping: events.agencies.map { events.agencyNames[Int($0)] }, by: { $0 }).mapValues(\.count)
                        == ["ci": 6, "nc": 3, "emsc": 2, "usgs": 1])
            }
            let composition = try #require(try db.catalogueSummary(of: Self.requests[0]).0.composition)
            let ml = try #require(composition.types.first { $0.name == "ml" })
            #expect(ml.agencyCounts == ["ci": 6, "nc": 3, "emsc": 2, "usgs": 1])
            #expect(MagnitudeMixWarnings.severalAgencies(ml)?.map(\.name) == ["ci", "nc", "emsc", "usgs"])
        }
    }

    /// A store whose digest is of the format before kinds (3) gets one in today's format when
    /// opened for writing, with the update trigger that lists magnitude types and agencies.
    @Test func aFormerDigestIsRebuiltWithKinds() throws {
        let store = try TestStore(Self.records(count: 300, seed: 4))
        defer { store.remove() }
        try SearchDigestTests.writeByHand(store, """
            UPDATE meta SET value = 3 WHERE key = 'digest'; DELETE FROM quake_digest_kind;
            DROP TRIGGER quake_digest_update;
            CREATE TRIGGER quake_digest_update AFTER UPDATE OF id, placeKey, time, magnitude, depth, latitude, longitude, region ON quake
                BEGIN INSERT INTO quake_digest_dirty (id) VALUES (old.id), (new.id) ON CONFLICT (id) DO NOTHING; END;
            """)
        try store.read { (db: Connection) throws -> Void in #expect(try !SearchDigest.isCurrent(db)) }
        let reopened = try PersistentContainer(directory: store.directory.url)
        reopened.close()
        try Self.expectDigestEqualsRows(store)
        try store.read { (db: Connection) throws -> Void in
            let trigger = try db.scalar("SELECT sql FROM sqlite_master WHERE name = 'quake_digest_update'")
            guard case .text(let sql) = trigger else { Issue.record("no update trigger"); return }
            #expect(sql.contains("magType"))
        }
    }
}
