import QuakeModel
import Foundation

/// Revisions in the store (issue 53): every version of a report whose magnitude, its type,
/// origin time, epicentre, depth or status changed, with the time it was seen.
///
/// The triggers of migration 15 (`Schema.revisionTrigger`) write a version when a stored report
/// really changes, in the import's own transaction: an unchanged re-import updates no row and so
/// writes nothing. They write `seen = -1` and mark the event `revised = -1`; the commit stamps both
/// (``stampRevisions(token:at:)``) with its time and its history token, which is what the list's
/// mark compares with a scene's `ContentView.seenArrival`. A record whose status is `deleted`
/// withdraws its report (``withdraw(_:)``): its versions are kept, the report goes (and its event
/// with it, when no other agency reported it), and the import's summary says so. A withdrawn
/// report is not stored again from an older record of it.
extension WriteTransaction {
    /// Whether a feed's status says its agency deleted the report.
    /// ASCII case is all a status has; Foundation's `caseInsensitiveCompare` here, called for every
    /// record, was 8% of an import's upserts (perf, 1M quakes).
    static func isDeleted(_ status: String) -> Bool {
        var utf8 = status.utf8.makeIterator()
        for expected in "deleted".utf8 {
            guard let byte = utf8.next(), byte | 0x20 == expected else { return false }
        }
        return utf8.next() == nil
    }

    /// A record of status `deleted`: the stored report (a shared event's, or a lone event's row)
    /// goes, its versions kept with this one last. Unchanged when nothing of that code is stored,
    /// or what is stored is newer.
    func withdraw(_ record: QuakeRecord) throws(SQLiteError) -> UpsertOutcome {
        let find = try connection.cachedStatement("""
            SELECT 'report', updated, event, 0 FROM report WHERE code = ?1
            UNION ALL SELECT 'quake', updated, id, agencies FROM quake WHERE code = ?1 LIMIT 1
            """)
        try find.bind(record.code, at: 1)
        guard try find.step() else {
            find.reset()
            changes.unchanged += 1
            return .unchanged
        }
        let (table, updated, event) = (find.text(at: 0), find.int64(at: 1), find.int64(at: 2))
        // A shared event's report, in `report` or its row (the preferred one): the event stays.
        let eventStays = table == "report" || find.int64(at: 3) > 1
        find.reset()
        guard record.updated >= updated else {
            changes.unchanged += 1
            return .unchanged
        }
        let columns = "code, seen, updated, " + Schema.revisedColumns.joined(separator: ", ")
        try connection.execute("""
            INSERT INTO revision (\(columns)) SELECT code, NULL, updated, \(Schema.revisedColumns.joined(separator: ", "))
                FROM \(table) WHERE code = ?1 AND NOT EXISTS (SELECT 1 FROM revision WHERE code = ?1)
            """, [.text(record.code)])
        let insert = try connection.cachedStatement(
            "INSERT INTO revision (\(columns)) VALUES (?1, -1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
        try insert.bind([
            .text(record.code), .integer(record.updated), record.magnitude.map { .real($0) } ?? .null,
            record.magType.map { .text($0) } ?? .null, .integer(record.time), .real(record.latitude),
            .real(record.longitude), record.depth.map { .real($0) } ?? .null, record.status.map { .text($0) } ?? .null,
        ])
        try insert.step()
        // An event other agencies still report stays, marked revised.
        try deleteQuake(code: record.code)
        if eventStays { try connection.execute("UPDATE quake SET revised = -1 WHERE id = ?", [.integer(event)]) }
        withdrawnCount += 1
        knownHasWithdrawn = true
        return .withdrawn
    }

    /// Whether `record` is of a report its agency deleted, at or after the record's `updated`
    /// (an older version of it, from an older feed, is not stored again).
    func isWithdrawn(_ record: QuakeRecord) throws(SQLiteError) -> Bool {
        let statement = try connection.cachedStatement(
            "SELECT 1 FROM revision WHERE code = ? AND status = 'deleted' AND updated >= ? LIMIT 1")
        try statement.bind(record.code, at: 1)
        try statement.bind(record.updated, at: 2)
        defer { statement.reset() }
        return try statement.step()
    }

    /// Stamps this transaction's versions with the time it was seen and its events with its
    /// history token (both found through partial indexes: nothing to do costs two seeks).
    func stampRevisions(token: Int64, at date: Date) throws(SQLiteError) {
        try markEventsHoldingRevisedReports()
        let seen = try connection.cachedStatement("UPDATE revision SET seen = ? WHERE seen = -1")
        try seen.bind(Int64(date.timeIntervalSince1970 * 1000), at: 1)
        try seen.step()
        seen.reset()
        let revised = try connection.cachedStatement("UPDATE quake SET revised = ? WHERE revised = -1")
        try revised.bind(token, at: 1)
        try revised.step()
        revised.reset()
    }

    /// The mark goes with the revised report, after association: a report revised into another
    /// event (moved out of the one it was in) marks the event that holds it now, and an event
    /// the triggers marked that no longer holds a revised report is not marked for it. (A
    /// withdrawal marks the event its report left on purpose: such a transaction keeps its marks.)
    private func markEventsHoldingRevisedReports() throws(SQLiteError) {
        let pending = try connection.cachedStatement("SELECT EXISTS (SELECT 1 FROM revision WHERE seen = -1)")
        defer { pending.reset() }
        guard try pending.step(), pending.int64(at: 0) == 1 else { return }
        let reports = associates ? try reportsMayExist() : false
        let holders = reports
            ? "SELECT quake.id FROM revision JOIN quake USING (code) WHERE seen = -1 UNION SELECT report.event FROM revision JOIN report USING (code) WHERE seen = -1"
            : "SELECT quake.id FROM revision JOIN quake USING (code) WHERE seen = -1"
        try connection.execute("UPDATE quake SET revised = -1 WHERE id IN (\(holders)) AND revised IS NOT -1")
        guard withdrawnCount == 0 else { return }
        let revisedReport = reports
            ? "EXISTS (SELECT 1 FROM revision WHERE code = quake.code) OR EXISTS (SELECT 1 FROM report JOIN revision USING (code) WHERE report.event = quake.id)"
            : "EXISTS (SELECT 1 FROM revision WHERE code = quake.code)"
        try connection.execute("UPDATE quake SET revised = NULL WHERE revised = -1 AND NOT (\(revisedReport))")
    }
}

extension Connection {
    /// Every kept version of the reports whose codes are `codes`, each report's oldest first
    /// (empty for a report that never changed, or a store before schema 15).
    public func revisions(ofReports codes: [String]) throws(SQLiteError) -> [ReportRevision] {
        guard try cachedScalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'revision'").int64 == 1
        else { return [] }
        let statement = try cachedStatement("""
            SELECT code, seen, updated, magnitude, magType, time, latitude, longitude, depth, status
            FROM revision WHERE code = ? ORDER BY rowid
            """)
        var found: [ReportRevision] = []
        for code in codes {
            statement.reset()
            try statement.bind(code, at: 1)
            while try statement.step() {
                let s = statement
                found.append(ReportRevision(
                    code: s.text(at: 0), seen: s.isNull(at: 1) ? nil : s.int64(at: 1), updated: s.int64(at: 2),
                    magnitude: s.optionalDouble(at: 3), magType: s.optionalText(at: 4), time: s.int64(at: 5),
                    latitude: s.double(at: 6), longitude: s.double(at: 7), depth: s.optionalDouble(at: 8),
                    status: s.optionalText(at: 9)))
            }
        }
        statement.reset()
        return found
    }
}

extension Connection {
    /// The codes of the events revised by a commit after `token` (`quake.revised`, through its
    /// partial index: only revised events are read), at most `limit`; empty before schema 15.
    public func codesRevised(after token: HistoryToken, limit: Int) throws(SQLiteError) -> Set<String> {
        guard try cachedScalar("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'quake_revised'").int64 == 1
        else { return [] }
        let statement = try cachedStatement("SELECT code FROM quake WHERE revised > ? LIMIT ?")
        try statement.bind(token.rawValue, at: 1)
        try statement.bind(Int64(limit), at: 2)
        var codes: Set<String> = []
        while try statement.step() { codes.insert(statement.text(at: 0)) }
        statement.reset()
        return codes
    }
}

extension WriteTransaction {
    /// The status a report gets when the refreshed feed that should list it no longer does.
    public static let withdrawnStatus = ReportRevision.withdrawn

