/// Every quake's search and count keys packed into BLOBs of the store, so that a search's match
/// set and section counts come from one pass in C instead of SQLite visiting each row (20–100 ns
/// a row: at 5,000,000 quakes no such count gets under 250 ms; DECISIONS.md, "Counting at
/// 5,000,000 quakes").
///
/// - `quake_digest(chunk, slots)`: the rows with ids `chunk * 4096 ..< (chunk + 1) * 4096`, a
///   24-byte slot each (`DigestSlot`: the folded place as a text id, the depth bucket, the time,
///   the magnitude; a slot of zeros for an id no row has).
/// - `quake_digest_text(id, text)`: the folded places' dictionary. A search tests each distinct
///   place once, then the scan tests a bit per row. Texts no row uses any more stay until the
///   next rebuild; they match nothing a scan counts.
/// - `quake_digest_dirty(id)`: the rows written since the digest last caught up, listed by
///   triggers on `quake`, so no writer can forget one. Every quaketui write patches their slots
///   before it commits (`flush`); a store written by another program (the `sqlite3` shell) keeps
///   the list, and readers count with SQL until quaketui's next write catches up.
/// - `meta.digest`: the slot format's version, set by a full `rebuild`. Without it (a store
///   loaded by `sqlite3`, ids outside 0 ..< 2^28, a column of an unexpected type) readers count
///   with SQL, and writes do not keep the digest.
///
/// A reader trusts the digest only in a snapshot where it is complete (`isCurrent`): the digest
/// and the rows are read in one transaction, so they always agree.
enum SearchDigest {
    /// `meta.digest`'s value for this slot format.
    static let format = 1
    /// The schema version that adds the digest (the migration's index + 1).
    static let schemaVersion = 8

    /// Migration 8's statements (which a store moved back to version 7 by hand can run again).
    static let schema = """
        CREATE TABLE IF NOT EXISTS quake_digest (chunk INTEGER PRIMARY KEY, slots BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS quake_digest_text (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
        CREATE TABLE IF NOT EXISTS quake_digest_dirty (id INTEGER PRIMARY KEY);
        \(triggers)
        """

    /// The triggers that list written rows (named `quake_digest_…`, which bulk loads set aside
    /// with the count triggers and follow with a `rebuild`). An upsert clause, not `OR IGNORE`:
    /// the conflict policy of the statement that fires a trigger overrides its statements'.
    static let triggers = """
        CREATE TRIGGER IF NOT EXISTS quake_digest_insert AFTER INSERT ON quake BEGIN
            INSERT INTO quake_digest_dirty (id) VALUES (new.id) ON CONFLICT (id) DO NOTHING;
        END;
        CREATE TRIGGER IF NOT EXISTS quake_digest_delete AFTER DELETE ON quake BEGIN
            INSERT INTO quake_digest_dirty (id) VALUES (old.id) ON CONFLICT (id) DO NOTHING;
        END;
        CREATE TRIGGER IF NOT EXISTS quake_digest_update AFTER UPDATE OF id, placeKey, time, magnitude, depth ON quake
            WHEN old.id IS NOT new.id OR old.placeKey IS NOT new.placeKey OR old.time IS NOT new.time
                OR old.magnitude IS NOT new.magnitude OR old.depth IS NOT new.depth BEGIN
            INSERT INTO quake_digest_dirty (id) VALUES (old.id), (new.id) ON CONFLICT (id) DO NOTHING;
        END;
        """

    /// Whether the store has the digest's tables (a store of an older schema read as it is does not).
    static func exists(_ db: Connection) throws(SQLiteError) -> Bool {
        try db.scalar("PRAGMA user_version").int64 ?? 0 >= schemaVersion
    }

    /// Whether this snapshot's digest holds every row as the table does.
    static func isCurrent(_ db: Connection) throws(SQLiteError) -> Bool {
        guard try exists(db) else { return false }
        return try db.scalar("""
            SELECT (SELECT value FROM meta WHERE key = 'digest') = ? AND NOT EXISTS (SELECT 1 FROM quake_digest_dirty)
            """, [.integer(Int64(format))]).int64 == 1
    }

    // MARK: Writing

    /// The columns of a row's slot, after `FROM quake q` joined to its text `t`: id, text id, depth
    /// bucket, time, magnitude, and whether the row's types are the ones the slot holds.
    private static let slotColumns = """
        q.id, t.id, \(Schema.depthBucket("q.depth")), q.time, q.magnitude,
        typeof(q.time) = 'integer' AND typeof(q.magnitude) IN ('real', 'integer', 'null')
        """

