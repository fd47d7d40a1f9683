import QuakeModel
import Foundation

/// One request compiled once into everything that decides which rows match it: the `WHERE`
/// terms each stage splices into its SQL, the statements that fill the match set, and the same
/// test in Swift for one row. Every reader asks the plan; none spells the predicate itself.
/// (The order's SQL is its `strategy`'s, see `QueryPlan+Order.swift`.)
///
/// A row matches when its magnitude is at least the minimum, its folded place holds every word
/// of the folded search text in any order, each as written or as another name of the same place
/// (`PlaceSearch`, `PlaceSpellings`) (or, for a search that looks like a code, `us7000abcd`, its
/// code starts with it: a range on the code's unique index), and it passes every row filter (`:` filters, near home). The search and the
/// filters are kept in the controller's match set (`ResultMatches`) when there are any; the
/// magnitude is tested beside it, so that a merge can place a row from its keys alone.
///
/// | stage | SQL | Swift |
/// |---|---|---|
/// | index walks with the set filled (`RowWindow`, sections, ranks) | `matchedWhere` | `matches(_: RowKeys)` + set |
/// | the distance table (`DistanceTable`) | `distanceTableWhere` | — |
/// | a walk without the set (`ProvisionalReader`, `DistanceTable.walk`) | `rowWhere` | `matches(_: Fields)` |
/// | filling the set (`ResultMatches.rebuild`) | `matchSetFill` | `isCandidate(_:)` |
/// | filling the set from the digest (`SearchDigest.fill`, when `digestAnswers`) | — (a pass in C, `RowFilter`'s tests) | `PlaceSearch.matches`' test, as `memmem` over the packed places |
///
/// `QueryPlanAgreementTests` holds every SQL path and the Swift test to the same rows.
struct QueryPlan {
    /// The request as given (a distance sort without a reference is not normalized here).
    let request: SectionedFetchRequest
    /// The request's order: its SQL, section keys, counts and readers (`SortStrategy`).
    let strategy: any SortStrategy
    /// The folded, trimmed search text; nil when there is nothing to search for.
    let search: String?
    /// Its words and their other names (nil without a search).
    let placeSearch: PlaceSearch?
    /// The lowest stored magnitude the request's minimum takes: the first shown at it
    /// (`MagnitudeBin.lowestStored(shownAtLeast:)`: `m` at 2.5 takes M 2.45, shown `2.5`).
    let minimumMagnitude: Double?
    let filters: [RowFilter]
    /// Whether the search and filters go through the match set; without either every row is a candidate.
    let usesMatchSet: Bool

    /// Whether this plan matches other rows than `other` before the magnitude filter (their
    /// match sets differ: another search or other filters).
    func matchesDiffer(from other: QueryPlan) -> Bool {
        search != other.search || filters != other.filters
    }

    /// The search when it looks like a quake's code (`codePrefix(of:)`): codes starting with it match too.
    let codePrefix: String?

    /// Each alert filter's lowest accepted level (an index in `RowFilter.alertLevels`; past
    /// the end for an unknown level, which accepts nothing), in the order of `filters`.
    private let alertFloors: [Int]

    init(_ request: SectionedFetchRequest) {
        self.request = request
        strategy = request.strategy
        let folded = TextFolding.fold(request.predicate.searchText.trimmingCharacters(in: .whitespacesAndNewlines))
        placeSearch = PlaceSearch(folded: folded)
        search = placeSearch == nil ? nil : folded
        codePrefix = Self.codePrefix(of: folded)
        minimumMagnitude = request.predicate.minimumMagnitude.map(MagnitudeBin.lowestStored(shownAtLeast:))
        filters = request.predicate.rowFilters
        usesMatchSet = search != nil || !filters.isEmpty
        alertFloors = filters.compactMap { filter in
            guard case .alert(let level) = filter else { return nil }
            return RowFilter.alertLevels.firstIndex(of: level.lowercased()) ?? RowFilter.alertLevels.count
        }
    }

