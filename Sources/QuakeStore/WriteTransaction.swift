import QuakeModel
import Foundation

/// The open write transaction handed to `BackgroundContext.performAndWait`'s body. It tracks
/// what changed so that the commit can record one persistent-history entry.
///
/// Valid only during the body; do not store it.
public final class WriteTransaction {
    /// The connection, for statements the typed API below does not cover. Changes made
    /// through it directly are not recorded in the history; call `record(_:code:)` for them.
    public let connection: Connection
    var changes = ChangeTracker()
    /// The indexes a `deferIndexes()` set aside until `restoreDeferredIndexes()` (nil: none).
    var bulkLoad: BulkLoad?
    /// An import's rows not yet in the search index and the section counts: caught up after
    /// association (`finishDeferredRowIndexing()`), so the rows it deletes are never indexed.
    var pendingRowIndexing: DeferredRowIndexing?
    private var upsertStatement: Statement?
    private var oldKeysStatement: Statement?
    /// The order an event's reports are preferred in (the `agencyPreference` setting).
    public var agencyPreference: AgencyPreference = .standard
    /// Where reports came, changed or went in this transaction: association looks again there
    /// before commit (`associate()`).
    var touched = TouchedTimes()
    /// Reports withdrawn in this transaction (records of status `deleted`).
    var withdrawnCount = 0
    /// New reports an import holds back from `quake` until association decides them
    /// (`WriteTransaction+Staging.swift`).
    var staged = StagedReports()
    /// Whether `upsert` may stage a new report now (set by `upsert(from:)` while its rows are
    /// indexed after association).
    var stagesReports = false
    /// The row id the last inserted (or staged) report took.
    var lastInsertedID: Int64 = 0 {
        didSet { if firstInsertedID == nil { firstInsertedID = lastInsertedID } }
    }
    /// The row id the transaction's first inserted (or staged) report took: every row past the
    /// largest id before it, so a row from it on holds a report this transaction inserted (rows
    /// get ids past the largest; a staged report's too). Nil: none inserted yet.
    var firstInsertedID: Int64?
    /// Every agency whose rows the store may hold, while no event has two (nil: not known);
    /// `stageIfJoining` skips its seeks when it holds no other agency than a report's.
    var storedAgencies: Set<String>?
    /// Statements held for association and staging (`WriteTransaction+HeldStatements.swift`).
    var heldStatements = [Statement?](repeating: nil, count: HeldStatement.allCases.count)
    /// Whether the store has the `report` table (schema 14); stores made with fewer migrations
    /// on purpose (tests of the migrations) do not associate.
    let associates: Bool
    /// Whether the store keeps revisions (schema 15, `WriteTransaction+Revisions.swift`).
    let keepsRevisions: Bool
    /// `reportsMayExist()` and `hasWithdrawn()` once read (or set) in this transaction.
    var knownReportsMayExist: Bool?, knownHasWithdrawn: Bool?, knownHasAliases: Bool?
    /// Whether the store keeps ComCat's aliases (schema 22, `WriteTransaction+Aliases.swift`).
    let keepsAliases: Bool
    /// The optional fields the records upserted now have no place for in their feed's format
    /// (`FeedReader.absentFields`): an update keeps what the store holds for them.
    public var keptFields: QuakeRecord.Fields = []
    /// The ids given before, which a new row must pass (`WriteTransaction+RowIDs.swift`).
    var rowIDFloor = RowIDFloor()
    /// The codes upserted since the last ``mergeComCatAliases(_:)`` that have a row in `quake_alias`.
    var listedAliases: [String] = []
    /// Stored quakes merged into another event by ComCat's aliases in this transaction.
    public internal(set) var mergedCount = 0

    /// The reports this transaction inserted that joined a quake another agency reported (one
    /// stored before, or another report of this transaction), by code, as association decided
    /// (after it: `joinedCount`). The quakes it added are its inserted reports but these.
    var joinedCodes: Set<String> = []

