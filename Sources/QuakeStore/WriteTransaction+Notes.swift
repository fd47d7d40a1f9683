import QuakeModel
extension WriteTransaction {
    /// The notes of a quake as this transaction sees them ("" for none), or nil when no quake
    /// has that code: read in the same transaction as a `setNotes`, a check-and-set that no
    /// other pane's save can slip between.
    public func notes(forCode code: String) throws(SQLiteError) -> String? {
        try materializeStaged(code: code)
        guard try connection.scalar("SELECT 1 FROM quake WHERE code = ?", [.text(code)]).int64 != nil else { return nil }
        return try connection.scalar("SELECT notes FROM quake WHERE code = ?", [.text(code)]).string ?? ""
    }
}
