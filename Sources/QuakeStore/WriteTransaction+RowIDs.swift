import QuakeModel

/// A new row's id is larger than every id a reader may have seen: new quakes are the rows above
/// a reader's largest id (`ArrivalCursor`, `forEachArrival`'s row scan, a scene's `●` marks after
/// a relaunch). SQLite gives the largest stored id plus one, so once the rows with the largest ids
/// are deleted (`delete --all`, association dropping an event's row) it would give their ids
/// again, and a store emptied and filled again had no new quakes for a scene left before.
///
/// The largest id before a transaction's first delete is its floor; a commit that leaves the
/// largest stored id below it keeps it in `meta` (`idFloor`). While the floor is above the
/// largest stored id, a new row takes the floor plus one, and SQLite's own rule serves from then
/// on. A transaction that deletes nothing and finds no floor above its rows pays nothing.
extension WriteTransaction {
    /// The id to bind for a new row: nil (SQLite's) unless staged rows or the floor decide it.
    func newRowID() throws(SQLiteError) -> SQLiteValue {
        if staged.isEmpty, try !floorIsAboveStoredRows() { return .null }
        let id = try nextRowID()
        rowIDFloor.isAboveStoredRows = false  // the new row is above it
        return .integer(id)
    }

    /// Call before a statement deletes rows of `quake`: what it deletes may be the largest ids.
    func willDeleteRows() throws(SQLiteError) {
        if rowIDFloor.beforeDeletes == nil { rowIDFloor.beforeDeletes = try storedMaxID() }
        rowIDFloor.isAboveStoredRows = nil
    }

    /// The largest id given before: the kept floor, and the largest id before this transaction deleted.
    func rowIDFloorValue() throws(SQLiteError) -> Int64 {
        if rowIDFloor.kept == nil {
            rowIDFloor.kept = try connection.scalar("SELECT value FROM meta WHERE key = 'idFloor'").int64 ?? 0
        }
        return max(rowIDFloor.kept ?? 0, rowIDFloor.beforeDeletes ?? 0)
    }

    /// Keeps the floor for later transactions when this one left the largest stored id below it
    /// (before the commit).
    func keepRowIDFloor() throws(SQLiteError) {
        guard let before = rowIDFloor.beforeDeletes, try storedMaxID() < before else { return }
        try connection.execute("INSERT INTO meta (key, value) VALUES ('idFloor', ?) ON CONFLICT DO UPDATE SET value = max(value, excluded.value)",
                               [.integer(before)])
    }

    private func floorIsAboveStoredRows() throws(SQLiteError) -> Bool {
        if let known = rowIDFloor.isAboveStoredRows { return known }
        let above = try rowIDFloorValue() > storedMaxID()
        rowIDFloor.isAboveStoredRows = above
        return above
    }

    private func storedMaxID() throws(SQLiteError) -> Int64 {
        let maxID = try held(.maxID)
        defer { maxID.reset() }
        return try maxID.step() ? maxID.int64(at: 0) : 0
    }
}

/// What a transaction knows of its row id floor (`WriteTransaction+RowIDs.swift`).
struct RowIDFloor {
    /// `meta.idFloor` once read.
    var kept: Int64?
    /// The largest stored id before the transaction's first delete.
    var beforeDeletes: Int64?
    /// Whether the floor is above every stored id, once asked (nil again after a delete).
    var isAboveStoredRows: Bool?
}
