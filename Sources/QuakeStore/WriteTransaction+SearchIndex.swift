import QuakeModel
/// Bulk imports keep the search index, the section counts and the secondary indexes out of the
/// per-row path.
///
/// The FTS5 trigram index (`quake_fts`) is kept in sync by triggers. Row by row that is slow
/// for a reason beyond tokenizing: every upsert statement closes a statement transaction, and
/// FTS5 flushes its pending terms to a new on-disk segment at each one (its `xSavepoint` /
/// `xRelease` sync the index), so each inserted row writes — and later merges — a segment of
/// its own: 80 µs per row into an empty store, 360 µs per row into 200,000 quakes (callgrind:
/// 65% of a month's import in `sqlite3VtabSavepoint`). Indexing many rows in one statement
/// flushes once per megabyte of terms instead. The section counts' triggers (`quake_count_*`)
/// cost less per row but still ~6 µs, four upserts of `quake_count` with their bucket
/// expressions: a month into 5,000,000 quakes took 703 ms with them, 630 ms without.
///
/// So once an import has inserted a few rows (`shouldDeferRowIndexing`), both sets of triggers
/// are swapped, inside the import's transaction, for ones that only touch rows stored before the
/// switch (id ≤ the mark), and before commit the originals are recreated from their stored SQL
/// and the rows after the mark are indexed and counted in one statement each. The search index
/// appends them (cost ∝ K, the new rows) or, when they outnumber the rows indexed before, is
/// rebuilt from the whole table (https://www.sqlite.org/fts5.html#the_rebuild_command), which
/// leaves one compact index; the counts add the new rows' buckets (`Schema.sectionCountsAdded`).
/// An import into a store that associates catches up only after association
/// (`finishDeferredRowIndexing`): the rows association deletes at once (a second agency's
/// reports that join another agency's events) are then never indexed, counted and taken out.
/// DDL is transactional in SQLite: other connections never see the swapped triggers, and a
/// failed import rolls them back with everything else.
///
/// The secondary indexes (time, magnitude, region, depth, location) are likewise dropped and
/// recreated, one sort each, once the import's inserts outnumber the rows stored before it
/// (always, into an empty store) — what `CREATE INDEX` after a load does for an expert's
/// `sqlite3` load.
extension WriteTransaction {
    /// Rows an import inserts row by row before it defers the search index and the counts, into
    /// a small store. A small import keeps the triggers: swapping them is DDL, which makes every
    /// connection re-read the schema, and into a small store a flush costs microseconds.
    static let searchIndexDeferralMinimum = 64
    /// Into a store of `searchIndexLargeStore` rows or more, each row-by-row flush costs
    /// milliseconds (FTS5 rewrites its structure and merges: 9.4M instructions per flush at
    /// 1M quakes, callgrind), so the switch comes at the second new row.
    static let searchIndexLargeStore = 50_000

    /// Inserted rows before the secondary indexes may be dropped and rebuilt at the end.
    static let secondaryIndexDeferralMinimum = 1_000

    /// How the deferred rows reach the search index and the section counts before commit.
    enum CatchUp: Equatable {
        /// Index and count the rows after the mark, a statement each: cost ∝ the rows this import added.
        case append
        /// Rebuild the whole index and recount from the table: cost ∝ the table, one compact index.
        case rebuild
    }

    /// Whether to stop maintaining the search index and the section counts row by row now,
    /// after `inserted` new rows into a table that held (at most) `rowsBefore`.
    static func shouldDeferRowIndexing(inserted: Int, rowsBefore: Int) -> Bool {
        inserted >= (rowsBefore >= searchIndexLargeStore ? 2 : searchIndexDeferralMinimum)
    }

    /// How to index and count `deferred` rows added after the switch, when `indexedBefore` rows
    /// (at most) were in the index then: rebuild only when the new rows outnumber the old ones,
    /// so the cost always grows with the import (K), not with the store (N).
    static func catchUp(deferred: Int, indexedBefore: Int) -> CatchUp {
        deferred > indexedBefore ? .rebuild : .append
    }

    /// Whether to drop the secondary indexes now, after `inserted` new rows into a table that
    /// held (at most) `rowsBefore`: once the import outnumbers the table, one sort per index at
    /// the end costs less than keeping them row by row.
    static func shouldDeferSecondaryIndexes(inserted: Int, rowsBefore: Int) -> Bool {
        inserted >= max(secondaryIndexDeferralMinimum, rowsBefore)
    }