    /// Marks `withdrawn` every stored report of `agency` with an origin time in `from...through`
    /// and a magnitude of at least `minimumMagnitude` (nil: any) whose code is not in `listed`
    /// (a refreshed summary feed's window, `SummaryFeedWindow`). The change is a revision like
    /// any other (kept, marked, `:revised`); a later feed that lists the report again restores it.
    /// - Returns: how many were marked.
    public func markAbsent(agency: String, listed: Set<String>, from: Int64, through: Int64,
                           minimumMagnitude: Double?) throws(SQLiteError) -> Int {
        guard keepsRevisions, from <= through else { return 0 }
        try materializeAllStaged()
        // As the feed chooses: USGS's M 2.5+ feed lists M 2.45 (`MagnitudeBin`).
        let floor = minimumMagnitude.map { " AND magnitude >= \(MagnitudeBin.lowestStored(shownAtLeast: $0))" } ?? ""
        // Where each is: in `report` (a shared event's other report), or a row (of a shared event or not).
        var absent: [(code: String, time: Int64, inReport: Bool, rowOfShared: Bool)] = []
        // The rows: lone events' reports and shared events' preferred ones.
        let rows = try connection.prepare("""
            SELECT code, time, agencies FROM quake WHERE time BETWEEN ?1 AND ?2 AND coalesce(source, 'usgs') = ?3
                AND coalesce(status, '') <> '\(Self.withdrawnStatus)'\(floor)
            """)
        try rows.bind([.integer(from), .integer(through), .text(agency)])
        while try rows.step() {
            if !listed.contains(rows.text(at: 0)) {
                absent.append((rows.text(at: 0), rows.int64(at: 1), false, rows.int64(at: 2) > 1))
            }
        }
        let shared = try connection.prepare("""
            SELECT code, time FROM report WHERE time BETWEEN ?1 AND ?2 AND agency = ?3
                AND coalesce(status, '') <> '\(Self.withdrawnStatus)'\(floor)
            """)
        try shared.bind([.integer(from), .integer(through), .text(agency)])
        while try shared.step() {
            if !listed.contains(shared.text(at: 0)) { absent.append((shared.text(at: 0), shared.int64(at: 1), true, false)) }
        }
        let markRow = try connection.prepare("UPDATE quake SET status = '\(Self.withdrawnStatus)' WHERE code = ?")
        let markShared = try connection.prepare("UPDATE report SET status = '\(Self.withdrawnStatus)' WHERE code = ?")
        for report in absent {
            if report.inReport {
                markShared.reset()
                try markShared.bind(report.code, at: 1)
                try markShared.step()
                changes.count(.update)
                touched.add(report.time)
            } else {
                let old = changes.isTrackingCodes ? try oldKeys(code: report.code) : nil
                markRow.reset()
                try markRow.bind(report.code, at: 1)
                try markRow.step()
                changes.record(.update, code: report.code, old: old)
                // Another of its event's reports may be preferred now.
                if report.rowOfShared { touched.add(report.time) }
            }
        }
        return absent.count
    }
}
