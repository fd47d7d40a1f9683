import QuakeModel
/// A new report that may join another agency's event waits for association outside `quake`.
///
/// Into a store that holds another agency's reports of the same earthquakes, nearly every new
/// report joins an event: its `quake` row was inserted (seven indexes, the digest's trigger) only
/// for association to delete it again before the commit, 37% of another agency's month into
/// 1,000,000 quakes (perf, 2026-12-03). So `upsert`, while an import's rows are indexed after
/// association (`pendingRowIndexing`), keeps a new report that lies within a window of another
/// agency's report or of an event of several (`nearAnotherAgencySQL`: two seeks of the time
/// indexes) in ``StagedReports``, with the row id its row would have taken. Association reads it
/// wherever it would have read that row (`WriteTransaction+Association.swift`), so it decides
/// the same events and keeps the same rows; only a staged report whose row an event keeps is
/// written (with that id), and those no event keeps never are. Every other write of the
/// transaction that reads or writes rows by code or time (a delete, notes, a withdrawn report,
/// a record of the same code, `markAbsent`, the bulk load) first writes the staged rows it
/// could see, as the import would have left them: the store is the same, row ids included.
extension WriteTransaction {
    /// Stages `record` when it is new and lies within a window of another agency's report or of
    /// an event of several; nil: not staged (`upsert` writes its row). `joinsNothing` is set when
    /// the record was looked at and nothing of another agency lies within a window of it: as a
    /// new row it is an event of its own and changes no other (a report of another agency that
    /// comes later in the transaction finds it, and is staged).
    func stageIfJoining(_ record: QuakeRecord, joinsNothing: inout Bool) throws(SQLiteError) -> UpsertOutcome? {
        guard staged.count < StagedReports.limit else { return nil }
        // A store of this agency's reports alone (a month of USGS's into USGS's): nothing to join.
        let agency = Association.agency(of: record)
        if let storedAgencies, storedAgencies.allSatisfy({ $0 == agency }) { return nil }
        let near = try held(.near)
        try near.bind(Association.widened(record.time, by: -Association.window), at: 1)
        try near.bind(Association.widened(record.time, by: Association.window), at: 2)
        try near.bind(agency, at: 3)
        let isNear = try near.step() && near.int64(at: 0) != 0
        near.reset()
        guard isNear else {
            joinsNothing = true
            return nil
        }
        let stored = try held(.storedCode)
        try stored.bind(record.code, at: 1)
        let isStored = try stored.step()
        stored.reset()
        guard !isStored else { return nil }
        // A report its agency withdrew since: an older version, not stored again (as `upsert`).
        if try hasWithdrawn(), try isWithdrawn(record) {
            changes.unchanged += 1
            return .unchanged
        }
        let id = try nextRowID()
        staged.append(record, id: id)
        lastInsertedID = id
        changes.record(.insert, code: record.code)
        pendingRowIndexing?.noteInserted(id: id)
        touched.add(record.time)
        storedAgencies?.insert(agency)
        return .inserted
    }

    /// The agencies of the store's rows, read from the search digest's kinds (each pair of a
    /// row's magnitude type and agency, with its count of rows: a kind whose rows are gone is
    /// left out, one not counted kept); nil when an event has reports of several or the digest is behind.
    func agenciesOfStore() throws(SQLiteError) -> Set<String>? {
        guard try !reportsMayExist() else { return nil }
        // An empty store holds no agency, digest or not.
        if try connection.scalar("SELECT EXISTS (SELECT 1 FROM quake)").int64 == 0 { return [] }
        guard try SearchDigest.isCurrent(connection) else { return nil }
        var agencies: Set<String> = []
        let kinds = try connection.prepare("SELECT DISTINCT source FROM quake_digest_kind WHERE rows IS NULL OR rows > 0")
        while try kinds.step() { agencies.insert(kinds.text(at: 0)) }
        return agencies
    }

    /// The id a new row takes: past the largest stored, the staged reports' rows and the ids
    /// given before (`WriteTransaction+RowIDs.swift`).
    func nextRowID() throws(SQLiteError) -> Int64 {
        let maxID = try held(.maxID)
        let stored = try maxID.step() ? maxID.int64(at: 0) : 0
        maxID.reset()
        return max(stored, staged.maxPresentID ?? 0, try rowIDFloorValue()) + 1
    }

    /// Writes the row of the staged report `code`, if one is staged.
    func materializeStaged(code: String) throws(SQLiteError) {
        guard let index = staged.index(ofCode: code) else { return }
        try writeStagedRow(at: index)
    }

    /// Writes the rows of every staged report, as the import would have left them.
    func materializeAllStaged() throws(SQLiteError) {
        guard !staged.isEmpty else { return }
        for index in staged.presentIndexes { try writeStagedRow(at: index) }
    }

    /// Writes a staged report's row with the id it was given (its insert, counts and touched
    /// time were recorded when it was staged).
    func writeStagedRow(at index: Int) throws(SQLiteError) {
        let (record, id) = (staged.records[index], staged.ids[index])
        staged.remove(at: index)
        let statement = try heldUpsertStatement()
        try bindUpsert(record, to: statement)
        try statement.bind(id, at: 23)
        try statement.step()
    }

    /// Whether a row of another agency, or of an event of several, or a report of one, lies
    /// within a window of ?1…?2; ?3 the report's agency. Two seeks of the time indexes.
    static let nearAnotherAgencySQL = """
        SELECT EXISTS (SELECT 1 FROM quake WHERE time BETWEEN ?1 AND ?2 AND (agencies <> 1 OR coalesce(source, 'usgs') <> ?3))
            OR EXISTS (SELECT 1 FROM report WHERE time BETWEEN ?1 AND ?2)
        """
}
