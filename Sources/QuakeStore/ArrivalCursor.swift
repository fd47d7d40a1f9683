import QuakeModel

/// Writes that mark nothing new: one process's commits (the download that replaced the bundled
/// sample, `SampleCatalogue.replacement`) and the rows they stored, every id up to
/// `rowsThroughID`. A row scan (past the listed changes) starts above that id, so those rows are
/// not counted there either.
public struct ExcludedWrites: Sendable, Equatable {
    public var origin: String
    public var rowsThroughID: Int64

    public init(origin: String, rowsThroughID: Int64) {
        (self.origin, self.rowsThroughID) = (origin, rowsThroughID)
    }
}

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
    /// commit first (or, `byTime`, oldest quake first), and returns the cursor to pass next time.
    /// Transactions `excluding`'s origin committed are passed over (their rows still move the
    /// cursor on), and so are the rows they stored when the rows are scanned.
    ///
    /// Exact transactions name their inserted codes, up to `listingAtMost` changes after the
    /// cursor: past that, or for a bulk transaction (or history purged since the cursor), the
    /// codes are not listed (in memory: a scene left before a `fetch` of decades would list
    /// millions), so then every row whose id is above the cursor's counts
    /// (a new row's id is larger than any given before: `WriteTransaction+RowIDs.swift`); a quake reported either way is
    /// reported once. `byTime` sorts the row scan in SQL (any size) and the named codes in memory
    /// (at most what the history lists), and merges the two.
    public func forEachArrival(after cursor: ArrivalCursor, excluding excluded: ExcludedWrites? = nil, byTime: Bool = false,
                               listingAtMost limit: Int = Connection.maxListedArrivals,
                               _ body: (StoredQuake) throws -> Void) throws -> ArrivalCursor {
        try forEachArrival(after: cursor, excluding: excluded, byTime: byTime, listingAtMost: limit,
                           agencyChanges: false) { quake, _ in try body(quake) }
    }

    /// `forEachArrival`, and with `agencyChanges` (what `watch` prints) also every event stored
    /// before `cursor` whose agencies changed since (a report of another agency joined it or
    /// one left: the count differs, or the event shows another report's code), with what it
    /// showed then (`EarlierEvent`); an arrival has none. From the history's listed changes
    /// (`HistoryChange.oldAgencies`): the changes a row scan stands for are arrivals only.
    public func forEachArrival(after cursor: ArrivalCursor, excluding excluded: ExcludedWrites? = nil, byTime: Bool = false,
                               listingAtMost limit: Int = Connection.maxListedArrivals, agencyChanges: Bool,
                               _ body: (StoredQuake, EarlierEvent?) throws -> Void) throws -> ArrivalCursor {
        let now = try arrivalCursor()
        guard now.token > cursor.token else { return ArrivalCursor(token: cursor.token, maxID: max(cursor.maxID, now.maxID)) }
        var codes: [String] = []
        var needsRowScan = false
        var changes = ListedChanges()
        switch try history(after: cursor.token, excludingOrigin: excluded?.origin, listingAtMost: limit) {
        case .expired:
            needsRowScan = true
        case .transactions(let transactions, _):
            for transaction in transactions {
                if !transaction.isListed { needsRowScan = true; continue }
                codes += transaction.changes.lazy.filter { $0.kind == .insert }.map(\.code)
                if agencyChanges { for change in transaction.changes { changes.add(change) } }
            }
        }
        changes.finish(cursor: cursor)
        // Inserted codes to report as arrivals, and codes of events stored at the cursor that
        // association rewrote (updated, or taken away and brought back), in history order.
        let returned = codes.filter { changes.returned($0, cursor: cursor) }
        if !returned.isEmpty { codes.removeAll { changes.returned($0, cursor: cursor) } }
        let rewritten = changes.updated + returned
        // What a listed quake showed at the cursor, when it is an event stored then (an arrival:
        // under another code; a rewritten one: with another count).
        func earlier(_ quake: StoredQuake, inserted: Bool) throws -> EarlierEvent? {
            inserted ? try changes.earlier(ofArrival: quake, on: self)
                : try changes.earlier(ofUpdated: quake, on: self, cursor: cursor)
        }
        // The rows the row scan reports: inserted above the cursor's id, and above the excluded
        // writes' rows.
        let scanFloor = max(cursor.maxID, excluded?.rowsThroughID ?? 0)
        func scanned(_ quake: StoredQuake) -> Bool { needsRowScan && quake.id > scanFloor && quake.id <= now.maxID }
        // Named quakes the row scan does not reach (a reused id at or below the cursor's), in order.
        var listed: [(quake: StoredQuake, earlier: EarlierEvent?)] = []
        var seen = Set<String>(), seenIDs = Set<Int64>()
        // An inserted code still stored as a row: not one a later commit deleted (its code may now
        // be a report of another event, which `quake(code:)` would answer with).
        func arrived(_ code: String) throws -> StoredQuake? {
            guard changes.lastKind[code] != .delete, let quake = try quake(code: code), quake.record.code == code else {
                return nil
            }
            return quake
        }
        if byTime {
            for code in codes where seen.insert(code).inserted {
                guard let quake = try arrived(code), !scanned(quake), seenIDs.insert(quake.id).inserted else { continue }
                listed.append((quake, try earlier(quake, inserted: true)))
            }
            for code in rewritten where !seen.contains(code) {
                guard let quake = try arrived(code), !scanned(quake), seenIDs.insert(quake.id).inserted,
                      let before = try earlier(quake, inserted: false) else { continue }
                listed.append((quake, before))
            }
            listed.sort { ($0.quake.record.time, $0.quake.record.code) < ($1.quake.record.time, $1.quake.record.code) }
        }
        var next = 0
        if needsRowScan {
            let order = byTime ? "time, code" : "id"
            let statement = try prepare("SELECT \(StoredQuake.columns) FROM quake WHERE id > ? AND id <= ? ORDER BY \(order)")
            try statement.bind(scanFloor, at: 1)
            try statement.bind(now.maxID, at: 2)
            while try statement.step() {
                let quake = StoredQuake(statement)
                while next < listed.count,
                      (listed[next].quake.record.time, listed[next].quake.record.code) < (quake.record.time, quake.record.code) {
                    try body(listed[next].quake, listed[next].earlier)
                    next += 1
                }
                seen.insert(quake.record.code)
                seenIDs.insert(quake.id)
                try body(quake, nil)
            }
        }
        for entry in listed[next...] { try body(entry.quake, entry.earlier) }
        guard !byTime else { return now }
        for code in codes where !seen.contains(code) {
            seen.insert(code)
            if let quake = try arrived(code), seenIDs.insert(quake.id).inserted { try body(quake, try earlier(quake, inserted: true)) }
        }
        for code in rewritten where !seen.contains(code) {
            if let quake = try arrived(code), seenIDs.insert(quake.id).inserted, let before = try earlier(quake, inserted: false) {
                try body(quake, before)
            }
        }
        return now
    }
}