    /// The per-row triggers a running import set aside (`deferRowIndexing()`).
    struct DeferredRowIndexing {
        /// Rows with a larger id are indexed and counted before commit.
        let mark: Int64
        /// The original triggers' SQL, recreated before commit.
        let triggers: [(name: String, sql: String)]
        /// Whether the count triggers were among them (a bulk load that dropped them first
        /// recounts every row instead, `recreateIndexes(_:)`).
        var countsDeferred: Bool { triggers.contains { $0.name.hasPrefix("quake_count_") } }
        /// Rows inserted after the switch.
        private(set) var deferred = 0
        /// Whether one of them took an id at or below the mark, which only a rebuild indexes and
        /// counts: a new row takes the largest id plus one, so that happens only after the rows
        /// above the mark were deleted (a `fetch` replacing the bundled sample before its rows).
        private(set) var insertedAtOrBelowMark = false

        /// Notes a row the import inserted, with the id it took.
        mutating func noteInserted(id: Int64) {
            deferred += 1
            if id <= mark { insertedAtOrBelowMark = true }
        }
    }

    /// Swaps the search index's and the section counts' triggers for ones limited to rows at or
    /// below the current largest id, for the rest of this transaction.
    func deferRowIndexing() throws(SQLiteError) -> DeferredRowIndexing {
        let mark = try connection.scalar("SELECT coalesce(max(id), 0) FROM quake").int64 ?? 0
        let statement = try connection.prepare("""
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'quake'
                AND (name LIKE 'quake\\_fts\\_%' ESCAPE '\\' OR name LIKE 'quake\\_count\\_%' ESCAPE '\\')
            """)
        var triggers: [(name: String, sql: String)] = []
        while try statement.step() { triggers.append((statement.text(at: 0), statement.text(at: 1))) }
        for trigger in triggers { try connection.execute("DROP TRIGGER \"\(trigger.name)\"") }
        // A row above the mark is indexed at the end with its final text; one at or below it
        // is already in the index and must be kept in step as the originals would. No insert
        // trigger: every row an import inserts takes an id above the mark (SQLite gives a new row
        // the largest id plus one, https://www.sqlite.org/autoinc.html, and the import holds the
        // write lock; `noteInserted` catches the exception), and a trigger that only asked would
        // cost each insert a call (0.2 µs: a second at 5,000,000 quakes).
        try connection.execute("""
            CREATE TRIGGER quake_fts_deferred_delete AFTER DELETE ON quake WHEN old.id <= \(mark) BEGIN
                INSERT INTO quake_fts (quake_fts, rowid, placeKey) VALUES ('delete', old.id, old.placeKey);
            END;
            CREATE TRIGGER quake_fts_deferred_update AFTER UPDATE OF placeKey ON quake
            WHEN old.placeKey IS NOT new.placeKey AND old.id <= \(mark) BEGIN
                INSERT INTO quake_fts (quake_fts, rowid, placeKey) VALUES ('delete', old.id, old.placeKey);
                INSERT INTO quake_fts (rowid, placeKey) VALUES (new.id, new.placeKey);
            END;
            """)
        let deferred = DeferredRowIndexing(mark: mark, triggers: triggers)
        // Named outside `quake_count_*`, so that `dropSecondaryIndexes` leaves them in place.
        if deferred.countsDeferred { try connection.execute(Schema.countTriggers(named: "quake_deferred_count", upTo: mark)) }
        return deferred
    }

    /// Restores the original triggers, and indexes and counts the rows deferred since
    /// `deferRowIndexing()`.
    func catchUpRowIndexing(_ state: DeferredRowIndexing) throws(SQLiteError) {
        try connection.execute("""
            DROP TRIGGER quake_fts_deferred_delete;
            DROP TRIGGER quake_fts_deferred_update;
            """)
        if state.countsDeferred {
            try connection.execute("""
                DROP TRIGGER quake_deferred_count_delete;
                DROP TRIGGER quake_deferred_count_update;
                """)
        }
        for trigger in state.triggers { try connection.execute(trigger.sql) }
        let catchUp = state.insertedAtOrBelowMark ? .rebuild : Self.catchUp(deferred: state.deferred, indexedBefore: Int(state.mark))
        if state.countsDeferred {
            // Adding the new rows' buckets costs ∝ the rows; a recount, ∝ the table, counts over
            // the digest a bulk load rebuilt by now (`recreateIndexes`) and walks the indexes
            // recreated with it instead of sorting millions of regions. SQL groups with SQLite's
            // sorter, so sorts spill to files as for `CREATE INDEX`.
            try connection.withSortsInFiles { () throws(SQLiteError) in
                if catchUp == .rebuild {
                    try SearchDigest.recountSections(connection)
                } else {
                    try connection.execute(Schema.sectionCountsAdded(above: state.mark))
                }
            }
        }
        switch catchUp {
        case .append:
            // Without FTS5's automerge for this one statement: merging the new segments into the
            // existing ones here doubled the append's cost at 1M rows (0.14 s → 0.08 s CPU for a
            // month). Later writes merge them (`automerge` is back), and `crisismerge` bounds
            // how many pile up (https://www.sqlite.org/fts5.html#the_automerge_configuration_option).
            let automerge = try connection.scalar("SELECT v FROM quake_fts_config WHERE k = 'automerge'").int64 ?? 4
            try connection.execute("INSERT INTO quake_fts (quake_fts, rank) VALUES ('automerge', 0)")
            try connection.execute("INSERT INTO quake_fts (rowid, placeKey) SELECT id, placeKey FROM quake WHERE id > ?",
                                   [.integer(state.mark)])
            try connection.execute("INSERT INTO quake_fts (quake_fts, rank) VALUES ('automerge', ?)", [.integer(automerge)])
        case .rebuild:
            try connection.execute("INSERT INTO quake_fts (quake_fts) VALUES ('rebuild')")
        }
    }

