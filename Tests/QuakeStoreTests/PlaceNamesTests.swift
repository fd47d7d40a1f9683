import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 53, point 5: places spelled one way. A search matches every word in any order and
/// knows the other names of a place (`PlaceSpellings`); a Flinn–Engdahl region goes under its
/// country or sea as USGS names it (`RegionName`); names in capitals are shown title-cased
/// (`PlaceName`); stores made before are regrouped when they open (schema migration 13).
@Suite struct PlaceNamesTests {
    static let utc = TimeZone(identifier: "UTC")!

    // MARK: Regions

    /// The five sections the issue found for Turkey, EMSC's capitals, and the shapes of
    /// Flinn–Engdahl names (a direction "of", "coast of", "near"/"off", "… region", a border region).
    @Test(arguments: [
        ("Turkey", "Turkey"), ("western Turkey", "Turkey"), ("central Turkey", "Turkey"), ("eastern Turkey", "Turkey"),
        ("TURKEY-IRAN BORDER REGION", "Turkey"), ("Türkiye", "Turkey"), ("WESTERN TURKEY", "Turkey"),
        ("JAPAN", "Japan"), ("NEAR EAST COAST OF HONSHU", "Japan"), ("OFF EAST COAST OF KAMCHATKA", "Russia"),
        ("south of the Fiji Islands", "Fiji"), ("FIJI ISLANDS REGION", "Fiji"), ("Fiji region", "Fiji"),
        ("Southern East Pacific Rise", "East Pacific Rise"), ("CENTRAL MID-ATLANTIC RIDGE", "Mid-Atlantic Ridge"),
        ("OFF W COAST OF NORTHERN SUMATRA", "Indonesia"), ("SOUTHERN SUMATERA", "Indonesia"),
        ("KYRGYZSTAN-XINJIANG BORDER REG.", "Kyrgyzstan"), ("Off the coast of Oregon", "Oregon"),
        ("South Sandwich Islands region", "South Sandwich Islands"), ("NORTH ATLANTIC OCEAN", "North Atlantic Ocean"),
        ("South Africa", "South Africa"), ("Central African Republic", "Central African Republic"),
        ("Northern Mariana Islands", "Northern Mariana Islands"), ("MARIANA ISLANDS REGION", "Northern Mariana Islands"),
        ("East China Sea", "East China Sea"), ("ALEUTIAN ISLANDS", "Alaska"), ("Unknown", "Unknown"),
        ("California", "California"), ("P.N.G.", "Papua New Guinea"), ("CAN", "CAN"),
    ])
    func aFlinnEngdahlRegionGoesUnderItsCountryOrSea(name: String, region: String) {
        #expect(RegionName.grouped(name) == region)
        #expect(RegionName.grouped(region) == region, "idempotent, as migration 13 needs")
    }

    /// The region of a whole place: its last part, spelled out, then grouped.
    @Test(arguments: [
        ("NEAR WEST COAST OF HONSHU, JAPAN", "Japan"), ("SOUTHERN SUMATERA, INDONESIA", "Indonesia"),
        ("12 km N of Sındırgı, Türkiye", "Turkey"), ("CRETE, GREECE", "Greece"), ("6km NW of The Geysers, CA", "California"),
    ])
    func aPlacesRegion(place: String, region: String) {
        #expect(QuakeRecord.region(ofPlace: place) == region)
    }

