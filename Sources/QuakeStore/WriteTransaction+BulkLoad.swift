import QuakeModel
/// Loads that span several `upsert(from:)` calls in one transaction (a `fetch` commits many
/// windows at once) and set the indexes aside once for all of them.
extension WriteTransaction {
    /// Indexes set aside by ``deferIndexes()``.
    struct BulkLoad {
        let dropped: [(name: String, sql: String)]
        var rowIndexing: DeferredRowIndexing
    }

    /// Whether ``deferIndexes()`` is in effect.
    public var areIndexesDeferred: Bool { bulkLoad != nil }

    /// Sets the secondary indexes, the section counts' triggers and the search index aside until
    /// ``restoreDeferredIndexes()``, as one large `upsert(from:)` does by itself once it
    /// outnumbers the store: for a caller that knows the rows still to come will. The history
    /// entry becomes a bulk one. Restore before the body of the transaction returns.
    public func deferIndexes() throws(SQLiteError) {
        guard bulkLoad == nil else { return }
        try materializeAllStaged()
        try finishDeferredRowIndexing()
        let dropped = try dropSecondaryIndexes()
        let rowIndexing = try deferRowIndexing()
        bulkLoad = BulkLoad(dropped: dropped, rowIndexing: rowIndexing)
        markBulk()
    }

    /// Recreates what ``deferIndexes()`` set aside and indexes the rows added since.
    public func restoreDeferredIndexes() throws(SQLiteError) {
        guard let load = bulkLoad else { return }
        bulkLoad = nil
        try recreateIndexes(load.dropped)
        try catchUpRowIndexing(load.rowIndexing)
    }
}