    /// Builds the digest anew from the table (a bulk load, the migration, a write of too many rows
    /// to patch one by one). A row the slots cannot hold leaves the store without a digest.
    static func rebuild(_ db: Connection) throws(SQLiteError) {
        try db.execute("""
            DELETE FROM quake_digest; DELETE FROM quake_digest_text; DELETE FROM quake_digest_dirty;
            DELETE FROM meta WHERE key = 'digest';
            """)
        guard try idsFit(db) else { return }
        // DISTINCT walks `quake_place` (sorted, covering): a place is looked up once a row below.
        try db.execute("INSERT INTO quake_digest_text (text) SELECT DISTINCT placeKey FROM quake")
        let rows = try db.prepare("SELECT \(slotColumns) FROM quake q CROSS JOIN quake_digest_text t ON t.text = q.placeKey ORDER BY q.id")
        let insert = try db.prepare("INSERT INTO quake_digest (chunk, slots) VALUES (?, ?)")
        var slots = [UInt8](repeating: 0, count: Int(DigestSlot.rowsPerChunk) * DigestSlot.size)
        var chunk: Int64?
        func write() throws(SQLiteError) {
            guard let chunk else { return }
            insert.reset()
            try insert.bind([.integer(chunk), .blob(slots)])
            try insert.step()
        }
        while try rows.step() {
            guard let slot = slot(rows) else {
                try db.execute("DELETE FROM quake_digest; DELETE FROM quake_digest_text")
                return
            }
            let id = rows.int64(at: 0)
            if chunk != id / DigestSlot.rowsPerChunk {
                try write()
                chunk = id / DigestSlot.rowsPerChunk
                for index in slots.indices { slots[index] = 0 }
            }
            slots.withUnsafeMutableBytes { slot.encode(into: $0.baseAddress! + Int(id % DigestSlot.rowsPerChunk) * DigestSlot.size) }
        }
        try write()
        try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('digest', ?)", [.integer(Int64(format))])
    }

    /// The slot of the current row of a `slotColumns` statement (the row's id first); nil for a row the slot cannot
    /// hold as SQL compares it (a time that is not an integer, a magnitude that is not a number).
    private static func slot(_ s: Statement) -> DigestSlot? {
        guard s.int64(at: 5) == 1 else { return nil }
        return DigestSlot(text: UInt32(truncatingIfNeeded: s.int64(at: 1)), depthBucket: Int32(truncatingIfNeeded: s.int64(at: 2)),
                          time: s.int64(at: 3), magnitude: s.optionalDouble(at: 4))
    }

    /// Whether every row id fits a match set (0 ..< 2^28, `MatchSet`), and so a chunk number.
    private static func idsFit(_ db: Connection) throws(SQLiteError) -> Bool {
        let s = try db.prepare("SELECT min(id), max(id) FROM quake")
        _ = try s.step()
        return s.isNull(at: 0) || (s.int64(at: 0) >= 0 && s.int64(at: 1) < MatchSet.idLimit)
    }

    /// Patches the slots of the rows listed dirty, before the write commits (a write of many rows
    /// rebuilds instead). Without a current digest, forgets the list: nothing is kept.
    static func flush(_ db: Connection) throws(SQLiteError) {
        guard try exists(db), try db.scalar("SELECT EXISTS (SELECT 1 FROM quake_digest_dirty)").int64 == 1 else { return }
        guard try db.scalar("SELECT value FROM meta WHERE key = 'digest'").int64 == Int64(format) else {
            try db.execute("DELETE FROM quake_digest_dirty")
            return
        }
        let dirty = try db.scalar("SELECT count(*) FROM quake_digest_dirty").int64 ?? 0
        let stored = try db.scalar("SELECT coalesce(max(id), 0) FROM quake").int64 ?? 0
        guard dirty <= max(Self.patchedRowsAtMost, stored / 16), try idsFit(db) else { return try rebuild(db) }
        try db.execute("""
            INSERT OR IGNORE INTO quake_digest_text (text)
                SELECT q.placeKey FROM quake_digest_dirty d JOIN quake q ON q.id = d.id
            """)
        let rows = try db.prepare("""
            SELECT d.id, \(slotColumns.replacingOccurrences(of: "q.id, ", with: "", options: [], range: nil))
            FROM quake_digest_dirty d LEFT JOIN quake q ON q.id = d.id LEFT JOIN quake_digest_text t ON t.text = q.placeKey
            ORDER BY d.id
            """)
        let writer = BlobWriter(db, table: "quake_digest", column: "slots")
        defer { writer.close() }
        let addChunk = try db.prepare("INSERT OR IGNORE INTO quake_digest (chunk, slots) VALUES (?, zeroblob(?))")
        var chunk: Int64?
        while try rows.step() {
            let id = rows.int64(at: 0)
            let slot: DigestSlot
            if rows.isNull(at: 1) {
                slot = .empty  // deleted, or its id changed
            } else if let found = Self.slot(rows) {
                slot = found
            } else {
                writer.close()
                return try rebuild(db)  // a row it cannot hold: rebuild leaves no digest
            }
            if chunk != id / DigestSlot.rowsPerChunk {
                chunk = id / DigestSlot.rowsPerChunk
                writer.close()  // its handle would expire with the insert
                addChunk.reset()
                try addChunk.bind([.integer(chunk!), .integer(DigestSlot.rowsPerChunk * Int64(DigestSlot.size))])
                try addChunk.step()
            }
            try writer.write(slot, at: Int(id % DigestSlot.rowsPerChunk) * DigestSlot.size, row: chunk!)
        }
        writer.close()
        try db.execute("DELETE FROM quake_digest_dirty")
    }

