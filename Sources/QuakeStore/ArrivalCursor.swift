/// Where a reader of new quakes stands: the history token it has read through and the largest
/// row id it had seen then. Two integers, so a scene can keep it in its property list.
public struct ArrivalCursor: Hashable, Sendable, Codable {
    public var token: HistoryToken
    public var maxID: Int64

    public init(token: HistoryToken, maxID: Int64) {
        self.token = token
        self.maxID = maxID
    }
}

extension Connection {
    /// The cursor for "now": nothing committed so far counts as arrived.
    public func arrivalCursor() throws(SQLiteError) -> ArrivalCursor {
        ArrivalCursor(token: try currentHistoryToken(), maxID: try scalar("SELECT max(id) FROM quake").int64 ?? 0)
    }

    /// Calls `body` once for every quake inserted after `cursor` that is still stored, oldest
    /// commit first, and returns the cursor to pass next time. Transactions `excludingOrigin`
    /// committed are passed over (their rows still move the cursor on).
    ///
    /// Exact transactions name their inserted codes. A bulk transaction (or history purged
    /// since the cursor) does not, so then every row whose id is above the cursor's counts
    /// (SQLite gives a new row a larger id than any stored one); a quake reported either way is
    /// reported once.
    public func forEachArrival(after cursor: ArrivalCursor, excludingOrigin: String? = nil,
                               _ body: (StoredQuake) throws -> Void) throws -> ArrivalCursor {
        let now = try arrivalCursor()
        guard now.token > cursor.token else { return ArrivalCursor(token: cursor.token, maxID: max(cursor.maxID, now.maxID)) }
        var codes: [String] = []
        var needsRowScan = false
        switch try history(after: cursor.token, excludingOrigin: excludingOrigin) {
        case .expired:
            needsRowScan = true
        case .transactions(let transactions, _):
            for transaction in transactions {
                if transaction.isBulk { needsRowScan = true; continue }
                codes += transaction.changes.lazy.filter { $0.kind == .insert }.map(\.code)
            }
        }
        var seen = Set<String>()
        if needsRowScan {
            let statement = try prepare("SELECT \(StoredQuake.columns) FROM quake WHERE id > ? AND id <= ? ORDER BY id")
            try statement.bind(cursor.maxID, at: 1)
            try statement.bind(now.maxID, at: 2)
            while try statement.step() {
                let quake = StoredQuake(statement)
                seen.insert(quake.record.code)
                try body(quake)
            }
        }
        for code in codes where !seen.contains(code) {
            seen.insert(code)
            if let quake = try quake(code: code) { try body(quake) }
        }
        return now
    }
}
