import QuakeModel
import Foundation

extension Connection {
    /// The `WHERE` term over `quake` for reading every row `plan` matches, in any order: its
    /// `rowWhere`, with the minimum magnitude kept off the magnitude index when more than a
    /// sixteenth of the store passes it. Fetching that many rows one by one through the index
    /// costs more than reading the whole table (at 1,000,000 quakes, M ≥ 2.5 keeps a third: 1.1 s
    /// through the index, 0.2 s by the table). A count over the index, stopped at the sixteenth,
    /// decides; the store's total is `quake_count`'s (every row has one magnitude bucket).
    /// With `searchInSQL` false, the term leaves the search out: the caller tests
    /// `PlaceSearch.matches` on each row's `placeKey` (only when `plan.searchesPlaceOnly`).
    func everyRowWhere(_ plan: QueryPlan, searchInSQL: Bool = true) throws(SQLiteError) -> (String, [SQLiteValue]) {
        guard let (indexed, arguments) = plan.indexedMagnitudeTerm else { return plan.rowWhere(magnitude: .either, searchInSQL: searchInSQL) }
        let total = Int64(try keptQuakeCount())
        let limit = total / 16 + 1
        let passing = try scalar("SELECT count(*) FROM (SELECT 1 FROM quake WHERE \(indexed) LIMIT ?)",
                                 arguments + [.integer(limit)]).int64 ?? 0
        return plan.rowWhere(magnitude: passing < limit ? .drive : .never, searchInSQL: searchInSQL)
    }

    /// The statistics of every quake `request` matches (its order does not matter), in one pass
    /// over the rows the request's plan selects.
    public func catalogueStatistics(of request: SectionedFetchRequest) throws(SQLiteError) -> CatalogueStatistics {
        let plan = QueryPlan(request)
        if let statistics = try catalogueStatisticsFromDigest(plan, timeZone: request.timeZone) { return statistics }
        // The search tested here on each row's placeKey: SQLite's `instr` cost a fifth of a
        // search's statistics (a million rows searched for "a").
        let testsPlace = plan.searchesPlaceOnly
        let (condition, arguments) = try everyRowWhere(plan, searchInSQL: !testsPlace)
        // A missing magnitude or depth reads as infinity, which `add` leaves out as it does nil:
        // one call a column instead of two.
        let statement = try prepare("""
            SELECT ifnull(magnitude, ?), ifnull(depth, ?), time, region\(testsPlace ? ", placeKey" : "") FROM quake WHERE \(condition)
            """)
        try statement.bind([.real(.infinity), .real(.infinity)] + arguments)
        var statistics = CatalogueStatistics(timeZone: request.timeZone)
        let search = plan.placeSearch
        while try statement.step() {
            if testsPlace, let search, !statement.withText(at: 4, { search.matches($0) }) { continue }
            statement.withText(at: 3) { region in
                statistics.add(magnitude: statement.double(at: 0), depth: statement.double(at: 1), time: statement.int64(at: 2), region: region)
            }
        }
        statistics.settle()
        return statistics
    }
}

extension Connection {
    /// `catalogueStatistics(of:)` in one pass over the digest (`SearchDigest`): for a request it
    /// answers (`QueryPlan.digestAnswers`) in a snapshot where it is
    /// complete; nil otherwise (the caller reads the rows). Regions are counted by their text id,
    /// and titled once each at the end. `composing` gathers the rows' composition in the same
    /// pass (`catalogueSummaryFromDigest`).
    func catalogueStatisticsFromDigest(_ plan: QueryPlan, timeZone: TimeZone,
                                       composing reader: DigestCompositionReader? = nil)
        throws(SQLiteError) -> CatalogueStatistics? {
        guard let query = try SearchDigest.query(self, plan: plan, countingKind: nil) else { return nil }
        return try catalogueStatistics(digest: query, timeZone: timeZone, composing: reader)
    }

    /// `catalogueStatisticsFromDigest` for the digest `query` of a plan.
    func catalogueStatistics(digest query: DigestQuery, timeZone: TimeZone,
                             composing reader: DigestCompositionReader? = nil) throws(SQLiteError) -> CatalogueStatistics {
        let title = try prepare("SELECT text FROM quake_digest_text WHERE id = ?")
        var failure: SQLiteError?
        func text(_ id: UInt32) -> String {
            title.reset()
            do {
                try title.bind(Int64(id), at: 1)
                if try title.step() { return title.text(at: 0) }
            } catch {
                failure = failure ?? error
            }
            return ""
        }
        var statistics = CatalogueStatistics(timeZone: timeZone)
        // A count per text of the store (places too: half a million at 5M), pages never written unmapped.
        let regions = TextTally(texts: Int(query.textCount))
        let chunks = try SearchDigest.chunks(self, locations: query.needsLocations, details: true)
        while try chunks.step() {
            try stopIfDue()  // a newer job's cancellation, between chunks scanned in C
            DigestChunk.with(chunks) { chunk, rows in
                query.withC { query in
                    guard let reader else {
                        return statistics.add(chunk, query, count: Int64(rows), regions: regions, composition: nil, title: text)
                    }
                    reader.composing { composition in
                        statistics.add(chunk, query, count: Int64(rows), regions: regions, composition: composition, title: text)
                    }
                }
            }
        }
        var titled: [String: Int] = [:]
        regions.forEachCounted { id, count in titled[text(id), default: 0] += count }
        if let failure { throw failure }
        statistics.addRegionCounts(titled)
        statistics.settle()
        return statistics
    }
}