    /// Reads the store's schema version. Every read in a transaction throws what it meets: after
    /// an I/O error SQLite may have rolled the transaction back itself, and a statement run after
    /// that commits on its own (a fetch whose first read failed wrote its windows one statement
    /// at a time, then said "nothing was changed": issue 57's fault sweep).
    init(connection: Connection) throws(SQLiteError) {
        self.connection = connection
        let version = try connection.scalar("PRAGMA user_version").int64 ?? 0
        associates = version >= Int64(Schema.reportsAssociated)
        keepsRevisions = version >= Int64(Schema.revisionsKept)
        keepsAliases = version >= Int64(Schema.aliasesKept)
    }

    /// Whether `report` may hold a row (an event of several agencies): read once per transaction,
    /// set when association puts a report there. While it is false a record's code is no shared
    /// event's report, and a store of at most one agency has nothing to associate.
    func reportsMayExist() throws(SQLiteError) -> Bool {
        if let known = knownReportsMayExist { return known }
        var exists = false
        if associates { exists = try connection.scalar("SELECT EXISTS (SELECT 1 FROM report)").int64 != 0 }
        knownReportsMayExist = exists
        return exists
    }

    /// Whether some report was deleted by its agency (then a record of its code is checked
    /// against that before it is stored again); read once per transaction.
    func hasWithdrawn() throws(SQLiteError) -> Bool {
        if let known = knownHasWithdrawn { return known }
        var withdrawn = false
        if keepsRevisions {
            withdrawn = try connection.scalar("SELECT EXISTS (SELECT 1 FROM revision WHERE status = 'deleted')").int64 != 0
        }
        knownHasWithdrawn = withdrawn
        return withdrawn
    }

    /// Records a change made with raw SQL so that it reaches the history. For updates and deletes
    /// pass the row's keys from before the change (readers reload everything when they are missing).
    public func record(_ kind: HistoryChange.Kind, code: String, old: RowKeys? = nil) {
        changes.record(kind, code: code, old: old)
    }

    /// Forces this transaction's history entry to be a bulk one ("refetch everything").
    public func markBulk() { changes.markBulk() }

