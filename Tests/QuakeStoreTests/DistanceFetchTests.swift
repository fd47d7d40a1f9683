import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Home and distance in the store: the near filter (`RowFilter.near`) and the `distance` sort
/// against an independent haversine (`ExpectedResults.kilometres`, the atan2 form) on real USGS
/// feeds, at homes where the bounding box is plain, wraps the antimeridian, and touches a pole;
/// the filter staying exact through merges that move quakes in and out of the radius; and
/// migrations 4, 5, 9 and 10 (the `quake_location` index, keyed by block of ids in 10; `quake_place`,
/// added and dropped) on an existing store.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct DistanceFetchTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// Tokyo; Suva (Fiji, the radius crosses 180°); near the North Pole (the box is a polar cap); Anchorage.
    static let homes: [(latitude: Double, longitude: Double)] = [(35.68, 139.69), (-18.14, 178.44), (89.2, -30), (61.2, -149.9)]

    static func records(_ name: String) throws -> [QuakeRecord] { try IndependentParse.distinctRecords(SharedData.url(name)) }

    static func contents(_ controller: FetchedResultsController) throws -> [ExpectedResults.Section] {
        try controller.sectionContents()
    }

    @Test(arguments: ["all_week-2018-06-14.geojson", "4.5_month-2014-04-01.geojson"])
    func nearFilterAndDistanceSortMatchAnIndependentHaversine(_ name: String) throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = try Self.records(name)
        try store.upsert(records)
        for home in Self.homes {
            let origin = GeoPoint(latitude: home.latitude, longitude: home.longitude)
            for radius in [nil, 300.0, 2_500] {
                for (unit, search) in [(DistanceReference.Unit.km, ""), (.mi, "alaska")] {
                    for ascending in [true, false] {
                        let label = "\(name) home \(home) radius \(radius.map { "\($0)" } ?? "none") \(unit) '\(search)' asc \(ascending)"
                        var filters: [RowFilter] = []
                        if let radius { filters.append(.near(origin, radiusKm: radius)) }
                        let request = SectionedFetchRequest(
                            predicate: QuakePredicate(searchText: search, rowFilters: filters),
                            sortDescriptor: QuakeSortDescriptor(.distance, ascending: ascending), timeZone: Self.utc,
                            distanceReference: DistanceReference(origin: origin, unit: unit))
                        let controller = try FetchedResultsController(container: store.container, request: request)
                        defer { controller.close() }
                        let expected = ExpectedResults.sections(records, search: search, order: .distance, ascending: ascending,
                                                                timeZone: Self.utc, distanceFrom: home, within: radius,
                                                                kmPerUnit: unit.kilometres)
                        #expect(try Self.contents(controller) == expected, "\(label)")
                        // The same filter under the time order: the same set.
                        var byTime = request
                        byTime.sortDescriptor = QuakeSortDescriptor(.time)
                        try controller.configure(byTime)
                        let timeCodes = Set(try controller.rows(in: 0..<controller.count).map(\.code))
                        #expect(timeCodes == Set(expected.flatMap(\.codes)), "\(label) (time order)")
                    }
                }
            }
        }
    }

    /// What the list and detail views print (Swift) is what the filter and sort compare (SQL).
    @Test func sqlDistanceIsSwiftsDistanceExactly() throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = try Self.records("all_week-2018-06-14.geojson")
        try store.upsert(records)
        for home in Self.homes {
            let origin = GeoPoint(latitude: home.latitude, longitude: home.longitude)
            let inSQL = try store.read { db in
                let statement = try db.prepare("SELECT code, \(origin.distanceSQL()) FROM quake")
                var result: [String: Double] = [:]
                while try statement.step() { result[statement.text(at: 0)] = statement.double(at: 1) }
                return result
            }
            for record in records {
                let swift = origin.distance(to: GeoPoint(latitude: record.latitude, longitude: record.longitude))
                #expect(inSQL[record.code] == swift, "\(record.code) from \(home)")
                let independent = ExpectedResults.kilometres(fromLatitude: home.latitude, longitude: home.longitude,
                                                             toLatitude: record.latitude, longitude: record.longitude)
                #expect(abs(swift - independent) < 1e-6, "\(record.code) from \(home)")
            }
        }
    }

    @Test func nearFilterUsesTheLocationIndex() throws {
        let store = try TestStore()
        defer { store.remove() }
        let plan = try store.read { db in
            try db.queryPlan("SELECT id FROM quake WHERE \(GeoPoint(latitude: 35.68, longitude: 139.69).withinSQL(radiusKm: 300))")
        }
        // By block of ids and latitude (schema 10, `IDBlocks.everyBlock`), the key the index leads with.
        #expect(plan.contains("INDEX quake_location (<expr>=? AND latitude>? AND latitude<?)"), "\(plan)")
    }

    /// The distance table's index is on `km` alone; its entries end in the rowid, `qid`, so it
    /// serves the `(km, qid)` order both ways, the windows past an offset, the band counts and a
    /// row's rank (`beforeInSection`) without a sort.
    @Test func theDistanceIndexServesEveryOrderCountAndRank() throws {
        let store = try TestStore()
        defer { store.remove() }
        let band = SectionKey.distance(lowerKm: 100, upperKm: 300).rangeSQL.0
        let keys = RowKeys(id: 7, time: 0, magnitude: nil, regionKey: "", placeKey: "")
        // The controller's own connection is writable (its table file); the view context is not.
        let db = try Connection(path: store.directory.url.appendingPathComponent(PersistentContainer.fileName).path)
        defer { db.close() }
        let file = SortTableFile()
        defer { file.remove() }
        try file.attach(db)
        let plans = try [true, false].flatMap { ascending in
            let sql = QueryPlan(SectionedFetchRequest(sortDescriptor: .init(.distance, ascending: ascending)))
            let rank = sql.beforeInSection(keys, km: 150).0
            return try [DistanceTable.windowSQL(range: band, predicate: "1", orderBy: sql.orderBy),
                        DistanceTable.windowSQL(range: band, predicate: "1", orderBy: sql.reversedOrderBy),
                        "SELECT count(*) FROM fetch_distance WHERE \(band)",
                        "SELECT count(*) FROM fetch_distance WHERE \(band) AND \(rank)"].map(db.queryPlan)
        }
        for plan in plans {
            // A window's subquery steps over its offset on the index alone; only the window's own
            // rows, joined to `quake`, are put back in order after (a sort of at most LIMIT rows).
            let steps = plan.components(separatedBy: "\nSCAN (subquery")[0]
            #expect(steps.contains("fetch_distance_km (km>? AND km<?)"), "\(plan)")
            #expect(!steps.contains("TEMP B-TREE"), "\(plan)")
        }
        // The ranks (`DistanceRanks`): a sample and a count from one step on the index from a
        // key; neither sorts.
        let sampling = try db.queryPlan(DistanceRanks.sampleSQL)
        #expect(sampling.contains("SEARCH fetch_distance USING COVERING INDEX fetch_distance_km (km>?)") && !sampling.contains("TEMP B-TREE"),
                "\(sampling)")
        for inclusive in [false, true] {
            let walk = try db.queryPlan(DistanceRanks.walkSQL(inclusive: inclusive))
            #expect(walk.contains("SEARCH fetch_distance USING COVERING INDEX fetch_distance_km (km>? AND km<?)"), "\(walk)")
        }
    }

    /// Quakes relocated in and out of the radius, deleted and added, merged from history: the
    /// results stay those of a fresh fetch and of an independent filter, under both orders.
    @Test(arguments: [QuakeSortOrder.time, .distance])
    func nearFilterStaysExactThroughMerges(order: QuakeSortOrder) throws {
        let store = try TestStore()
        defer { store.remove() }
        let home = (latitude: 35.68, longitude: 139.69)
        let origin = GeoPoint(latitude: home.latitude, longitude: home.longitude)
        var random = SeededGenerator(seed: 5)
        var version: Int64 = 0
        var current: [String: QuakeRecord] = [:]
        func anyRecord(_ code: String) -> QuakeRecord {
            version += 1
            // Around home: within 0–6° so that about half fall inside 300 km.
            let record = QuakeRecord(code: code, magnitude: Double(random.next(70)) / 10, place: "somewhere, Japan",
                                     time: 1_700_000_000_000 + Int64(random.next(86_400)) * 1000, updated: version,
                                     latitude: home.latitude + Double(random.next(1200)) / 100 - 6,
                                     longitude: home.longitude + Double(random.next(1200)) / 100 - 6, depth: 10)
            current[code] = record
            return record
        }
        try store.upsert((0..<150).map { anyRecord("n\($0)") })
        let request = SectionedFetchRequest(predicate: QuakePredicate(rowFilters: [.near(origin, radiusKm: 300)]),
                                            sortDescriptor: QuakeSortDescriptor(order), timeZone: Self.utc,
                                            distanceReference: DistanceReference(origin: origin))
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        for round in 0..<12 {
            try store.upsert((0..<(1 + random.next(6))).map { _ in anyRecord("n\(random.next(170))") })
            if round % 3 == 2 {
                let code = "n\(random.next(150))"
                let context = try store.container.newBackgroundContext(author: "delete")
                if try context.performAndWait({ tx in try tx.deleteQuake(code: code) }) { current[code] = nil }
                context.close()
            }
            _ = try controller.merge()
            let fresh = try FetchedResultsController(container: store.container, request: request)
            defer { fresh.close() }
            let merged = try Self.contents(controller), fetched = try Self.contents(fresh)
            #expect(merged == fetched, "round \(round)")
            let inside = Set(current.values.filter {
                ExpectedResults.kilometres(fromLatitude: home.latitude, longitude: home.longitude,
                                           toLatitude: $0.latitude, longitude: $0.longitude) <= 300
            }.map(\.code))
            #expect(Set(try controller.rows(in: 0..<controller.count).map(\.code)) == inside, "round \(round)")
        }
    }

    @Test func migrationsFourAndFiveIndexAnExistingStore() throws {
        let directory = try TemporaryDirectory(prefix: "quaketui-location-migration")
        defer { directory.remove() }
        let v3 = try PersistentContainer(directory: directory.url, migrations: Array(Schema.migrations.prefix(3)))
        let writer = try v3.newBackgroundContext(author: "test")
        try writer.performAndWait { tx in _ = try tx.upsert(.fixture("a")) }
        writer.close()
        v3.close()
        let container = try PersistentContainer(directory: directory.url)
        defer { container.close() }
        let (version, indexes) = try container.viewContext.read { db in
            (try db.scalar("PRAGMA user_version").int64,
             try db.scalar("SELECT group_concat(name) FROM sqlite_master WHERE name IN ('quake_location', 'quake_place')"))
        }
        #expect(version == Int64(Schema.version))
        #expect(indexes == .text("quake_location"))  // `quake_place` (5) dropped again by 9
        let location = try container.viewContext.read { db in try db.scalar("SELECT sql FROM sqlite_master WHERE name = 'quake_location'") }
        #expect(location == .text("CREATE INDEX quake_location ON quake(id >> 16, latitude, longitude)"))  // 10
        let controller = try FetchedResultsController(container: container, request: SectionedFetchRequest(
            predicate: QuakePredicate(rowFilters: [.near(GeoPoint(latitude: -33.4, longitude: -70.6), radiusKm: 1)])))
        defer { controller.close() }
        #expect(controller.count == 1)
    }
}