    /// Every name the table leads to is a region of its own.
    @Test func everyParentRegionIsItsOwnRegion() {
        for parent in Set(RegionName.parentRegions.values) { #expect(RegionName.grouped(parent) == parent, "\(parent)") }
    }

    @Test(arguments: [
        ("NEAR WEST COAST OF HONSHU, JAPAN", "Near West Coast of Honshu, Japan"), ("TURKEY-IRAN BORDER REGION", "Turkey-Iran Border Region"),
        ("NEW IRELAND REGION, P.N.G.", "New Ireland Region, P.N.G."), ("CENTRAL MID-ATLANTIC RIDGE", "Central Mid-Atlantic Ridge"),
        ("CAN", "CAN"), ("P.N.G.", "P.N.G."), ("10 km N of Höfn, Iceland", "10 km N of Höfn, Iceland"), ("ÍSLAND REGION", "Ísland Region"),
        ("", ""),
    ])
    func aNameInCapitalsIsShownInTitleCase(place: String, shown: String) {
        #expect(PlaceName.displayed(place) == shown)
    }

    /// The issue's five Turkey sections, imported: one `Turkey` section holding all five, each
    /// keeping its full place.
    @Test func theRegionSortShowsOneSectionForTurkey() throws {
        let store = try TestStore()
        defer { store.remove() }
        let places = ["15 km SW of Sındırgı, Turkey", "western Turkey", "central Turkey", "eastern Turkey", "TURKEY-IRAN BORDER REGION",
                      "12 km N of Sındırgı, Türkiye", "NEAR EAST COAST OF HONSHU, JAPAN"]
        try store.upsert(places.enumerated().map { .fixture("t\($0.offset)", place: $0.element, time: 1_700_000_000_000 + Int64($0.offset) * 60_000) })
        let request = SectionedFetchRequest(sortDescriptor: .init(.region), timeZone: Self.utc)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        #expect(controller.sections.map { "\($0.title) \($0.count)" } == ["Japan 1", "Turkey 6"])
        #expect(Set(try controller.rows(in: 0..<controller.count).map(\.place)) == Set(places))
    }

    /// A store written before regroups its regions when it opens: the counts move with them, and
    /// the digest follows.
    @Test func migrationThirteenRegroupsTheStoredRegions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let older = try PersistentContainer(directory: directory.url, migrations: Array(Schema.migrations.prefix(Schema.regionsGrouped - 1)))
        let writer = try older.newBackgroundContext(author: "test")
        try writer.performAndWait { tx in
            for (code, place) in [("a", "WESTERN TURKEY"), ("b", "15 km SW of Sındırgı, Turkey"), ("c", "TURKEY-IRAN BORDER REGION"),
                                  ("d", "NEAR EAST COAST OF HONSHU, JAPAN"), ("e", "10 km N of Höfn, Iceland")] {
                _ = try tx.upsert(.fixture(code, place: place))
            }
            // As the code before migration 13 stored them: the last part as written.
            for (code, region) in [("a", "WESTERN TURKEY"), ("c", "TURKEY-IRAN BORDER REGION"), ("d", "JAPAN")] {
                try tx.connection.execute("UPDATE quake SET region = ?, regionKey = ? WHERE code = ?",
                                          [.text(region), .text(TextFolding.fold(region)), .text(code)])
            }
        }
        writer.close()
        older.close()

        let container = try PersistentContainer(directory: directory.url)
        defer { container.close() }
        let rows = try container.viewContext.read { try RegionSpellingTests.rows($0, "SELECT code, region, regionKey FROM quake ORDER BY code") }
        #expect(rows == ["a|Turkey|turkey", "b|Turkey|turkey", "c|Turkey|turkey", "d|Japan|japan", "e|Iceland|iceland"])
        let counts = try container.viewContext.read { try RegionSpellingTests.rows($0, "SELECT bucket, count FROM quake_count WHERE kind = 2 ORDER BY bucket") }
        #expect(counts == ["iceland|1", "japan|1", "turkey|3"])
        #expect(try container.viewContext.read { try SearchDigest.mismatches($0) } == [])
    }

    // MARK: Search

    static let places = [
        "NEAR EAST COAST OF HONSHU, JAPAN", "Honshu region", "Sea of Japan", "Hokkaido, Japan region",
        "SOUTHERN SUMATERA, INDONESIA", "Northern Sumatra, Indonesia", "WESTERN TURKEY", "12 km N of Sındırgı, Türkiye",
        "Myanmar-China border region", "BURMA", "Java Sea", "JAWA, INDONESIA",
        "6km NW of The Geysers, CA", "20km SW of Primm, NV", "22 km SE of Mina, Nevada", "Central California", "8 km E of Beatty, NV  ",
        "5 km N of Cayman Brac, Cayman Islands", "Mexicali, B.C., MX", "10 km S of Socorro, New Mexico",
    ]

