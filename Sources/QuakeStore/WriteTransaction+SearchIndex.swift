/// Bulk imports build the search index once, at the end, instead of row by row.
///
/// The FTS5 trigram index (`quake_fts`) is kept in sync by triggers. Row by row it costs about
/// 80 µs per quake on the 2-core benchmark machine, most of an import's time; FTS5's `rebuild`
/// command indexes the whole table in about 4.4 µs per row
/// (https://www.sqlite.org/fts5.html#the_rebuild_command). So once an import is large both
/// in absolute terms and relative to the table, the triggers are dropped inside the import's
/// transaction and recreated, from their own stored SQL, before it commits, followed by one
/// `rebuild`. The section counts (`quake_count`, see `SectionCounts`) are kept by triggers
/// too, three small upserts per row; the same switch drops them and recounts with three
/// `GROUP BY`s before the commit. DDL is transactional in SQLite: other connections never see the store without its
/// triggers, and a failed import rolls the triggers back with everything else.
extension WriteTransaction {
    /// Rows upserted before the import may switch to one rebuild at the end. The switch also
    /// waits until the import is a quarter of the rows stored before it, so that the rebuild,
    /// which reads every row, costs less than the triggers it saves.
    /// (Small: against an empty table even a 2,000-row import rebuilds faster than its triggers.)
    static let searchIndexDeferralMinimum = 1_000

    /// Whether to stop maintaining the search index row by row now, after `seen` rows of an
    /// import into a table that held `rowsBefore`.
    static func shouldDeferSearchIndex(seen: Int, rowsBefore: Int) -> Bool {
        seen >= max(searchIndexDeferralMinimum, rowsBefore / 4)
    }

    /// Drops the search index's and the section counts' triggers for the rest of this transaction.
    /// - Returns: their SQL, for `rebuildSearchIndex(restoring:)`.
    func suspendSearchIndexTriggers() throws(SQLiteError) -> [String] {
        let statement = try connection.prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'quake' AND (name LIKE 'quake\\_fts\\_%' ESCAPE '\\' OR name LIKE 'quake\\_count\\_%' ESCAPE '\\')")
        var triggers: [(name: String, sql: String)] = []
        while try statement.step() { triggers.append((statement.text(at: 0), statement.text(at: 1))) }
        for trigger in triggers { try connection.execute("DROP TRIGGER \"\(trigger.name)\"") }
        return triggers.map(\.sql)
    }

    /// Recreates the triggers, rebuilds the search index and recounts the sections from the `quake` table.
    func rebuildSearchIndex(restoring triggers: [String]) throws(SQLiteError) {
        for sql in triggers { try connection.execute(sql) }
        try connection.execute("INSERT INTO quake_fts (quake_fts) VALUES ('rebuild')")
        try connection.execute(Schema.sectionCountRecount)
    }
}