    /// Catches up the rows an import left unindexed for association (`pendingRowIndexing`):
    /// before commit, after `associate()` and before the digest's flush, which may recount.
    func finishDeferredRowIndexing() throws(SQLiteError) {
        guard let state = pendingRowIndexing else { return }
        pendingRowIndexing = nil
        try catchUpRowIndexing(state)
    }

    /// Drops the `quake` table's secondary indexes (not the UNIQUE one on `code`, which the
    /// upsert needs, nor a partial one such as `quake_revised`, which new rows stay out of:
    /// rebuilding it read the whole table for none of them), the section counts' triggers
    /// (`quake_count_*`, unless `deferRowIndexing` swapped them already) and the digest's (`quake_digest_*`) for the rest of this
    /// transaction: an import that outnumbers the store rebuilds the digest once instead (see
    /// `recreateIndexes(_:)`), and recounts the sections if it dropped their triggers. Smaller
    /// imports keep the triggers: a month into a million quakes must not pay a recount of the million.
    /// - Returns: their SQL, for `recreateIndexes(_:)`.
    func dropSecondaryIndexes() throws(SQLiteError) -> [(name: String, sql: String)] {
        let statement = try connection.prepare("""
            SELECT name, sql, type FROM sqlite_master WHERE tbl_name = 'quake' AND sql IS NOT NULL
                AND ((type = 'index' AND sql NOT LIKE '% WHERE %') OR (type = 'trigger' AND (name LIKE 'quake\\_count\\_%' ESCAPE '\\'
                                                          OR name LIKE 'quake\\_digest\\_%' ESCAPE '\\')))
            """)
        var dropped: [(name: String, sql: String, type: String)] = []
        while try statement.step() { dropped.append((statement.text(at: 0), statement.text(at: 1), statement.text(at: 2))) }
        for item in dropped { try connection.execute("DROP \(item.type.uppercased()) \"\(item.name)\"") }
        return dropped.map { ($0.name, $0.sql) }
    }

    /// Recreates indexes dropped by `dropSecondaryIndexes()`: one sort of the table each.
    func recreateIndexes(_ indexes: [(name: String, sql: String)]) throws(SQLiteError) {
        try connection.withSortsInFiles { () throws(SQLiteError) in
            for index in indexes { try connection.execute(index.sql) }
            // The digest is built from the rows as the import leaves them.
            if indexes.contains(where: { $0.name.hasPrefix("quake_digest_") }) { try SearchDigest.rebuild(connection) }
            // Then the counts, from the digest when it holds them; after the indexes, so that
            // grouping by region walks `quake_region` instead of sorting.
            if indexes.contains(where: { $0.name.hasPrefix("quake_count_") }) { try SearchDigest.recountSections(connection) }
        }
    }

}

extension Connection {
    /// Runs `body` with SQLite's sorter spilling to temp files. With `temp_store = MEMORY` (an
    /// import's, for its statement journals) the sorter never spills and sorts a whole table in
    /// memory: 104 MB peak for an index at 1M quakes, 86 MB for a recount, 54 MB for the digest's
    /// rebuild. The sorter reads the setting when a statement starts, and the statement journals
    /// stay as the transaction began.
    func withSortsInFiles(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        let tempStore = try scalar("PRAGMA temp_store").int64 ?? 0
        guard tempStore != 0 else { return try body() }
        try execute("PRAGMA temp_store = DEFAULT")
        do {
            try body()
        } catch {
            // The transaction rolls back; the connection keeps its setting for the next one.
            try? execute("PRAGMA temp_store = \(tempStore)")
            throw error
        }
        try execute("PRAGMA temp_store = \(tempStore)")
    }
}