    /// What each search finds, every way the store decides it (the per-row SQL, the match set by
    /// SQL — the trigram index with the short words tested beside it — and from the digest, the
    /// Swift test), and what the independent oracle finds.
    @Test(arguments: [
        ("japan honshu", ["NEAR EAST COAST OF HONSHU, JAPAN"]),
        ("honshu japan", ["NEAR EAST COAST OF HONSHU, JAPAN"]),
        ("  Japan   HONSHU ", ["NEAR EAST COAST OF HONSHU, JAPAN"]),
        ("sumatra", ["SOUTHERN SUMATERA, INDONESIA", "Northern Sumatra, Indonesia"]),
        ("sumatera", ["SOUTHERN SUMATERA, INDONESIA", "Northern Sumatra, Indonesia"]),
        ("sumate", ["SOUTHERN SUMATERA, INDONESIA", "Northern Sumatra, Indonesia"]),
        ("turkey", ["WESTERN TURKEY", "12 km N of Sındırgı, Türkiye"]),
        ("türkiye", ["WESTERN TURKEY", "12 km N of Sındırgı, Türkiye"]),
        ("burma", ["Myanmar-China border region", "BURMA"]),
        ("java indonesia", ["JAWA, INDONESIA"]),
        ("of japan", ["NEAR EAST COAST OF HONSHU, JAPAN", "Sea of Japan"]),
        ("japan x", []),
        // A state's postal code at the end of a place reads as the state (its region); only there.
        ("california", ["6km NW of The Geysers, CA", "Central California"]),
        ("calif", ["6km NW of The Geysers, CA", "Central California"]),
        ("nevada", ["20km SW of Primm, NV", "22 km SE of Mina, Nevada", "8 km E of Beatty, NV  "]),
        ("mexico", ["Mexicali, B.C., MX", "10 km S of Socorro, New Mexico"]),
        ("new mexico", ["10 km S of Socorro, New Mexico"]),
        ("primm nevada", ["20km SW of Primm, NV"]),
        ("beatty nevada", ["8 km E of Beatty, NV  "]),
        ("geysers calif", ["6km NW of The Geysers, CA"]),
        ("cayman", ["5 km N of Cayman Brac, Cayman Islands"]),
        ("ca", ["6km NW of The Geysers, CA", "Central California", "5 km N of Cayman Brac, Cayman Islands", "Mexicali, B.C., MX"]),
    ])
    func aSearchMatchesEveryWordInAnyOrderAndEveryNameOfAPlace(search: String, expected: [String]) throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = Self.places.enumerated().map { QuakeRecord.fixture("p\($0.offset)", place: $0.element) }
        try store.upsert(records)
        var request = SectionedFetchRequest(sortDescriptor: .init(.time), timeZone: Self.utc)
        request.predicate.searchText = search
        let plan = QueryPlan(request)
        let context = try store.container.newViewContext(queryOnly: false)
        defer { context.close() }
        let set = MatchSet()
        try context.read { db in
            try set.register(on: db)
            let rows = try QueryPlanAgreementTests.allFields(db)
            var places: [Int64: String] = [:]
            let statement = try db.prepare("SELECT id, place FROM quake")
            while try statement.step() { places[statement.int64(at: 0)] = statement.text(at: 1) }
            func named(_ ids: some Sequence<Int64>) -> Set<String> { Set(ids.map { places[$0]! }) }
            #expect(named(rows.filter(plan.matches).map(\.keys.id)) == Set(expected), "Swift")
            let (rowWhere, arguments) = plan.rowWhere
            #expect(named(try QueryPlanAgreementTests.ids(db, "SELECT id FROM quake WHERE \(rowWhere)", arguments)) == Set(expected), "rowWhere")
            for usingDigest in [false, true] {
                _ = try ResultMatches(plan: plan, set: set).rebuild(db, countingKind: 0, usingDigest: usingDigest)
                #expect(named(set.ids) == Set(expected), "match set, digest \(usingDigest)")
            }
        }
        let oracle = ExpectedResults.sections(records, search: search, order: .time, ascending: false, timeZone: Self.utc)
        #expect(Set(oracle.flatMap(\.codes).map { code in records.first { $0.code == code }!.place }) == Set(expected), "oracle")
    }

    /// A search of several words with one below the trigram index still uses it for the others.
    @Test func theTrigramIndexAnswersTheLongWordsOfASearch() {
        var request = SectionedFetchRequest(sortDescriptor: .init(.time), timeZone: Self.utc)
        request.predicate.searchText = "ca sumatra"
        let fill = QueryPlan(request).matchSetFill(countingBy: nil)
        #expect(fill?.sql.contains("quake_fts MATCH ?") == true && fill?.sql.contains("instr(quake.placeKey, ?) > 0") == true, "\(fill?.sql ?? "none")")
        #expect(fill?.arguments.first == .text(#"("sumatra" OR "sumatera")"#), "\(fill?.arguments ?? [])")
    }
}
