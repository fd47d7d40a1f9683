import QuakeModel
extension Connection {
    /// The most changes after a cursor whose codes `forEachArrival` lists (a few hundred KB);
    /// past it the rows above the cursor's id are scanned instead. 25 months imported after a
    /// scene's cursor (314,000 listed codes) took its browser's launch from 38 MB to 78 MB.
    public static let maxListedArrivals = 10_000

    /// The cursor for "now": nothing committed so far counts as arrived.
    public func arrivalCursor() throws(SQLiteError) -> ArrivalCursor {
        ArrivalCursor(token: try currentHistoryToken(), maxID: try scalar("SELECT max(id) FROM quake").int64 ?? 0)
    }

    /// Calls `body` once for every quake inserted after `cursor` that is still stored, oldest
    /// commit first (or, `byTime`, oldest quake first: what `watch` prints), and returns the
    /// cursor to pass next time. Transactions `excludingOrigin` committed are passed over (their
    /// rows still move the cursor on).
    ///
    /// Exact transactions name their inserted codes, up to `listingAtMost` changes after the
    /// cursor: past that, or for a bulk transaction (or history purged since the cursor), the
    /// codes are not listed (in memory: a scene left before a `fetch` of decades would list
    /// millions), so then every row whose id is above the cursor's counts
    /// (SQLite gives a new row a larger id than any stored one); a quake reported either way is
    /// reported once. `byTime` sorts the row scan in SQL (any size) and the named codes in memory
    /// (at most what the history lists), and merges the two.
    public func forEachArrival(after cursor: ArrivalCursor, excludingOrigin: String? = nil, byTime: Bool = false,
                               listingAtMost limit: Int = Connection.maxListedArrivals,
                               _ body: (StoredQuake) throws -> Void) throws -> ArrivalCursor {
        let now = try arrivalCursor()
        guard now.token > cursor.token else { return ArrivalCursor(token: cursor.token, maxID: max(cursor.maxID, now.maxID)) }
        var codes: [String] = []
        var needsRowScan = false
        switch try history(after: cursor.token, excludingOrigin: excludingOrigin, listingAtMost: limit) {
        case .expired:
            needsRowScan = true
        case .transactions(let transactions, _):
            for transaction in transactions {
                if !transaction.isListed { needsRowScan = true; continue }
                codes += transaction.changes.lazy.filter { $0.kind == .insert }.map(\.code)
            }
        }
        // Named quakes the row scan does not reach (a reused id at or below the cursor's), in order.
        var listed: [StoredQuake] = []
        var seen = Set<String>()
        if byTime {
            for code in codes where seen.insert(code).inserted {
                guard let quake = try quake(code: code) else { continue }
                if !needsRowScan || quake.id <= cursor.maxID || quake.id > now.maxID { listed.append(quake) }
            }
            listed.sort { ($0.record.time, $0.record.code) < ($1.record.time, $1.record.code) }
        }
        var next = 0
        if needsRowScan {
            let order = byTime ? "time, code" : "id"
            let statement = try prepare("SELECT \(StoredQuake.columns) FROM quake WHERE id > ? AND id <= ? ORDER BY \(order)")
            try statement.bind(cursor.maxID, at: 1)
            try statement.bind(now.maxID, at: 2)
            while try statement.step() {
                let quake = StoredQuake(statement)
                while next < listed.count, (listed[next].record.time, listed[next].record.code) < (quake.record.time, quake.record.code) {
                    try body(listed[next])
                    next += 1
                }
                seen.insert(quake.record.code)
                try body(quake)
            }
        }
        for quake in listed[next...] { try body(quake) }
        guard !byTime else { return now }
        for code in codes where !seen.contains(code) {
            seen.insert(code)
            if let quake = try quake(code: code) { try body(quake) }
        }
        return now
    }
}

extension Connection {
    /// Of `codes`, those no longer stored (deleted since a reader last saw them).
    public func codesNotStored(_ codes: some Sequence<String>) throws(SQLiteError) -> Set<String> {
        let statement = try cachedStatement("SELECT 1 FROM quake WHERE code = ?")
        var gone: Set<String> = []
        for code in codes {
            statement.reset()
            try statement.bind(code, at: 1)
            if try !statement.step() { gone.insert(code) }
        }
        statement.reset()
        return gone
    }

    /// How many stored rows have an id of at least `id`: the quakes inserted since the row `id`
    /// was (SQLite gives a new row a larger id than any stored one).
    public func rowCount(fromID id: Int64) throws(SQLiteError) -> Int {
        Int(try scalar("SELECT count(*) FROM quake WHERE id >= ?", [.integer(id)]).int64 ?? 0)
    }
}
