import Foundation
import QuakeModel

extension Connection {
    /// Every quake `request` matches as columns, in time order (the earlier row first on equal
    /// times), in one pass over its rows by the time index: what declustering, the magnitude
    /// types and agencies and the moment per day read (issue 54). A row's agency is its
    /// `source` (NULL is USGS, as every reader takes it), or for ComCat's rows the network that
    /// contributed it (`SearchDigest.network`).
    /// A pass over the digest gives them where it answers the request (`catalogueEventsFromDigest`:
    /// 7 s of SQL at 1,000,000 quakes); the rows otherwise (`catalogueEventsFromRows`).
    public func catalogueEvents(of request: SectionedFetchRequest) throws(SQLiteError) -> CatalogueEvents {
        let plan = QueryPlan(request)
        if let events = try catalogueEventsFromDigest(plan) { return events }
        return try catalogueEventsFromRows(plan)
    }

    /// `catalogueEvents(of:)` by SQL, through the time index.
    func catalogueEventsFromRows(_ plan: QueryPlan) throws(SQLiteError) -> CatalogueEvents {
        // `+magnitude`: the planner walks the time index, not the magnitude one.
        let (condition, arguments) = plan.rowWhere(magnitude: .never)
        let statement = try prepare("""
            SELECT id, time, latitude, longitude, depth, magnitude, magType, ifnull(source, 'usgs'), region,
                \(SearchDigest.network("quake"))
            FROM quake WHERE \(condition) ORDER BY time, id
            """)
        try statement.bind(arguments)
        var events = CatalogueEvents()
        var rows = 0
        while try statement.step() {
            rows += 1
            if rows % 65_536 == 0 { try stopIfDue() }
            events.append(id: statement.int64(at: 0), time: statement.int64(at: 1), latitude: statement.double(at: 2),
                          longitude: statement.double(at: 3), depth: statement.isNull(at: 4) ? nil : statement.double(at: 4),
                          magnitude: statement.isNull(at: 5) ? nil : statement.double(at: 5), type: statement.optionalText(at: 6),
                          agency: SearchDigest.statisticsAgency(source: statement.text(at: 7), network: statement.text(at: 9)),
                          region: statement.text(at: 8))
        }
        return events
    }

    /// The statistics of the quakes `request` matches with what only the quakes one by one give
    /// (`CatalogueStatistics.including`) and their b-positive (in time order), of the background
    /// alone when `declustering` is given: the quakes it keeps are then counted again
    /// (`CatalogueEvents.statistics`), and `declustered` says how many it removed.
    ///
    /// Without declustering, two passes over the digest answer where they can
    /// (`catalogueSummaryFromDigest`: the counts, then the types, agencies, moments and b-positive
    /// from each row's time, magnitude and kind), every number as reading the rows gives it;
    /// elsewhere, and to decluster (which needs every epicentre), the rows are read
    /// (`catalogueEvents`). `partial` gets the counts as soon as they are known, before the rest
    /// (without declustering).
    public func catalogueSummary(of request: SectionedFetchRequest, declustering: Declustering? = nil,
                                 partial: ((CatalogueStatistics) -> Void)? = nil,
                                 progress: ((Double) -> Void)? = nil) throws(SQLiteError) -> (CatalogueStatistics, BPositive) {
        guard let declustering else {
            if let summary = try catalogueSummaryFromDigest(QueryPlan(request), timeZone: request.timeZone, partial: partial) {
                return summary
            }
            let counts = try catalogueStatistics(of: request)
            partial?(counts)
            let events = try catalogueEvents(of: request)
            return (counts.including(events), events.bPositive)
        }
        let events = try catalogueEvents(of: request)
        let result = declustering.decluster(events, progress: progress)
        try stopIfDue()
        let kept = events.keeping(result.keep)
        let statistics = kept.statistics(timeZone: request.timeZone)
            .including(kept, declustered: DeclusterSummary(method: declustering, removed: result.removed))
        return (statistics, kept.bPositive)
    }
}

extension Connection {
    /// The codes of the rows `ids` (those that exist), one lookup by primary key each: what
    /// `list --decluster` leaves out.
    public func codes(ofIDs ids: [Int64]) throws(SQLiteError) -> Set<String> {
        let statement = try prepare("SELECT code FROM quake WHERE id = ?")
        var codes = Set<String>()
        for id in ids {
            statement.reset()
            try statement.bind(id, at: 1)
            if try statement.step() { codes.insert(statement.text(at: 0)) }
        }
        return codes
    }
}
