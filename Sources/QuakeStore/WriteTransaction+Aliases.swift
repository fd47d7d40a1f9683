import QuakeModel
/// One earthquake that ComCat published under two codes, then merged (``ComCatAliases``).
///
/// **The rule.** A ComCat feature lists in its `ids` every code that names its event. Each
/// other code is kept in `quake_alias` with the event's code and the time the download was
/// generated. A stored quake whose code is an alias is merged into the event it names: its
/// notes go to that event, and the quake goes (a change every browser shows). A newer download
/// decides over an older one, whichever was imported first:
///
/// - an older download's record of an alias is an older view of the event it was merged into,
///   counted as unchanged and not stored;
/// - a newer download that lists the alias as an event of its own takes the alias back (ComCat
///   split them, or made it the preferred code again), and stores it; the table keeps that the
///   code is an event as of that download (a row naming itself), so an older download's alias
///   of it is not taken again;
/// - a download that does not say when it was generated (a CSV, a file without
///   `metadata.generated`) is older than every one that does; of two as old, the alias stands.
///
/// A newer download imported *before* an older one that merged the code is known by the record it
/// stored: one updated after the older download was generated comes from a newer download, which
/// listed it as an event. One not updated since leaves nothing that says so (the store does not
/// keep when each quake was last listed), and the older merge merges it.
///
/// So importing `all_week-2020-06-10` (which lists `us6000a6su` among the ids of `nn00743624`)
/// and the FDSN query of the week before (which still has `us6000a6su` apart) leaves one quake,
/// `nn00743624`, in either order. Any code names its event: `Connection.quake(code:)` follows
/// an alias.
extension WriteTransaction {
    /// Applies what a download said about its events' other codes: keeps its aliases, merges the
    /// stored quakes they name into their events, and decides the records of this download that
    /// are aliases (see above). Call it after the download's records are upserted, before the commit.
    /// - Returns: how many quakes stored before were merged into another.
    @discardableResult
    public func mergeComCatAliases(_ download: ComCatAliases) throws(SQLiteError) -> Int {
        guard keepsAliases else { return 0 }
        let listed = listedAliases
        listedAliases = []
        guard !download.aliases.isEmpty || !listed.isEmpty else { return 0 }
        let generated = download.generated
        var merged = 0
        // The feature's own alias row, read once for its several ids (they come together).
        var feature: (code: String, held: (code: String, generated: Int64?)?)?
        for pair in download.aliases where pair.alias != pair.code {
            // A newer download said otherwise.
            if let held = try alias(pair.alias), ComCatAliases.isNewer(held.generated, than: generated) { continue }
            var event = pair.code
            if feature?.code != pair.code { feature = (pair.code, try alias(pair.code)) }
            if let held = feature?.held, held.code != pair.code {
                if ComCatAliases.isNewer(generated, than: held.generated) {
                    // This download, newer, lists the feature as an event.
                    try keepAsEvent(pair.code, generated)
                    feature?.held = (pair.code, generated)
                } else {
                    // The feature was merged into another event by a download as new or newer
                    // (as for the records below): that event is this one.
                    event = held.code
                }
            }
            guard event != pair.alias else { continue }
            // A stored record of the alias updated after this download was generated comes from a
            // newer download, which listed it as an event of its own: this merge is older than that.
            let stored = try storedRow(pair.alias)
            if let generated, let stored, stored.updated > generated {
                try keepAsEvent(pair.alias, stored.updated)
                continue
            }
            try setAlias(pair.alias, event: event, generated: generated)
            // Codes that named the alias name its event now: the table stays one step deep.
            let rename = try held(.renameAliases)
            try rename.bind([.text(event), .text(pair.alias)])
            while try rename.step() {}
            if try merge(pair.alias, into: event, stored: stored) { merged += 1 }
        }
        // Records of this download whose code was an alias before it: an older view of the event
        // it names, or (this download newer) an event again.
        for code in listed {
            guard let held = try alias(code), held.code != code else { continue }
            if ComCatAliases.isNewer(generated, than: held.generated) {
                try keepAsEvent(code, generated)
            } else if try merge(code, into: held.code, stored: storedRow(code)) {
                merged += 1
            }
        }
        mergedCount += merged
        return merged
    }