    // MARK: Reading

    /// Fills `set` with the rows whose folded place holds `search` (`QueryPlan.placeMatches`,
    /// SQL's `instr`), counting those at or above `minimumMagnitude` per bucket of `countingKind`
    /// (0 time, 1 magnitude, 3 depth) into its `bucketCounts`. False, with the set untouched,
    /// when this snapshot's digest is not complete: the caller fills the set with SQL.
    static func fill(_ db: Connection, search: [UInt8], minimumMagnitude: Double?, countingKind: Int?,
                     into set: MatchSet) throws(SQLiteError) -> Bool {
        guard try isCurrent(db) else { return false }
        // Each distinct place is tested once; the scan then tests one bit a row.
        let textCount = (try db.scalar("SELECT coalesce(max(id), 0) FROM quake_digest_text").int64 ?? 0) + 1
        var matching = [UInt64](repeating: 0, count: Int(textCount / 64) + 1)
        let texts = try db.prepare("SELECT id, text FROM quake_digest_text")
        while try texts.step() {
            let id = Int(texts.int64(at: 0))
            guard id < textCount else { continue }  // none: the read is one snapshot
            let matches = texts.withText(at: 1) { text in
                search.withUnsafeBytes { QueryPlan.placeMatches(text, searching: $0) }
            }
            if matches { matching[id / 64] |= 1 << UInt64(id % 64) }
        }
        let query = DigestQuery(matchingTexts: matching, textCount: textCount, minimumMagnitude: minimumMagnitude,
                                countKind: countingKind)
        set.removeAll()
        let chunks = try db.prepare("SELECT chunk, slots FROM quake_digest ORDER BY chunk")
        while try chunks.step() {
            try set.scanDigest(chunks, column: 1, firstId: chunks.int64(at: 0) * DigestSlot.rowsPerChunk, query: query)
        }
        return true
    }

    /// Every row's slot, by id (slots of ids no row has left out), for tests that hold the digest
    /// to the table; nil without a current digest.
    static func slots(_ db: Connection) throws(SQLiteError) -> [Int64: (place: String, slot: DigestSlot)]? {
        guard try isCurrent(db) else { return nil }
        var texts: [UInt32: String] = [:]
        let text = try db.prepare("SELECT id, text FROM quake_digest_text")
        while try text.step() { texts[UInt32(text.int64(at: 0))] = text.text(at: 1) }
        var result: [Int64: (place: String, slot: DigestSlot)] = [:]
        let chunks = try db.prepare("SELECT chunk, slots FROM quake_digest ORDER BY chunk")
        while try chunks.step() {
            let first = chunks.int64(at: 0) * DigestSlot.rowsPerChunk
            chunks.withBlob(at: 1) { bytes in
                for index in 0..<(bytes.count / DigestSlot.size) {
                    let slot = DigestSlot(decoding: bytes.baseAddress! + index * DigestSlot.size)
                    if slot.text != 0 { result[first + Int64(index)] = (texts[slot.text] ?? "?", slot) }
                }
            }
        }
        return result
    }

    /// Past this many written rows (or a sixteenth of the store) a write rebuilds the digest
    /// rather than patch a slot per row: a patch costs a few µs, a rebuild about 0.2 µs a row.
    static let patchedRowsAtMost: Int64 = 4_096
}