    /// `folded` when it looks like the start of a quake's code: three or more ASCII letters and
    /// digits, at least one of each, and the punctuation another agency's codes hold (`:`, `_`,
    /// `.`, `-`: `emsc:20240101_0000072`, `example.org:2016p858000`), nothing else (`us7000abcd`,
    /// `ci4012`); nil otherwise.
    static func codePrefix(of folded: String) -> String? {
        let bytes = folded.utf8
        let punctuation: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-")]
        guard bytes.count >= 3,
              bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || punctuation.contains($0) }),
              bytes.contains(where: { (0x30...0x39).contains($0) }), bytes.contains(where: { (0x61...0x7A).contains($0) })
        else { return nil }
        return folded
    }

    // MARK: SQL

    /// `code` starting with the code-like search, as a range on the code's unique index (the last
    /// byte of the upper bound one past the prefix's: the prefix is ASCII, so no byte overflows).
    var codeRange: (String, [SQLiteValue])? {
        guard let codePrefix else { return nil }
        var upper = Array(codePrefix.utf8)
        upper[upper.count - 1] += 1
        return ("code >= ? AND code < ?", [.text(codePrefix), .text(String(decoding: upper, as: UTF8.self))])
    }

    /// The search as a `WHERE` term over `quake` (its folded place holds every word, or its code
    /// starts with it); nil without a search.
    var searchTerm: (String, [SQLiteValue])? {
        guard let placeSearch, let (placeTerm, placeArgs) = Self.placeTerm(placeSearch, words: Array(placeSearch.words.indices))
        else { return nil }
        guard let (codeTerm, codeArgs) = codeRange else { return (placeTerm, placeArgs) }
        return ("(\(placeTerm) OR (\(codeTerm)))", placeArgs + codeArgs)
    }

    /// `search`'s `words` (by their place) as one SQL term over `placeKey`: each word, one of its
    /// alternatives held (`instr` compares bytes and has no pattern syntax, so any text is
    /// literal, NUL included) or one of its endings at the end, spaces after it aside (`substr`
    /// counts characters from the end; an ending is ASCII, so its characters are its bytes).
    static func placeTerm(_ search: PlaceSearch, words: [Int], column: String = "placeKey") -> (String, [SQLiteValue])? {
        guard !words.isEmpty else { return nil }
        var arguments: [SQLiteValue] = []
        let terms = words.map { word in
            arguments += (search.words[word] + search.endings[word]).map { .text($0) }
            let tests = search.words[word].map { _ in "instr(\(column), ?) > 0" }
                + search.endings[word].map { "substr(rtrim(\(column)), -\($0.unicodeScalars.count)) = ?" }
            return tests.count == 1 ? tests[0] : "(" + tests.joined(separator: " OR ") + ")"
        }
        return (terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " AND ") + ")", arguments)
    }

    /// The function that tests the match set per row (registered by `MatchSet.register(on:)`).
    static let matchSetTerm = "quaketui_matched(id)"

    /// The minimum magnitude as a `WHERE` term over `quake`; nil without one.
    var magnitudeTerm: (String, [SQLiteValue])? {
        minimumMagnitude.map { ("magnitude >= ?", [.real($0)]) }
    }

    /// `magnitudeTerm` for a read of the rows passing the minimum that the magnitude index
    /// drives: that index leads with the row's block (schema 12), so the term names every block.
    var indexedMagnitudeTerm: (String, [SQLiteValue])? {
        magnitudeTerm.map { ("\($0.0) AND \(IDBlocks.everyBlock)", $0.1) }
    }

    /// The `WHERE` term of every query over `quake` once the match set is filled (never empty:
    /// `1` when every row matches). The set is tested per row as the query walks the sort
    /// order's index (a function call, which the planner cannot drive the query from).
    var matchedWhere: (String, [SQLiteValue]) {
        var terms: [String] = [], arguments: [SQLiteValue] = []
        if let (term, args) = magnitudeTerm {
            terms.append(term)
            arguments += args
        }
        if usesMatchSet { terms.append(Self.matchSetTerm) }
        return (terms.isEmpty ? "1" : terms.joined(separator: " AND "), arguments)
    }

    /// The `WHERE` term over `fetch_distance` alone: every row in it is a candidate already
    /// (the set was applied when it was filled), and the magnitude reads the kept `mag`.
    var distanceTableWhere: (String, [SQLiteValue]) {
        minimumMagnitude.map { ("mag >= ?", [.real($0)]) } ?? (Self.everyTableRow, [])
    }

    /// `distanceTableWhere` keeping every row of the table (no minimum magnitude).
    static let everyTableRow = "1"

    /// The whole predicate as one `WHERE` term over `quake` without the match set: what the
    /// set would hold, tested per row (a provisional window, read before the set is filled).
    var rowWhere: (String, [SQLiteValue]) { rowWhere(magnitude: .either) }

    /// How a term over `quake` writes the minimum magnitude for SQLite's planner.
    enum MagnitudeIndexUse {
        /// `magnitude >= ?`: a walk of the order's index drives the read.
        case either
        /// With every block of ids named (`IDBlocks.everyBlock`), so that the magnitude index,
        /// led by the row's block, can drive the read: for a read of every matching row when few
        /// pass the minimum.
        case drive
        /// `+magnitude >= ?`: the same test, which the planner cannot drive from the index (for
        /// a read of every matching row when most of the store passes the minimum).
        case never
    }

    /// `rowWhere`, with the minimum magnitude written for `magnitude` (`Connection.everyRowWhere`,
    /// the distance walk); without the search when not `searchInSQL` (the reader then tests
    /// `PlaceSearch.matches` on each row, which `searchesPlaceOnly` allows).
    func rowWhere(magnitude use: MagnitudeIndexUse, searchInSQL: Bool = true) -> (String, [SQLiteValue]) {
        var terms: [String] = [], arguments: [SQLiteValue] = []
        if let (term, args) = use == .drive ? indexedMagnitudeTerm : magnitudeTerm {
            terms.append(use == .never ? "+" + term : term)
            arguments += args
        }
        if searchInSQL, let (term, args) = searchTerm {
            terms.append(term)
            arguments += args
        }
        for filter in filters {
            let (sql, args) = filter.sql
            terms.append("(\(sql))")
            arguments += args
        }
        return (terms.isEmpty ? "1" : terms.joined(separator: " AND "), arguments)
    }

    /// A section bucket expression (SQL over `quake`) that is NULL for a row below the minimum
    /// magnitude, for the set's scan to count only the rows the results hold.
    func countingBucket(_ bucket: String) -> (String, [SQLiteValue]) {
        guard let (term, args) = magnitudeTerm else { return (bucket, []) }
        return ("CASE WHEN \(term) THEN \(bucket) END", args)
    }

    /// The filters' SQL over `quake`, each prefixed by `AND`, with their arguments.
    var filterClause: (String, [SQLiteValue]) {
        var clause = "", arguments: [SQLiteValue] = []
        for filter in filters {
            let (sql, args) = filter.sql
            clause += " AND \(sql)"
            arguments += args
        }
        return (clause, arguments)
    }

    /// The statement that fills the match set with the candidates (nil: no set): FTS5 trigram
    /// for the words of 3+ characters (the shorter ones tested on the rows it finds), else a scan
    /// (`matchSetScan`); the filters on the same rows. Each query adds its rows with `quaketui_match` in an aggregate, which SQLite
    /// evaluates once for each row the `WHERE` clause passes, and never before the clause.
    /// `counts` says whether the statement also counts its rows per `bucket`.
    func matchSetFill(countingBy bucket: (String, [SQLiteValue])?) -> (sql: String, arguments: [SQLiteValue], counts: Bool)? {
        guard usesMatchSet else { return nil }
        if let (sql, arguments) = matchSetScan(countingBy: bucket) { return (sql, arguments, bucket != nil) }
        var (filters, filterArgs) = filterClause
        guard let placeSearch, let query = placeSearch.ftsQuery else { return nil }  // matchSetScan answers those
        let phrase = query
        if let (shortTerm, shortArgs) = Self.placeTerm(placeSearch, words: placeSearch.wordsTestedAfterIndex, column: "quake.placeKey") {
            filters = " AND \(shortTerm)" + filters
            filterArgs = shortArgs + filterArgs
        }
        if let (codeTerm, codeArgs) = codeRange {
            // The place's trigram matches, then the code's range on its unique index: each driven
            // by its index, one after the other (a row in both is added twice, which the set ignores).
            let both = "SELECT rowid AS id FROM quake_fts WHERE quake_fts MATCH ? UNION ALL SELECT id FROM quake WHERE \(codeTerm)"
            if filters.isEmpty {
                return ("SELECT count(quaketui_match(id)) FROM (\(both))", [.text(phrase)] + codeArgs, false)
            }
            return ("""
                SELECT count(quaketui_match(quake.id)) FROM (\(both)) AS matched JOIN quake ON quake.id = matched.id
                WHERE 1\(filters)
                """, [.text(phrase)] + codeArgs + filterArgs, false)
        }
        if filters.isEmpty {
            return ("SELECT count(quaketui_match(rowid)) FROM quake_fts WHERE quake_fts MATCH ?", [.text(phrase)], false)
        }
        return ("""
            SELECT count(quaketui_match(quake.id)) FROM quake_fts JOIN quake ON quake.id = quake_fts.rowid
            WHERE quake_fts MATCH ?\(filters)
            """, [.text(phrase)] + filterArgs, false)
    }

    /// The statement that fills the set by scanning `quake` (the rows passing the filters, with
    /// a search of only words below the trigram index — one or two characters, or a control
    /// character — those whose folded place holds every word — literal by
    /// construction: `instr` has no pattern syntax, and it compares bytes, so even NUL is text),
    /// counting per `bucket` (an SQL expression over
    /// `quake`, NULL for a row not to count, with its arguments) into the set's `bucketCounts`
    /// if given; nil for a search with a word the trigram index answers (three characters or
    /// more, without control characters: `matchSetFill`).
    func matchSetScan(countingBy bucket: (String, [SQLiteValue])?) -> (String, [SQLiteValue])? {
        let (filters, filterArgs) = filterClause
        let match = bucket.map { "quaketui_match_counting(id, \($0.0))" } ?? "quaketui_match(id)"
        let matchArgs = bucket?.1 ?? []
        guard let placeSearch else {
            return ("SELECT count(\(match)) FROM quake WHERE 1\(filters)", matchArgs + filterArgs)
        }
        guard placeSearch.ftsQuery == nil, let (term, args) = searchTerm else { return nil }
        return ("SELECT count(\(match)) FROM quake WHERE \(term)\(filters)", matchArgs + args + filterArgs)
    }

    // MARK: Swift

    /// What a row's keys can say (magnitude and search text), exactly as the SQL decides it; the
    /// filters need the match set or the row's other columns (`matches(_: Fields)`).
    func matches(_ keys: RowKeys) -> Bool {
        if let minimum = minimumMagnitude {
            guard let magnitude = keys.magnitude, magnitude >= minimum else { return false }
        }
        // The keys hold no code: a code-like search leaves the row to the match set.
        return codePrefix != nil || matchesPlace(keys.placeKey)
    }

    /// The whole predicate on one row: `rowWhere` in Swift.
    func matches(_ row: Fields) -> Bool {
        matches(row.keys) && isCandidate(row)
    }

    /// Whether a row belongs in the match set: the search and every filter (not the magnitude).
    func isCandidate(_ row: Fields) -> Bool {
        matchesSearch(row) && passesFilters(row)
    }

    /// `searchTerm` in Swift: the place holds the search, or the code starts with a code-like one
    /// (`code >= prefix AND code < prefix+1` compares bytes, as `starts(with:)` does).
    private func matchesSearch(_ row: Fields) -> Bool {
        if let codePrefix, row.code.utf8.starts(with: codePrefix.utf8) { return true }
        return matchesPlace(row.keys.placeKey)
    }

    /// The place term of `searchTerm` in Swift (`PlaceSearch.matches`): byte-wise substring tests.
    private func matchesPlace(_ placeKey: String) -> Bool {
        placeSearch?.matches(placeKey) ?? true
    }

    /// Whether a pass over the digest can take this plan's rows (`SearchDigest`): a search of
    /// places (not code-like, which also matches codes) and only filters whose columns it holds.
    var digestAnswers: Bool { codePrefix == nil && filters.allSatisfy(\.isHeldInDigest) }

    /// Whether a reader of every matching row may test the search itself on each row's
    /// `placeKey` (`PlaceSearch.matches`) instead of SQL's `instr`: a search that is not code-like (a
    /// code-like one also matches codes).
    var searchesPlaceOnly: Bool { search != nil && codePrefix == nil }

    /// Every filter, as its SQL (`RowFilter.sql`) decides it.
    private func passesFilters(_ row: Fields) -> Bool {
        var alerts = 0
        for filter in filters {
            switch filter {
            case .depth, .magnitude:
                // `BETWEEN ? AND ?` of the values shown within the range: NULL never passes.
                let (low, high) = filter.storedBounds!
                let value = if case .depth = filter { row.depth } else { row.keys.magnitude }
                guard let value, value >= low, value <= high else { return false }
            case .time(let from, let until):
                guard row.keys.time >= from, until.map({ row.keys.time < $0 }) ?? true else { return false }
            case .eventType(let type, let excluded):
                // `= ? COLLATE NOCASE`: NOCASE folds ASCII letters only.
                let equal = row.type.map { Self.equalIgnoringASCIICase($0, type) } ?? false
                if excluded ? equal : !equal { return false }
            case .alert:
                // `lower(alert) IN (levels from the floor up)`: SQLite's `lower` folds ASCII only.
                let floor = alertFloors[alerts]
                alerts += 1
                guard let alert = row.alert,
                      let level = RowFilter.alertLevels.firstIndex(where: { Self.equalIgnoringASCIICase(alert, $0) }),
                      level >= floor else { return false }
            case .felt:
                guard let felt = row.felt, felt > 0 else { return false }
            case .revised:
                guard row.revised != nil else { return false }
            case .magnitudeType(let type):
                // `trim(magType) = ? COLLATE NOCASE`; `unknown` also takes a missing or blank type.
                let own = row.magType?.trimmingCharacters(in: CharacterSet(charactersIn: " ")) ?? ""
                let wanted = type.trimmingCharacters(in: .whitespaces)
                let unknown = type.lowercased() == RowFilter.unknownMagnitudeType && own.isEmpty
                guard unknown || Self.equalIgnoringASCIICase(own, wanted) else { return false }
            case .near(let center, let radiusKm):
                // The bounding box only narrows the index range; the exact distance decides,
                // computed bit for bit as `quaketui_distance` computes it.
                guard center.distance(to: GeoPoint(latitude: row.latitude, longitude: row.longitude)) <= radiusKm else { return false }
            case .intensity(let whole, let home):
                // `quaketui_intensity(…) * 10 >= floor`, the value computed bit for bit as in SQL.
                guard let magnitude = row.keys.magnitude else { return false }
                guard whole > 1 else { continue }
                let felt = FeltIntensity(home: home, latitude: row.latitude, longitude: row.longitude, depth: row.depth,
                                         magnitude: magnitude)
                guard let felt, felt.value * 10 >= FeltIntensity.scaledFloor(whole: whole) else { return false }
            case .declustered(let kept):
                // `quaketui_in_bitmap(id, ?)`: the same bit.
                guard kept.contains(row.keys.id) else { return false }
            }
        }
        return true
    }

    private static func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return a.utf8.elementsEqual(b.utf8) { lower($0) == lower($1) }
    }

    /// The columns of a row that the Swift test reads.
    struct Fields {
        var keys: RowKeys
        var latitude: Double
        var longitude: Double
        var depth: Double?
        var type: String?
        var alert: String?
        var felt: Int?
        var code: String
        var magType: String?
        /// `quake.revised` (schema 15), read only for a plan that filters on it (`columns(for:)`):
        /// an older read-only store has no such column.
        var revised: Int64?

        /// The columns for `plan`: `revised` only when it filters on it, else NULL in its place.
        static func columns(for plan: QueryPlan) -> String {
            plan.filters.contains(.revised) ? columns : columnsBeforeRevised + "NULL"
        }
        /// Every column, `revised` too (a store of schema 15 or later).
        static let columns = columnsBeforeRevised + "revised"
        private static let columnsBeforeRevised = "\(RowKeys.columns), latitude, longitude, type, alert, felt, code, magType, "

        /// Reads `columns` starting at `first` from the current row.
        init(_ s: Statement, from first: Int32 = 0) {
            keys = RowKeys(s, from: first)
            let next = first + RowKeys.columnCount
            latitude = s.double(at: next)
            longitude = s.double(at: next + 1)
            depth = keys.depth
            type = s.optionalText(at: next + 2)
            alert = s.optionalText(at: next + 3)
            felt = s.optionalInt(at: next + 4)
            code = s.text(at: next + 5)
            magType = s.optionalText(at: next + 6)
            revised = s.isNull(at: next + 7) ? nil : s.int64(at: next + 7)
        }

        /// A record's columns as the store writes them (`WriteTransaction`: folded keys).
        init(_ record: QuakeRecord) {
            keys = RowKeys(id: 0, time: record.time, magnitude: record.magnitude, regionKey: TextFolding.fold(record.region),
                           placeKey: TextFolding.fold(record.place), depth: record.depth)
            latitude = record.latitude
            longitude = record.longitude
            depth = record.depth
            type = record.type
            alert = record.alert
            felt = record.felt
            code = record.code
            magType = record.magType
        }
    }
}

extension SectionedFetchRequest {
    /// Whether `record` is one of this request's rows, decided by the request's `QueryPlan` as
    /// the store decides it (for sources that hold their rows in memory, such as test fakes).
    public func matches(_ record: QuakeRecord) -> Bool {
        QueryPlan(self).matches(QueryPlan.Fields(record))
    }
}
