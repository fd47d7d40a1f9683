import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 31: the `depth` sort. Sections are the depth histogram's bins (`DepthBins`, shared with
/// the statistics), counted by range along `quake_depth`; rows by depth, then time; an unknown
/// depth first ascending, last descending; exact through the walk, a provisional window and a
/// merge of changed depths.
@Suite struct DepthSortTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// Depths at and around every kind of edge, an unknown one, above sea level, and a damaged
    /// feed's (1e300, past every real band).
    static let depths: [Double?] = [nil, -Double.leastNonzeroMagnitude, -0.0, -0.06, -3, -995, 0, 9.949, 9.95, 9.999, 10, 29.999999999999996, 30, 35.5,
                                    99.94, 99.99999999999999, 100, 150, 699, 700, 9_950, 1e300]

    static func records(count: Int, seed: UInt64) -> [QuakeRecord] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            var record = QuakeRecord.fixture("d\(i)", magnitude: Double(random.next(70)) / 10,
                                             place: ["12 km W of Anchorage, Alaska", "Fiji region", "5 km S of Ica, Peru"][random.next(3)],
                                             time: 1_700_000_000_000 + Int64(random.next(50)) * 60_000)
            // Every listed depth, then random ones in the first 800 km with ties.
            record.depth = i < depths.count ? depths[i] : Double(random.next(1_600)) / 2
            return record
        }
    }

    /// Depths as catalogues write them (one to three decimals, above sea level too) and the
    /// doubles either side of every stored edge of a band (`x0 − 0.05`).
    static func depthValues() -> [Double] {
        var random = SeededGenerator(seed: 20_261_205)
        var values: [Double] = [-Double.leastNonzeroMagnitude, -0.0, 0, -0.05, -0.06, 9.95, 9.96, 99.95, 1e300, -1e300]
        for _ in 0..<4_000 {
            let digits = [10.0, 100, 1_000][random.next(3)]
            values.append(Double(random.next(Int(800 * digits)) - Int(20 * digits)) / digits)
        }
        for edge in stride(from: -1_000, through: 10_000, by: 10) {
            let stored = Double(edge * 20 - 1) / 20
            values += [stored, stored.nextDown, stored.nextUp, Double(edge), Double(edge).nextDown]
        }
        return values
    }

    /// A depth's bin is the bin of the depth as shown, to a tenth rounded half up (`10.0 km` is in
    /// 10–20 km, whether stored 9.96 or 10.04), and its stored edges hold exactly its depths.
    @Test func depthBinsHoldTheDepthsShownInThem() {
        for depth in Self.depthValues() {
            let from = DepthBins.from(depth)
            guard abs(depth) < 10_000 else { continue }
            // Written apart: the shown tenths (`ExpectedResults.shownTenths`), floored to 10 km
            // (100 km from 100 km).
            let tenths = ExpectedResults.shownTenths(depth)
            let width = tenths < 1_000 ? 100 : 1_000
            let expected = Double((tenths >= 0 ? tenths / width : -((-tenths + width - 1) / width)) * width / 10)
            #expect(from == expected, "\(depth) km in \(from)")
            let edges = DepthBins.storedEdges(from)
            #expect(edges.lower <= depth && depth < edges.upper, "\(depth) within \(edges)")
        }
        #expect(DepthBins.from(9.96) == 10 && DepthBins.from(9.949) == 0 && DepthBins.from(99.95) == 100)
        #expect(DepthBins.storedEdges(10) == (9.95, 19.95))
        // A depth of -0 is in the bin 0 (its title must not read `-0`); one shown `-0.1` above it.
        #expect(DepthBins.from(-0.0).sign == .plus)
        #expect(DepthBins.from(-Double.leastNonzeroMagnitude) == 0 && DepthBins.from(-0.05) == 0)
        #expect(DepthBins.from(-0.06) == -10)
        #expect(DepthBins.from(1e300) >= 1e300 && DepthBins.to(DepthBins.from(1e300)) == DepthBins.from(1e300))
    }

    /// The store counts depths in SQL (`Schema.depthBucket`: `quake_count`'s triggers) and the digest's
    /// slots in Swift (`DepthBands.bucket`): both put every depth in the same band.
    @Test func theBandInSQLIsTheBandInSwift() throws {
        let values: [Double?] = [nil, 9_899.5, 9_900, 9_899.95, 9_899.95.nextDown, -990.5, -990.05, -990.05.nextDown, -1_000, 12, 7.33]
            + Self.depthValues()
        let db = try Connection(path: ":memory:")
        defer { db.close() }
        for depth in values {
            let statement = try db.cachedStatement("SELECT \(Schema.depthBucket("x")) FROM (SELECT ? AS x)")
            statement.reset()
            try statement.bind(depth, at: 1)
            #expect(try statement.step())
            #expect(statement.int64(at: 0) == Int64(DepthBands.bucket(of: depth)), "\(String(describing: depth))")
        }
    }

    @Test(arguments: [true, false])
    func sectionsAreTheHistogramBandsInDepthOrder(ascending: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = Self.records(count: 300, seed: 31)
        try store.upsert(records)
        let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.depth, ascending: ascending), timeZone: Self.utc)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        let expected = ExpectedResults.sections(records, order: .depth, ascending: ascending, timeZone: Self.utc)
        let got = controller.sections.map(\.id)
        #expect(got == expected.map(\.id))
        #expect(controller.sections.map(\.count) == expected.map(\.codes.count))
        #expect(try controller.rows(in: 0..<controller.count).map(\.code) == expected.flatMap(\.codes))
        let titles = Dictionary(uniqueKeysWithValues: controller.sections.map { ($0.id, $0.title) })
        #expect(titles["depth-0"] == "0–10 km deep" && titles["depth-100"] == "100–200 km deep")
        #expect(titles["depth-unknown"] == "depth unknown" && titles["depth-9900"] == "≥ 9900 km deep")
        #expect(titles["depth--1000"] == "< -990 km deep" && titles["depth--10"] == "-10–0 km deep")
        // The unknown depths are the smallest, as NULL is in SQLite.
        #expect((ascending ? got.first : got.last) == "depth-unknown")
        // A provisional window walked off the index reads the same rows in the same sections.
        let window = try store.read { db in
            try ProvisionalWindow(db, request: request, days: DayCalendar(timeZone: Self.utc), anchor: nil, above: 0, below: 400)
        }
        #expect(window.rows.map(\.code) == expected.flatMap(\.codes))
        #expect(window.sections.map(\.id) == got)
    }

    @Test func aProvisionalWindowAroundAQuakeIsTheExactRowsAroundIt() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(count: 200, seed: 7))
        for ascending in [true, false] {
            let request = SectionedFetchRequest(predicate: QuakePredicate(minimumMagnitude: 2),
                                                sortDescriptor: QuakeSortDescriptor(.depth, ascending: ascending), timeZone: Self.utc)
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            let all = try controller.rows(in: 0..<controller.count).map(\.code)
            for offset in [0, 1, all.count / 3, all.count / 2, all.count - 1] {
                let keys = try store.read { db in
                    let s = try db.prepare("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
                    try s.bind(all[offset], at: 1)
                    _ = try s.step()
                    return RowKeys(s)
                }
                let window = try store.read { db in
                    try ProvisionalWindow(db, request: request, days: DayCalendar(timeZone: Self.utc), anchor: keys, above: 5, below: 5)
                }
                let start = max(0, offset - 5)
                #expect(window.rows.map(\.code) == Array(all[start..<min(all.count, offset + 5)]), "\(ascending) at \(offset)")
            }
        }
    }

    @Test func aMergeMovesAQuakeWhoseDepthChangedIntoItsNewBandWithoutAReload() throws {
        let store = try TestStore()
        defer { store.remove() }
        var records = Self.records(count: 120, seed: 3)
        try store.upsert(records)
        let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.depth), timeZone: Self.utc)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        // One quake from 10–20 km to 600 km, one to an unknown depth, one new band, one deleted.
        records[40].depth = 15
        try store.upsert([records[40]])
        _ = try controller.merge()
        records[40].depth = 600
        records[40].updated += 1
        records[41].depth = nil
        records[41].updated += 1
        var deep = QuakeRecord.fixture("deep", time: 1_700_000_000_000)
        deep.depth = 5_000
        try store.upsert([records[40], records[41], deep])
        let changes = try #require(try controller.merge())
        #expect(!changes.reloaded)
        #expect(changes.sectionsInserted.count == 1)
        let fresh = try FetchedResultsController(container: store.container, request: request)
        defer { fresh.close() }
        #expect(controller.sections == fresh.sections)
        #expect(try controller.rows(in: 0..<controller.count) == fresh.rows(in: 0..<fresh.count))
        // History keeps the old depth, so the old place is known.
        let old = try store.read { db in try db.history(after: .zero) }
        guard case .transactions(let transactions, _) = old else { Issue.record("history expired"); return }
        let change = try #require(transactions.last?.changes.first { $0.code == records[40].code })
        #expect(change.old?.depth == 15)
    }

    @Test func aFifthVersionStoreGainsTheDepthIndexAndTheOrderWalksIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let v5 = try PersistentContainer(directory: dir.url, migrations: Array(Schema.migrations.prefix(5)))
        let writer = try v5.newBackgroundContext(author: "test")
        defer { writer.close() }
        try writer.performAndWait { tx in _ = try tx.upsert(.fixture("a")) }
        writer.close()
        v5.close()
        let store = try PersistentContainer(directory: dir.url)
        defer { store.close() }
        let controller = try FetchedResultsController(container: store, request: SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.depth)))
        defer { controller.close() }
        #expect(controller.sections.map(\.id) == ["depth-10"])
        // The migration counted the bands (kept, as magnitudes and regions are).
        #expect(try store.viewContext.read { try $0.scalar("SELECT bucket || ':' || count FROM quake_count WHERE kind = 3").string } == "10:1")
        let plans = try store.viewContext.read { db -> [String] in
            var plans: [String] = []
            for ascending in [true, false] {
                let plan = QueryPlan(SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(.depth, ascending: ascending)))
                let (sql, arguments) = try plan.strategy.windowQuery(db, in: .depth(10), range: ("depth >= 10 AND depth < 20", []),
                                                                     predicate: ("1", []), orderBy: plan.orderBy, limit: 40, offset: 0,
                                                                     table: SortTable())
                let s = try db.prepare("EXPLAIN QUERY PLAN \(sql)")
                try s.bind(arguments)
                while try s.step() { plans.append(s.text(at: 3)) }
            }
            return plans
        }
        #expect(plans.contains { $0.contains("quake_depth") } && !plans.contains { $0.contains("TEMP B-TREE") }, "\(plans)")
        #expect(try store.viewContext.read { try $0.scalar("SELECT count(*) FROM pragma_table_info('history_change') WHERE name = 'oldDepth'").int64 } == 1)
    }

    @Test func sCyclesThroughDepthAfterRegion() {
        #expect(QuakeSortOrder.region.next == .depth)
        #expect(QuakeSortOrder.depth.next == .time)
        #expect(QuakeSortOrder.depth.next(hasHome: true) == .distance)
        #expect(QuakeSortOrder.depth.defaultAscending)
        #expect(QuakeSortOrder(rawValue: "depth") == .depth)
    }
}
