import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// One query plan, every path: for seeded random requests (search text of one, two and more
/// letters with diacritics, every `:` filter, near a random home, minimum magnitudes, every
/// order), each SQL path that decides which rows match — the whole predicate tested per row
/// (`rowWhere`), the match set's fill then the index walks' term (`matchedWhere`), the
/// controller's rows (through the distance table for a distance sort), a provisional window
/// walked off the sort indexes, the band counts without the table, a merge — keeps exactly the
/// rows the plan's Swift test keeps, row by row, over a store built from a real USGS week.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct QueryPlanAgreementTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let diacriticPlaces = ["Sındırgı, Turkey", "5 km SSE of México City, Mexico", "near São Paulo, Brazil",
                                  "10 km N of Höfn, Iceland", "ÍSLAND region", "Łódź, Poland", "Ñuñoa, Chile",
                                  "Tōkyō, Japan", "Straße von Gibraltar", "100% \"quoted\" (place), Ísland",
                                  // Flinn–Engdahl spellings and a renamed country (issue 53).
                                  "SOUTHERN SUMATERA, INDONESIA", "Northern Sumatra, Indonesia", "WESTERN TURKEY",
                                  "12 km N of Sındırgı, Türkiye", "NEAR EAST COAST OF HONSHU, JAPAN"]
    static let types: [String?] = [nil, "earthquake", "Earthquake", "quarry blast", "Quarry Blast", "explosion", "ice quake"]
    static let alerts: [String?] = [nil, "green", "Yellow", "orange", "RED", "purple"]

    /// The real week, with some places given diacritics and the filtered columns spread out.
    static func records(_ random: inout SeededGenerator) throws -> [QuakeRecord] {
        try IndependentParse.distinctRecords(SharedData.url("all_week-2018-06-14.geojson")).map { record in
            var record = record
            if random.next(8) == 0 {
                record.place = "\(random.next(300)) km W of " + diacriticPlaces[random.next(diacriticPlaces.count)]
            }
            if random.next(3) == 0 { record.type = types[random.next(types.count)] }
            if random.next(3) == 0 { record.alert = alerts[random.next(alerts.count)] }
            if random.next(4) == 0 { record.felt = random.next(3) == 0 ? nil : random.next(5) }
            if random.next(10) == 0 { record.depth = nil }
            if random.next(20) == 0 { record.magnitude = nil }
            if random.next(6) == 0 { record.magType = [nil, "", " ml", "Ml", "MB", "unknown", "Unknown "][random.next(7)] }
            return record
        }
    }

    static func randomPoint(_ random: inout SeededGenerator) -> GeoPoint {
        GeoPoint(latitude: Double(random.next(18_000)) / 100 - 90, longitude: Double(random.next(36_000)) / 100 - 180)
    }

    /// Search text of kind `round % 8`, every choice of a kind in turn: none, one or two
    /// letters, a diacritic, a piece of a real place, padded or upper case, or one that looks
    /// like a code (a real code's start or whole, upper case, one past the end, not quite one).
    static func search(_ random: inout SeededGenerator, places: [String], codes: [String], round: Int) -> String {
        let turn = round / 8
        switch round % 8 {
        case 0: return ""
        case 1: return String(Array("aeiouknm,0 ")[turn % 11])
        case 2: return ["ka", "an", "o ", "ı", "é", "ß", "ö", "Ñ", "Łó", "1 "][turn % 10]
        case 3:
            // Three letters and more go to the trigram index, but not with a control character
            // (a tab inside, a NUL), nor blank text (no search at all).
            // Several words match in any order, each as written or as another name of the place
            // (issue 53), with words below the trigram index among them.
            return ["méx", "Sındırgı", "sao p", "HÖFN", "straße", "strasse", "\"quoted\"", "tokyo", " ísland ", "km\tW",
                    "a\u{0}b", " \t ", "japan honshu", "sumatra", "Türkiye", "turkey w", "sumate", "of km", "ca km N"][turn % 19]
        case 4:
            let code = Array(codes[random.next(codes.count)])
            let prefix = String(code.prefix(3 + random.next(max(1, code.count - 2))))
            switch turn % 5 {
            case 0: return String(code)
            case 1: return prefix
            case 2: return " " + prefix.uppercased()
            case 3: return String(code) + "z9"
            default: return ["us7", "ak0", "ci39", "nc7", "hv7", "uw6", "1km", "us 7"][random.next(8)]
            }
        default:
            let place = Array(places[random.next(places.count)])
            guard !place.isEmpty else { return "" }
            let start = random.next(place.count), length = 1 + random.next(7)
            let text = String(place[start..<min(place.count, start + length)])
            return random.next(4) == 0 ? text.uppercased() : text
        }
    }

    static func filter(_ random: inout SeededGenerator, times: ClosedRange<Int64>) -> RowFilter {
        func time() -> Int64 { times.lowerBound + Int64(random.next(Int(times.upperBound - times.lowerBound) + 1)) }
        switch random.next(8) {
        case 7: return .magnitudeType(["ml", "MB", "mww", "unknown", "md"][random.next(5)])
        case 6:
            let low = Double(random.next(80)) / 10 - 1
            return .magnitude(low...(random.next(3) == 0 ? .greatestFiniteMagnitude : low + Double(random.next(30)) / 10))
        case 0:
            let low = Double(random.next(100)) - 5
            return .depth(low...(low + Double(random.next(300)) / 4))
        case 1:
            let from = time()
            return .time(from: from, until: random.next(2) == 0 ? nil : from + Int64(random.next(3 * 86_400_000)))
        case 2: return .eventType(["earthquake", "QUARRY BLAST", "explosion", "ice quake"][random.next(4)], excluded: random.next(2) == 0)
        case 3: return .alert(atLeast: ["green", "Yellow", "orange", "red", "purple"][random.next(5)])
        case 4: return .felt
        default: return .near(randomPoint(&random), radiusKm: Double(10 + random.next(4_000)))
        }
    }

    static func request(_ random: inout SeededGenerator, places: [String], codes: [String], times: ClosedRange<Int64>,
                        round: Int) -> SectionedFetchRequest {
        let home = randomPoint(&random)
        var filters = (0..<random.next(3)).map { _ in filter(&random, times: times) }
        if random.next(3) == 0 { filters.append(.near(home, radiusKm: [100, 500, 1_000, 2_500][random.next(4)])) }  // near home
        if random.next(4) == 0 {  // a declustered list: ids kept at random, some past the last row
            let kept = (0 ..< Int64(codes.count + 20)).filter { _ in random.next(3) != 0 }
            filters.append(.declustered(DeclusteredSet(method: .gk, keptIDs: kept, declustered: codes.count)))
        }
        let minimum: Double? = random.next(2) == 0 ? nil : Double(random.next(70)) / 10 - 1
        let order = QuakeSortOrder.allCases[random.next(QuakeSortOrder.allCases.count)]
        return SectionedFetchRequest(
            predicate: QuakePredicate(searchText: search(&random, places: places, codes: codes, round: round), minimumMagnitude: minimum, rowFilters: filters),
            sortDescriptor: QuakeSortDescriptor(order, ascending: random.next(2) == 0), timeZone: utc,
            distanceReference: DistanceReference(origin: home, unit: random.next(2) == 0 ? .km : .mi))
    }

    /// Every row's id and the columns the Swift test reads.
    static func allFields(_ db: Connection) throws -> [QueryPlan.Fields] {
        let statement = try db.prepare("SELECT \(QueryPlan.Fields.columns) FROM quake")
        var rows: [QueryPlan.Fields] = []
        while try statement.step() { rows.append(QueryPlan.Fields(statement)) }
        return rows
    }

    static func pairs(_ db: Connection, _ sql: String, _ arguments: [SQLiteValue]) throws -> [[Int64]] {
        let statement = try db.prepare(sql)
        try statement.bind(arguments)
        var result: [[Int64]] = []
        while try statement.step() { result.append([statement.int64(at: 0), statement.int64(at: 1)]) }
        return result
    }

    static func ids(_ db: Connection, _ sql: String, _ arguments: [SQLiteValue]) throws -> Set<Int64> {
        let statement = try db.prepare(sql)
        try statement.bind(arguments)
        var ids: Set<Int64> = []
        while try statement.step() { ids.insert(statement.int64(at: 0)) }
        return ids
    }

    /// Expects `sql` and `swift` to hold the same rows; names a few of those only one holds.
    static func expectSame(_ sql: Set<Int64>, _ swift: Set<Int64>, _ label: String, _ rows: [Int64: QueryPlan.Fields] = [:],
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let sqlOnly = sql.subtracting(swift).sorted(), swiftOnly = swift.subtracting(sql).sorted()
        func describe(_ ids: [Int64]) -> String { "\(ids.count) \(ids.prefix(3).map { id in rows[id].map { "\($0)" } ?? "\(id)" })" }
        #expect(sqlOnly.isEmpty && swiftOnly.isEmpty, "\(label): SQL only \(describe(sqlOnly)); Swift only \(describe(swiftOnly))",
                sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<4)
    func everySQLPathKeepsTheRowsTheSwiftTestKeeps(part: Int) throws {
        var random = SeededGenerator(seed: 2_700 + UInt64(part))
        let store = try TestStore()
        defer { store.remove() }
        var records = try Self.records(&random)
        try store.upsert(records)
        let places = records.map(\.place), codes = records.map(\.code)
        let times = records.map(\.time).min()!...records.map(\.time).max()!
        // The plan's own connection with a match set, as the controller's.
        let context = try store.container.newViewContext(queryOnly: false)
        defer { context.close() }
        let set = MatchSet()
        let file = SortTableFile()
        defer { file.remove() }
        try context.outsideTransaction { db in try file.attach(db) }
        try context.read { db in try set.register(on: db) }
        var orders: Set<QuakeSortOrder> = []
        defer { #expect(orders == Set(QuakeSortOrder.allCases), "part \(part) tried \(orders)") }
        for round in 0..<40 {
            let request = Self.request(&random, places: places, codes: codes, times: times, round: part * 40 + round)
            orders.insert(request.sortDescriptor.order)
            let plan = QueryPlan(request)
            let label = "part \(part) round \(round): \(request.predicate) \(request.sortDescriptor)"
            try context.read { db in
                let rows = try Self.allFields(db)
                let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.keys.id, $0) })
                let expected = Set(rows.filter(plan.matches).map(\.keys.id))
                // The whole predicate per row, as a provisional walk tests it.
                let (rowWhere, rowArguments) = plan.rowWhere
                let perRow = try Self.ids(db, "SELECT id FROM quake WHERE \(rowWhere)", rowArguments)
                Self.expectSame(perRow, expected, "rowWhere \(label)", byID)
                // The match set filled by SQL and from the digest, with and without counting per
                // kind of bucket (counts as a GROUP BY of the rows finds them), then the index walks' term.
                for (kind, usingDigest) in [nil, 0, 1, 3].flatMap({ kind in [false, true].map { (kind, $0) } }) {
                    let counted = try ResultMatches(plan: plan, set: set).rebuild(db, countingKind: kind, usingDigest: usingDigest)
                    let candidates = Set(rows.filter(plan.isCandidate).map(\.keys.id))
                    if plan.usesMatchSet {
                        Self.expectSame(Set(set.ids), candidates, "match set \(label) kind \(kind ?? -1) digest \(usingDigest)", byID)
                    }
                    if counted, let kind {
                        let grouped = try Self.pairs(db, "SELECT \(SectionCounts.bucketSQL(kind: kind)), count(*) FROM quake WHERE \(rowWhere) GROUP BY 1 ORDER BY 1", rowArguments)
                        #expect(set.bucketCounts?.map { [$0.bucket, Int64($0.count)] } == grouped, "counts \(label) kind \(kind) digest \(usingDigest)")
                    }
                    if usingDigest, plan.usesMatchSet, plan.digestAnswers { #expect(counted == (kind != nil), "the digest answered \(label)") }
                    let (matchedWhere, matchedArguments) = plan.matchedWhere
                    Self.expectSame(try Self.ids(db, "SELECT id FROM quake WHERE \(matchedWhere)", matchedArguments), expected,
                                    "matchedWhere \(label)", byID)
                }
                // The band counts without the table, from one pass.
                if let reference = request.distanceReference {
                    let bands = reference.bands.map(\.key.distanceBounds)
                    let kms = expected.map { id in reference.origin.distance(to: GeoPoint(latitude: byID[id]!.latitude, longitude: byID[id]!.longitude)) }
                    let want = bands.map { band in kms.filter { band.lowerKm <= $0 && $0 < band.upperKm }.count }
                    for usingDigest in [false, true] {
                        #expect(try DistanceTable.bandCountsInOnePass(db, origin: reference.origin, plan: plan, bands: bands,
                                                                      usingDigest: usingDigest) == want, "one-pass bands \(label) digest \(usingDigest)")
                    }
                }
            }
            // The controller's rows (index walks over the set, or the distance table) and a
            // provisional window of everything, in the same order.
            let expected = try context.read { db in Set(try Self.allFields(db).filter(plan.matches).map(\.keys.id)) }
            let controller = try FetchedResultsController(container: store.container, request: request)
            defer { controller.close() }
            // Its merges rank rows from the digest where it can (a large section's way); the
            // fresh fetch below, by the index walks.
            controller.digestCountedSection = 0
            let codes = try controller.rows(in: 0..<controller.count).map(\.code)
            let controllerIDs = try context.read { db in
                try Set(codes.map { code in try db.scalar("SELECT id FROM quake WHERE code = ?", [.text(code)]).int64! })
            }
            Self.expectSame(controllerIDs, expected, "controller \(label)")
            // A row's place in its section counted from the digest (a large magnitude or depth
            // band's rank) is its place in the controller's rows.
            for _ in 0..<(controller.count > 0 ? 6 : 0) {
                let offset = random.next(controller.count)
                let keys = try context.read { db in
                    let s = try db.prepare("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
                    try s.bind(codes[offset], at: 1)
                    _ = try s.step()
                    return RowKeys(s)
                }
                let section = controller.indexPath(forOffset: offset).section
                guard let anchor = plan.strategy.digestAnchor(keys, in: controller.sections[section].key) else { break }
                let counted = try context.read { db in try db.digestCountBefore(plan, anchor: anchor) }
                if plan.digestAnswers {
                    #expect(counted == offset - controller.offset(ofSection: section), "digest rank \(label) row \(offset)")
                }
            }
            // `n` / `N`: the next of some codes found from their keys, as by locating each.
            if controller.count > 0 {
                let some = (0..<1 + random.next(40)).map { _ in codes[random.next(codes.count)] } + ["not-stored"]
                let offset = random.next(controller.count)
                let section = random.next(controller.sections.count)
                for place in [ListPlace.top, .row(offset: offset, code: try controller.rows(in: offset..<offset + 1)[0].code),
                              .header(section: section, start: controller.offset(ofSection: section))] {
                    for forward in [true, false] {
                        #expect(try controller.next(among: some, from: place, forward: forward)
                                == controller.locatingEach(some, from: place, forward: forward), "next \(label) \(place)")
                    }
                }
            }
            #expect(codes.count == controller.count && controller.sections.reduce(0) { $0 + $1.count } == expected.count, "count \(label)")
            let window = try context.read { db in
                try ProvisionalWindow(db, request: request, days: DayCalendar(timeZone: Self.utc), anchor: nil, above: 0,
                                      below: expected.count + 5)
            }
            #expect(window.rows.map(\.code) == codes, "provisional window \(label)")
            // The rows come in the plan's order: sections in order, rows in order inside each
            // (the Swift comparisons a merge places rows with; the distance and intensity sorts' merges reload).
            if !request.sortDescriptor.order.needsHome {
                let keys = try context.read { db in try codes.map { code -> RowKeys in
                    let s = try db.prepare("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
                    try s.bind(code, at: 1)
                    _ = try s.step()
                    return RowKeys(s)
                } }
                let sectionOf = { (k: RowKeys) in controller.sectionKey(of: k) }
                let misplaced = zip(keys, keys.dropFirst()).filter { a, b in
                    sectionOf(a) == sectionOf(b) ? !plan.precedesInSection(a, b) : !plan.sectionPrecedes(sectionOf(a), sectionOf(b))
                }
                #expect(misplaced.isEmpty, "order \(label): \(misplaced.prefix(2))")
            }
            // A merge moves changed rows in and out of the set with the Swift test.
            var changed: [QuakeRecord] = []
            for _ in 0..<6 {
                let index = random.next(records.count)
                var record = records[index]
                record.updated += 1
                record.place = random.next(2) == 0 ? places[random.next(places.count)] : record.place
                record.type = Self.types[random.next(Self.types.count)]
                record.alert = Self.alerts[random.next(Self.alerts.count)]
                record.felt = random.next(2) == 0 ? nil : random.next(4)
                record.depth = random.next(5) == 0 ? nil : Double(random.next(200))
                record.magnitude = record.magnitude.map { $0 + Double(random.next(20)) / 10 - 1 }
                record.latitude = Double(random.next(18_000)) / 100 - 90
                records[index] = record
                changed.append(record)
            }
            try store.upsert(changed)
            _ = try controller.merge()
            let merged = try context.read { db in Set(try Self.allFields(db).filter(plan.matches).map(\.keys.id)) }
            let mergedCodes = try controller.rows(in: 0..<controller.count).map(\.code)
            let mergedIDs = try context.read { db in
                try Set(mergedCodes.map { code in try db.scalar("SELECT id FROM quake WHERE code = ?", [.text(code)]).int64! })
            }
            Self.expectSame(mergedIDs, merged, "merged \(label)")
            // The merge placed every row where a fresh fetch puts it.
            let fresh = try FetchedResultsController(container: store.container, request: request)
            defer { fresh.close() }
            #expect(try fresh.rows(in: 0..<fresh.count).map(\.code) == mergedCodes, "merged order \(label)")
            #expect(fresh.sections.map(\.id) == controller.sections.map(\.id), "merged sections \(label)")
        }
    }
}