    func recordHistory(author: String, at date: Date) throws(SQLiteError) {
        guard changes.hasChanges else { return }
        let statement = try connection.cachedStatement(
            "INSERT INTO history (timestamp, author, origin, isBulk, inserted, updated, deleted) VALUES (?, ?, ?, ?, ?, ?, ?)")
        try statement.bind([
            .integer(Int64(date.timeIntervalSince1970 * 1000)), .text(author), .text(StoreOrigin.current),
            .integer(changes.isBulk ? 1 : 0), .integer(Int64(changes.inserted)),
            .integer(Int64(changes.updated)), .integer(Int64(changes.deleted)),
        ])
        try statement.step()
        let token = connection.lastInsertRowID
        if keepsRevisions { try stampRevisions(token: token, at: date) }
        guard !changes.isBulk else { return }
        // A store is migrated before anything writes to it; only a store made with fewer
        // migrations on purpose (tests of the migrations) lacks schema 6's `oldDepth` or
        // schema 17's `oldAgencies`.
        let version = try connection.scalar("PRAGMA user_version").int64 ?? 0
        let keepsDepth = version >= 6
        let keepsAgencies = version >= Int64(Schema.agencyChangesListed)
        let insert = try connection.cachedStatement(keepsAgencies
            ? "INSERT INTO history_change (token, code, kind, oldId, oldTime, oldMagnitude, oldRegionKey, oldPlaceKey, oldDepth, oldAgencies) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            : keepsDepth
            ? "INSERT INTO history_change (token, code, kind, oldId, oldTime, oldMagnitude, oldRegionKey, oldPlaceKey, oldDepth) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            : "INSERT INTO history_change (token, code, kind, oldId, oldTime, oldMagnitude, oldRegionKey, oldPlaceKey) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for (code, kind) in changes.codes {
            insert.reset()
            try insert.bind(token, at: 1)
            try insert.bind(code, at: 2)
            try insert.bind(Int64(kind.rawValue), at: 3)
            if let old = changes.oldKeys[code] {
                try insert.bind(old.id, at: 4)
                try insert.bind(old.time, at: 5)
                try insert.bind(old.magnitude, at: 6)
                try insert.bind(old.regionKey, at: 7)
                try insert.bind(old.placeKey, at: 8)
                if keepsDepth { try insert.bind(old.depth, at: 9) }
            }
            if keepsAgencies, let agencies = changes.oldAgencies[code] { try insert.bind(Int64(agencies), at: 10) }
            try insert.step()
        }
    }
}

/// The outcome of upserting one record.
public enum UpsertOutcome: Sendable, Equatable {
    case inserted, updated, unchanged
    /// A record whose status is `deleted`: the stored report was withdrawn (`withdraw(_:)`).
    case withdrawn
}

extension WriteTransaction {
    /// Inserts `record`, or merges it into the stored quake with the same code: every feed field
    /// is replaced ("object trump") unless the incoming `updated` is older than the stored one,
    /// so an old snapshot never regresses newer data. `notes` is never touched.
    ///
    /// A rowid table with `ON CONFLICT(code) DO UPDATE`, never `REPLACE` (which would delete the
    /// row, its notes and its row id) — https://www.sqlite.org/lang_upsert.html.
    @discardableResult
    public func upsert(_ record: QuakeRecord) throws(SQLiteError) -> UpsertOutcome {
        // A report staged earlier in this import is written first, then treated as a row.
        if staged.count > 0 { try materializeStaged(code: record.code) }
        // Fields its feed has no place for are the stored report's (a CSV after its GeoJSON).
        var record = record
        if !keptFields.isEmpty { try fillKeptFields(of: &record) }
        // A code ComCat lists under another event: decided with the download's aliases.
        if try hasAliases(), try isAlias(record.code) { listedAliases.append(record.code) }
        // A report its agency deleted goes, keeping its versions (`WriteTransaction+Revisions.swift`).
        if keepsRevisions, let status = record.status, Self.isDeleted(status) { return try withdraw(record) }
        // A report of an event of several agencies lives in `report`, or is the event's row (its
        // preferred one, updated below); association rewrites its event.
        var sharedRowTime: Int64?
        if associates, try reportsMayExist(),
           let outcome = try upsertReportOfSharedEvent(record, sharedRowTime: &sharedRowTime) { return outcome }
        // A new report that may join another agency's event waits for association outside `quake`.
        var joinsNothing = false
        if stagesReports, let outcome = try stageIfJoining(record, joinsNothing: &joinsNothing) { return outcome }
        storedAgencies?.insert(Association.agency(of: record))
        let statement = try heldUpsertStatement()
        try bindUpsert(record, to: statement)
        // Rows of staged reports are not in the table yet: a new row takes the id after theirs.
        try statement.bind(try newRowID(), at: 23)
        // While changes are listed one by one, remember where the row was for readers' diffs.
        let old = changes.isTrackingCodes ? try oldKeys(code: record.code) : nil
        let rowidBefore = connection.lastInsertRowID
        try statement.step()
        // The DO UPDATE branch leaves last_insert_rowid alone, so a new row id means an insert.
        var outcome: UpsertOutcome =
            connection.changes == 0 ? .unchanged
            : connection.lastInsertRowID != rowidBefore ? .inserted : .updated
        // A new row of a report its agency withdrew since: an older version, not stored again.
        if outcome == .inserted, try hasWithdrawn(), try isWithdrawn(record) {
            try connection.execute("DELETE FROM quake WHERE id = ?", [.integer(connection.lastInsertRowID)])
            outcome = .unchanged
        }
        switch outcome {
        case .inserted:
            changes.record(.insert, code: record.code)
            lastInsertedID = connection.lastInsertRowID
            pendingRowIndexing?.noteInserted(id: connection.lastInsertRowID)
        case .updated: changes.record(.update, code: record.code, old: old)
        case .unchanged: changes.unchanged += 1
        case .withdrawn: break
        }
        // A report alone in its event: where it is now is where association looks (where it was,
        // nobody had joined it, so leaving changes nobody's event). A shared event's preferred
        // report: where its event's other reports are too. A new row with nothing of another
        // agency near it joins nothing: a month of one agency's reports into a store that holds
        // others' elsewhere walks nothing (27 ms of the time indexes at 5M).
        if outcome != .unchanged, associates, !(outcome == .inserted && joinsNothing) {
            touched.add(record.time)
            if let sharedRowTime { touched.add(sharedRowTime) }
        }
        return outcome
    }

