import QuakeModel
/// The statements association, staging and the upsert's lookups run once or more per segment or report, held by the
/// transaction: `Connection.cachedStatement` hashes the SQL text at every call, and a month of
/// another agency's reports into 1,000,000 quakes made ~150,000 such calls (2% of its time,
/// perf, 2026-12-03). They are kept in an array by case: a dictionary's lookup was a third of
/// what handing one out cost. A held statement is reset, its bindings cleared, when handed out,
/// as a cached one is.
extension WriteTransaction {
    enum HeldStatement: Int, CaseIterable {
        case rowsByTime, rowByID, reportsByTime, reportsByEvent, setCode, writeRow, setCount, insertRow
        case putReport, dropReport, extendDown, extendUp, walk, near, storedCode, maxID
        case alias, setAlias, renameAliases, aliasedRow, keptFields, keptReportFields

        var sql: String {
            switch self {
            case .rowsByTime: WriteTransaction.rowsByTimeSQL
            case .rowByID: WriteTransaction.rowByIDSQL
            case .reportsByTime: WriteTransaction.reportsByTimeSQL
            case .reportsByEvent: WriteTransaction.reportsByEventSQL
            case .setCode: "UPDATE quake SET code = ? WHERE id = ?"
            case .writeRow: WriteTransaction.eventRowUpdateSQL
            case .setCount: "UPDATE quake SET agencies = ?1, notes = ?2 WHERE id = ?3"
            case .insertRow: WriteTransaction.eventRowInsertSQL
            case .putReport: WriteTransaction.reportPutSQL
            case .dropReport: "DELETE FROM report WHERE code = ?"
            case .extendDown: WriteTransaction.extendDownSQL
            case .extendUp: WriteTransaction.extendUpSQL
            case .walk: WriteTransaction.walkSQL
            case .near: WriteTransaction.nearAnotherAgencySQL
            case .storedCode: "SELECT 1 FROM quake WHERE code = ?"
            case .maxID: "SELECT coalesce(max(id), 0) FROM quake"
            case .alias: "SELECT code, generated FROM quake_alias WHERE alias = ?"
            case .setAlias: "INSERT OR REPLACE INTO quake_alias (alias, code, generated) VALUES (?, ?, ?)"
            case .renameAliases: "UPDATE quake_alias SET code = ?1 WHERE code = ?2 AND alias <> code"
            case .aliasedRow: "SELECT id, notes, agencies, updated FROM quake WHERE code = ?"
            case .keptFields: "SELECT \(WriteTransaction.fillableColumns) FROM quake WHERE code = ?"
            case .keptReportFields: "SELECT \(WriteTransaction.fillableColumns) FROM report WHERE code = ?"
            }
        }
    }

    /// The statement `which`, prepared on first use in this transaction, reset.
    func held(_ which: HeldStatement) throws(SQLiteError) -> Statement {
        if let statement = heldStatements[which.rawValue] {
            statement.reset()
            return statement
        }
        let statement = try connection.cachedStatement(which.sql)
        heldStatements[which.rawValue] = statement
        return statement
    }
}