    /// Whether `code` has a row: an alias, or a code kept as an event of its own (read per upserted
    /// record while the store keeps any).
    func isAlias(_ code: String) throws(SQLiteError) -> Bool { try alias(code) != nil }

    /// Whether the store keeps any alias: read once per transaction.
    func hasAliases() throws(SQLiteError) -> Bool {
        if let known = knownHasAliases { return known }
        var has = false
        if keepsAliases { has = try connection.scalar("SELECT EXISTS (SELECT 1 FROM quake_alias)").int64 != 0 }
        knownHasAliases = has
        return has
    }

    /// The event `code` is an alias of, and when the download that said so was generated.
    private func alias(_ code: String) throws(SQLiteError) -> (code: String, generated: Int64?)? {
        let statement = try held(.alias)
        try statement.bind(code, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return (statement.text(at: 0), statement.isNull(at: 1) ? nil : statement.int64(at: 1))
    }

    private func setAlias(_ alias: String, event: String, generated: Int64?) throws(SQLiteError) {
        let statement = try held(.setAlias)
        try statement.bind([.text(alias), .text(event), generated.map { .integer($0) } ?? .null])
        while try statement.step() {}
        knownHasAliases = true
    }

    /// Keeps that a download generated at `generated` lists `code` as an event of its own (a row
    /// naming itself), so that an older download's alias of it is not taken again.
    private func keepAsEvent(_ code: String, _ generated: Int64?) throws(SQLiteError) {
        try setAlias(code, event: code, generated: generated)
    }

    /// What merging reads of the row stored under a code.
    struct StoredRow {
        var id: Int64, notes: String, agencies: Int64, updated: Int64
    }

    /// The row stored under `code` (a staged report's written first), nil when there is none.
    private func storedRow(_ code: String) throws(SQLiteError) -> StoredRow? {
        try materializeStaged(code: code)
        let row = try held(.aliasedRow)
        try row.bind(code, at: 1)
        defer { row.reset() }
        guard try row.step() else { return nil }
        return StoredRow(id: row.int64(at: 0), notes: row.isNull(at: 1) ? "" : row.text(at: 1), agencies: row.int64(at: 2),
                         updated: row.int64(at: 3))
    }

    /// Merges the stored quake `code` (its row `stored`) into the event `target` (its alias names): a lone event's notes go to
    /// that event, and the quake goes. A record of this transaction (an older view of the event)
    /// is counted as unchanged, not as new. True when a quake stored before goes; false: nothing
    /// stored under `code`, no event to merge it into (it stays until one is stored), a report of
    /// an event of several (the event stays), or the record was this transaction's.
    private func merge(_ code: String, into target: String, stored: StoredRow?) throws(SQLiteError) -> Bool {
        if stored == nil {
            // A report of an event of several, or nothing stored under the code.
            guard try reportsMayExist(), try eventCode(ofReport: code) != nil else { return false }
        }
        guard let event = try connection.quake(code: target), event.record.code != code else { return false }
        // An event of several keeps its notes with the report that goes on in it.
        if let stored, !stored.notes.isEmpty, stored.agencies == 1 {
            let kept = event.notes ?? ""
            try setNotes(kept.isEmpty ? stored.notes : kept + "\n\n" + stored.notes, forCode: event.record.code)
        }
        guard try deleteQuake(code: code) else { return false }
        // A report of an event of several is no quake of its own: the event stays.
        guard let stored else { return false }
        if stored.id >= (firstInsertedID ?? .max) {
            changes.takeBackInsert()
            return false
        }
        return true
    }
}