    /// The upsert statement, held after the first lookup: hashing the long SQL text per row
    /// would cost an import.
    func heldUpsertStatement() throws(SQLiteError) -> Statement {
        if let upsertStatement {
            upsertStatement.reset()
            return upsertStatement
        }
        let statement = try connection.cachedStatement(Self.upsertSQL)
        upsertStatement = statement
        return statement
    }

    /// Binds `record` to `upsertSQL`'s ?1…?22 (the id, ?23, is left to the caller).
    func bindUpsert(_ record: QuakeRecord, to statement: Statement) throws(SQLiteError) {
        try statement.bind(record.code, at: 1)
        try statement.bind(record.magnitude, at: 2)
        try statement.bind(record.magType, at: 3)
        try statement.bind(record.place, at: 4)
        try statement.bind(record.time, at: 5)
        try statement.bind(record.updated, at: 6)
        try statement.bind(record.latitude, at: 7)
        try statement.bind(record.longitude, at: 8)
        try statement.bind(record.depth, at: 9)
        let region = record.region
        try statement.bind(region, at: 10)
        try statement.bind(TextFolding.fold(region), at: 11)
        try statement.bind(TextFolding.fold(record.place), at: 12)
        try statement.bind(record.status, at: 13)
        try statement.bind(record.type, at: 14)
        try statement.bind(record.tsunami, at: 15)
        try statement.bind(record.felt, at: 16)
        try statement.bind(record.alert, at: 17)
        try statement.bind(record.sig, at: 18)
        try statement.bind(record.net, at: 19)
        try statement.bind(record.url, at: 20)
        try statement.bind(record.title, at: 21)
        try statement.bind(record.source, at: 22)
    }