/// The listed changes after a cursor, per code: what `forEachArrival` needs to tell an event
/// whose agencies changed from a new one.
private struct ListedChanges {
    /// Each changed code's first change after the cursor (how it stood then).
    private var first: [String: HistoryChange] = [:]
    /// Each changed code's last change.
    private(set) var lastKind: [String: HistoryChange.Kind] = [:]
    /// The agency count each event had before association first rewrote it after the cursor.
    private var agencies: [String: Int] = [:]
    /// Codes association updated, in history order, once each.
    private(set) var updated: [String] = []
    private var updatedSet = Set<String>()
    /// The events stored at the cursor whose rows association took away since (`finish`), and
    /// the same by the id their row had, in code order.
    private var gone = Set<String>()
    private var goneByID: [Int64: [String]] = [:]

    mutating func add(_ change: HistoryChange) {
        if first[change.code] == nil { first[change.code] = change }
        lastKind[change.code] = change.kind
        if agencies[change.code] == nil, let count = change.oldAgencies { agencies[change.code] = count }
        if change.kind == .update, agencies[change.code] != nil, updatedSet.insert(change.code).inserted {
            updated.append(change.code)
        }
    }

    /// Called once every change is added.
    mutating func finish(cursor: ArrivalCursor) {
        gone = []
        for (code, kind) in lastKind where kind == .delete && agencies[code] != nil && existedBefore(code, cursor: cursor) {
            gone.insert(code)
        }
        goneByID = Dictionary(grouping: gone.sorted()) { first[$0]?.old?.id ?? -1 }
    }

    /// Whether `code` was a stored row at the cursor: its first change since is no insert, of a
    /// row the cursor had seen.
    func existedBefore(_ code: String, cursor: ArrivalCursor) -> Bool {
        guard let change = first[code], change.kind != .insert, let old = change.old else { return false }
        return old.id <= cursor.maxID
    }

    /// Whether an inserted `code` is an event association took away and brought back since the
    /// cursor: not an arrival, an event whose agencies may have changed.
    func returned(_ code: String, cursor: ArrivalCursor) -> Bool {
        agencies[code] != nil && existedBefore(code, cursor: cursor)
    }

    /// The event stored at the cursor that an arriving row now shows under another code: a row
    /// association took away since, whose code is one of this event's reports now, or whose row
    /// now shows this report (within the association window of it).
    func earlier(ofArrival quake: StoredQuake, on db: Connection) throws(SQLiteError) -> EarlierEvent? {
        guard !gone.isEmpty else { return nil }
        func event(_ code: String) -> EarlierEvent? { agencies[code].map { EarlierEvent(code: code, agencies: $0) } }
        if let same = goneByID[quake.id]?.first(where: { code in
            guard let old = first[code]?.old else { return false }
            return (Association.gap(old.time, quake.record.time) ?? .max) <= Association.window
        }) {
            return event(same)
        }
        return try db.reports(ofEvent: quake.record.code).lazy.map(\.code).first(where: gone.contains).flatMap(event)
    }

    /// What an event stored at the cursor and rewritten by association since showed then, when
    /// the number of agencies that reported it changed (nil when it is as it was).
    func earlier(ofUpdated quake: StoredQuake, on db: Connection, cursor: ArrivalCursor) throws(SQLiteError) -> EarlierEvent? {
        let code = quake.record.code
        guard existedBefore(code, cursor: cursor), let before = agencies[code],
              try db.agencies(ofEvent: code) != before else { return nil }
        return EarlierEvent(code: code, agencies: before)
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