    /// Upserts every record `next` yields, in this transaction, in bounded memory.
    ///
    /// - Parameters:
    ///   - next: returns the next record, nil at the end; an error it throws rolls back the whole
    ///     transaction (so an import is all or nothing).
    ///   - progress: called every `progressInterval` records with the counts so far.
    ///   - keepingPartialInput: when `next` throws, put back the indexes set aside for the bulk
    ///     before rethrowing, for a caller that commits what was stored (a fetch's failed window).
    public func upsert(
        from next: () throws -> QuakeRecord?,
        progressInterval: Int = 4096,
        keepingPartialInput: Bool = false,
        progress: (UpsertCounts) -> Void = { _ in }
    ) throws -> UpsertCounts {
        var seen = 0
        if bulkLoad != nil {
            // The caller set the indexes aside for the whole transaction (`deferIndexes()`).
            while let record = try next() {
                if try upsert(record) == .inserted { bulkLoad!.rowIndexing.noteInserted(id: lastInsertedID) }
                seen += 1
                if seen % progressInterval == 0 { progress(counts) }
            }
            return counts
        }
        // A large import indexes in bulk at the end (see WriteTransaction+SearchIndex.swift).
        // max(id) bounds the row count from above in O(log n): at worst a switch comes later.
        let rowsBefore = Int(try connection.scalar("SELECT coalesce(max(id), 0) FROM quake").int64 ?? 0)
        let insertedBefore = changes.inserted
        // Into a large store, new rows land all over the secondary indexes: a larger page cache
        // holds more of what they dirty before SQLite spills pages to the WAL and reads them
        // back (a month into 1M: 28k writes and 22k reads with SQLite's default 2 MB, 17k and 9k
        // with 32 MB). With the store's pages in the OS page cache that saves no time (a month
        // into 1M and 5M took 0.53 and 0.72 s with 2, 8, 16, 24 and 32 MB alike), while 32 MB
        // took the import to 68 MB of RSS, past the 64 MB budget; 8 MB keeps it at 42 MB.
        // Into a small or empty store the default is enough.
        let cacheKiB = Self.importCacheKiB(rowsBefore: rowsBefore)
        if cacheKiB != Self.defaultCacheKiB { try connection.execute("PRAGMA cache_size = -\(cacheKiB)") }
        // Before anything is written: which agencies the store holds (`stageIfJoining`).
        if associates, !changes.hasChanges, staged.count == 0 { storedAgencies = try agenciesOfStore() }
        // An earlier import of this transaction's deferral, not caught up yet, goes on.
        var rowIndexing = pendingRowIndexing
        pendingRowIndexing = nil
        var droppedIndexes: [(name: String, sql: String)]?
        func pull() throws -> QuakeRecord? {
            guard keepingPartialInput else { return try next() }
            do {
                return try next()
            } catch {
                // What was stored is committed: staged reports become rows as they came.
                stagesReports = false
                try materializeAllStaged()
                if let dropped = droppedIndexes { try recreateIndexes(dropped) }
                if let rowIndexing { try catchUpRowIndexing(rowIndexing) }
                if cacheKiB != Self.defaultCacheKiB { try connection.execute("PRAGMA cache_size = -\(Self.defaultCacheKiB)") }
                throw error
            }
        }
        while let record = try pull() {
            let inserted = changes.inserted - insertedBefore
            if droppedIndexes == nil, Self.shouldDeferSecondaryIndexes(inserted: inserted, rowsBefore: rowsBefore) {
                // Rebuilt at the end from the table: staged reports go in as the rows they stand for.
                stagesReports = false
                try materializeAllStaged()
                droppedIndexes = try dropSecondaryIndexes()
                if cacheKiB != Self.defaultCacheKiB { try connection.execute("PRAGMA cache_size = -\(Self.defaultCacheKiB)") }
                // The import outnumbers what readers showed: they reload either way (a results
                // controller reloads past `FetchedResultsController.maxListedChanges`), so stop
                // listing codes and reading old keys per row.
                markBulk()
            }
            if rowIndexing == nil, Self.shouldDeferRowIndexing(inserted: inserted, rowsBefore: rowsBefore) {
                rowIndexing = try deferRowIndexing()
            }
            // Staging waits for the deferral: a staged row must take an id above its mark, as
            // rows indexed after association do (`WriteTransaction+Staging.swift`).
            stagesReports = associates && rowIndexing != nil && droppedIndexes == nil
            if try upsert(record) == .inserted, rowIndexing != nil { rowIndexing!.noteInserted(id: lastInsertedID) }
            seen += 1
            if seen % progressInterval == 0 { progress(counts) }
        }
        stagesReports = false
        if let droppedIndexes { try recreateIndexes(droppedIndexes) }
        if let rowIndexing {
            // Association deletes the rows of reports that join another agency's event (every
            // row of a second agency's copy of a catalogue): left for after it, they are never
            // indexed, counted, then taken out again. A bulk load recounts and rebuilds now.
            if droppedIndexes == nil, associates { pendingRowIndexing = rowIndexing } else { try catchUpRowIndexing(rowIndexing) }
        }
        if cacheKiB != Self.defaultCacheKiB { try connection.execute("PRAGMA cache_size = -\(Self.defaultCacheKiB)") }
        return counts
    }

    /// SQLite's default page cache (`PRAGMA cache_size = -2000`: 2,000 KiB).
    static let defaultCacheKiB = 2_000

    /// The page cache for an import into a table that held (at most) `rowsBefore` rows.
    static func importCacheKiB(rowsBefore: Int) -> Int {
        rowsBefore >= 100_000 ? 8_192 : defaultCacheKiB
    }

    /// How many inserted reports joined another agency's quake (`joinedCodes`), once association ran.
    public var joinedCount: Int { joinedCodes.count }

    /// The counts of this transaction so far.
    public var counts: UpsertCounts {
        UpsertCounts(inserted: changes.inserted, updated: changes.updated, unchanged: changes.unchanged,
                     deleted: changes.deleted, withdrawn: withdrawnCount)
    }

    /// Deletes every quake, or those whose origin time is before `date`, without loading rows.
    /// - Returns: the number deleted.
    @discardableResult
    public func deleteQuakes(before date: Date? = nil) throws(SQLiteError) -> Int {
        guard let date else { return try deleteQuakes(where: "1", []) }
        return try deleteQuakes(where: "time < ?", [.integer(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))])
    }

    /// Deletes at most `limit` quakes, the oldest first: every quake, or those whose origin time
    /// is before `date`. A long delete is a series of these, one transaction each
    /// (``BackgroundContext/performInBatches(_:)``), so that what one left behind, killed
    /// between two, is the store as a delete before some earlier time would have left it.
    /// - Returns: the number deleted (fewer than `limit`: there are no more).
    @discardableResult
    public func deleteOldestQuakes(before date: Date? = nil, limit: Int) throws(SQLiteError) -> Int {
        // The time index gives the oldest rows in order; equal times go by id.
        let oldest = "SELECT id FROM quake\(date == nil ? "" : " WHERE time < ?2") ORDER BY time, id LIMIT ?1"
        var arguments: [SQLiteValue] = [.integer(Int64(limit))]
        if let date { arguments.append(.integer(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))) }
        return try deleteQuakes(where: "id IN (\(oldest))", arguments)
    }

    /// Deletes the quakes whose code starts with `prefix` (e.g. the bundled sample's), or with
    /// `keepingNotes` those of them without notes.
    @discardableResult
    public func deleteQuakes(codePrefix prefix: String, keepingNotes: Bool = false) throws(SQLiteError) -> Int {
        // substr rather than LIKE/GLOB: the prefix is literal whatever it contains.
        try deleteQuakes(where: "substr(code, 1, length(?1)) = ?1" + (keepingNotes ? " AND coalesce(notes, '') = ''" : ""),
                         [.text(prefix)])
    }

    private func deleteQuakes(where condition: String, _ arguments: [SQLiteValue]) throws(SQLiteError) -> Int {
        try materializeAllStaged()
        try willDeleteRows()
        let statement = try connection.prepare(
            "DELETE FROM quake WHERE \(condition) RETURNING code, \(RowKeys.columns)\(associates ? ", agencies" : "")")
        try statement.bind(arguments)
        var count = 0
        var shared: [(id: Int64, time: Int64)] = []
        // RETURNING streams the codes one step at a time; the tracker keeps at most
        // `ChangeTracker.bulkThreshold` of them, so memory stays bounded.
        while try statement.step() {
            let old = RowKeys(statement, from: 1)
            changes.record(.delete, code: statement.text(at: 0), old: old)
            if associates, statement.int64(at: 1 + RowKeys.columnCount) > 1 { shared.append((old.id, old.time)) }
            count += 1
        }
        // An event of several agencies goes with its reports; its neighbours may associate anew.
        try deleteReports(ofEvents: shared)
        return count
    }

    /// Deletes one quake by code.
    /// - Returns: false when no quake has that code.
    @discardableResult
    public func deleteQuake(code: String) throws(SQLiteError) -> Bool {
        // A report of an event of several agencies: association rewrites the event without it.
        try materializeStaged(code: code)
        if associates, try deleteReportOfSharedEvent(code: code) { return true }
        try willDeleteRows()
        let statement = try connection.prepare("DELETE FROM quake WHERE code = ? RETURNING \(RowKeys.columns)")
        try statement.bind(code, at: 1)
        guard try statement.step() else { return false }
        changes.record(.delete, code: code, old: RowKeys(statement))
        while try statement.step() {}
        return true
    }

    /// Sets the user-owned notes of a quake (empty text clears them).
    /// - Returns: false when no quake has that code.
    @discardableResult
    public func setNotes(_ text: String, forCode reportCode: String) throws(SQLiteError) -> Bool {
        // Notes belong to the event: any of its reports' codes names it, and a code ComCat merged into it.
        try materializeStaged(code: reportCode)
        var code = associates ? try eventCode(ofReport: reportCode) ?? reportCode : reportCode
        if keepsAliases, code == reportCode, try hasAliases(), let event = try connection.eventCode(naming: reportCode) { code = event }
        let old = try oldKeys(code: code)
        try connection.execute("UPDATE quake SET notes = ? WHERE code = ?", [text.isEmpty ? .null : .text(text), .text(code)])
        guard connection.changes > 0 else { return false }
        changes.record(.update, code: code, old: old)
        return true
    }

    /// Sets `record`'s `keptFields` to those of the stored report of its code (an event's row,
    /// or another report of its event), if there is one. Reads only those columns: a CSV month
    /// re-imported pays one index lookup a row.
    func fillKeptFields(of record: inout QuakeRecord) throws(SQLiteError) {
        let row = try held(.keptFields)
        defer { row.reset() }
        try row.bind(record.code, at: 1)
        if try row.step() { return record.fill(keptFields, from: row) }
        guard try reportsMayExist() else { return }
        let report = try held(.keptReportFields)
        defer { report.reset() }
        try report.bind(record.code, at: 1)
        if try report.step() { record.fill(keptFields, from: report) }
    }

    /// The columns of `QuakeRecord.Fields`, in `fill(_:from:)`'s order.
    static let fillableColumns = "status, type, tsunami, felt, alert, sig, net, url, title, magType, depth"

    func oldKeys(code: String) throws(SQLiteError) -> RowKeys? {
        // Held after the first lookup, like the upsert: an import asks once per row.
        let statement: Statement
        if let oldKeysStatement {
            statement = oldKeysStatement
            statement.reset()
        } else {
            statement = try connection.cachedStatement("SELECT \(RowKeys.columns) FROM quake WHERE code = ?")
            oldKeysStatement = statement
        }
        try statement.bind(code, at: 1)
        return try statement.step() ? RowKeys(statement) : nil
    }

    static let upsertSQL = """
        INSERT INTO quake (code, magnitude, magType, place, time, updated, latitude, longitude, depth,
                           region, regionKey, placeKey, status, type, tsunami, felt, alert, sig, net, url, title, source, id)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)
        ON CONFLICT(code) DO UPDATE SET
            magnitude = excluded.magnitude, magType = excluded.magType, place = excluded.place,
            time = excluded.time, updated = excluded.updated, latitude = excluded.latitude,
            longitude = excluded.longitude, depth = excluded.depth, region = excluded.region,
            regionKey = excluded.regionKey, placeKey = excluded.placeKey, status = excluded.status,
            type = excluded.type, tsunami = excluded.tsunami, felt = excluded.felt, alert = excluded.alert,
            sig = excluded.sig, net = excluded.net, url = excluded.url, title = excluded.title,
            source = excluded.source
        WHERE excluded.updated > quake.updated
           OR (excluded.updated = quake.updated AND (
                quake.magnitude IS NOT excluded.magnitude OR quake.magType IS NOT excluded.magType
             OR quake.place IS NOT excluded.place OR quake.time IS NOT excluded.time
             OR quake.latitude IS NOT excluded.latitude OR quake.longitude IS NOT excluded.longitude
             OR quake.depth IS NOT excluded.depth OR quake.status IS NOT excluded.status
             OR quake.type IS NOT excluded.type OR quake.tsunami IS NOT excluded.tsunami
             OR quake.felt IS NOT excluded.felt OR quake.alert IS NOT excluded.alert
             OR quake.sig IS NOT excluded.sig OR quake.net IS NOT excluded.net
             OR quake.url IS NOT excluded.url OR quake.title IS NOT excluded.title
             OR quake.source IS NOT excluded.source))
        """
}

/// Inserted / updated / unchanged / deleted counts of one write transaction.
public struct UpsertCounts: Sendable, Equatable, Codable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public var deleted = 0
    /// Records whose status was `deleted`, that took a stored report out (`WriteTransaction.withdraw`).
    public var withdrawn = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, deleted: Int = 0, withdrawn: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
        self.withdrawn = withdrawn
    }
}

extension QuakeRecord {
    /// Takes `fields` from a row of `WriteTransaction.fillableColumns`.
    mutating func fill(_ fields: Fields, from s: Statement) {
        if fields.contains(.status) { status = s.optionalText(at: 0) }
        if fields.contains(.type) { type = s.optionalText(at: 1) }
        if fields.contains(.tsunami) { tsunami = s.optionalInt(at: 2) }
        if fields.contains(.felt) { felt = s.optionalInt(at: 3) }
        if fields.contains(.alert) { alert = s.optionalText(at: 4) }
        if fields.contains(.sig) { sig = s.optionalInt(at: 5) }
        if fields.contains(.net) { net = s.optionalText(at: 6) }
        if fields.contains(.url) { url = s.optionalText(at: 7) }
        if fields.contains(.title) { title = s.optionalText(at: 8) }
        if fields.contains(.magType) { magType = s.optionalText(at: 9) }
        if fields.contains(.depth) { depth = s.optionalDouble(at: 10) }
    }
}
