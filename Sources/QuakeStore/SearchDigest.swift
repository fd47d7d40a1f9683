import QuakeModel
import Foundation

/// Every quake's search, count, map and statistics keys packed into BLOBs of the store, so that
/// a search's match set and section counts, the map's cells and the statistics come from one pass
/// in C instead of SQLite visiting each row (20–100 ns a row: at 5,000,000 quakes no such count
/// gets under 250 ms; DECISIONS.md, "Counting at 5,000,000 quakes").
///
/// - `quake_digest`, `quake_digest_location`, `quake_digest_detail` (`parts`), each `(chunk,
///   slots)`: the rows with ids `chunk * 4096 ..< (chunk + 1) * 4096`, a slot each (CQuakeSQL.h:
///   the folded place as a text id, the depth bucket, the time, the magnitude; the latitude and
///   longitude; the depth, the region as a text id and the kind), zeros for an id no row has. A
///   pass reads only the parts it needs.
/// - `quake_digest_kind(id, magType, source, network, rows)`: each distinct kind of row: its
///   `magType` (`''` for none), `source` (`'usgs'` for none) and, for ComCat's rows, the network
///   that contributed it (`network`, schema 23; `''` for any other agency), ids from 1: the
///   statistics' magnitude types and agencies (format 4, issue 54). A rebuild fills it; writes add
///   kinds no row had. `rows` (schema 19) counts the slots of the kind, kept with every slot
///   written; 0 once its rows are gone (a kind stays until the next rebuild), NULL where not counted.
/// - `quake_digest_text(id, text)`: the dictionary of folded places and regions, ids from 1 without
///   gaps. A search tests each distinct place once, then the scan tests a bit per row. Texts no row
///   uses any more stay until the next rebuild; they match nothing a pass takes.
/// - `quake_digest_names(chunk, texts)`: the same texts packed 4,096 ids a BLOB, which a search
///   reads in one pass in C (CQuakeSQL.h, `quaketui_digest_match_names`): a real catalogue of
///   5,000,000 quakes has a million distinct places or more, which SQLite takes 0.15 s to step through.
/// - `quake_digest_dirty(id)`: the rows written since the digest last caught up, listed by
///   triggers on `quake`, so no writer can forget one. Every quaketui write patches their slots
///   before it commits (`flush`); a store written by another program (the `sqlite3` shell) keeps
///   the list, and readers use SQL until quaketui's next write catches up.
/// - `meta.digest`: the slot format's version, set by a full `rebuild`; 0 when a row cannot be
///   held (an id outside 0 ..< 2^28, a column of an unexpected type). Without a current one
///   readers use SQL, and writes do not keep the digest. Opening a store without one (loaded by
///   the `sqlite3` shell) or with another format builds it (`isStale`).
///
/// A reader trusts the digest only in a snapshot where it is complete (`isCurrent`): the digest
/// and the rows are read in one transaction, so they always agree.
enum SearchDigest {
    /// `meta.digest`'s value for this slot format: 6 since a slot's kind names ComCat's network
    /// (schema 23); 5 since its depth band was the band of the depth as shown (schema 21, `DepthBins`).
    static let format = 6
    /// The tables of the parts, in CQuakeSQL's part order.
    static let parts = ["quake_digest", "quake_digest_location", "quake_digest_detail"]
    /// The schema version that adds the digest (the migration's index + 1).
    static let schemaVersion = 8

    /// Migration 8's statements (which a store moved back to version 7 by hand can run again).
    static let schema = """
        CREATE TABLE IF NOT EXISTS quake_digest (chunk INTEGER PRIMARY KEY, slots BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS quake_digest_location (chunk INTEGER PRIMARY KEY, slots BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS quake_digest_detail (chunk INTEGER PRIMARY KEY, slots BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS quake_digest_text (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
        CREATE TABLE IF NOT EXISTS quake_digest_names (chunk INTEGER PRIMARY KEY, texts BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS quake_digest_dirty (id INTEGER PRIMARY KEY);
        CREATE TABLE IF NOT EXISTS quake_digest_kind (id INTEGER PRIMARY KEY, magType TEXT NOT NULL, source TEXT NOT NULL,
            UNIQUE (magType, source));
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
        CREATE TRIGGER IF NOT EXISTS quake_digest_update AFTER UPDATE OF id, placeKey, time, magnitude, depth, latitude, longitude, region,
                magType, source, net ON quake
            WHEN old.id IS NOT new.id OR old.placeKey IS NOT new.placeKey OR old.time IS NOT new.time
                OR old.magnitude IS NOT new.magnitude OR old.depth IS NOT new.depth OR old.latitude IS NOT new.latitude
                OR old.longitude IS NOT new.longitude OR old.region IS NOT new.region
                OR old.magType IS NOT new.magType OR old.source IS NOT new.source OR old.net IS NOT new.net BEGIN
            INSERT INTO quake_digest_dirty (id) VALUES (old.id), (new.id) ON CONFLICT (id) DO NOTHING;
        END;
        """

    /// Whether the store has the digest's tables (a store of an older schema read as it is does not).
    static func exists(_ db: Connection) throws(SQLiteError) -> Bool {
        try db.hasSchema(schemaVersion)
    }

    /// Whether this snapshot's digest holds every row as the table does.
    static func isCurrent(_ db: Connection) throws(SQLiteError) -> Bool {
        guard try exists(db) else { return false }
        return try db.scalar("""
            SELECT (SELECT value FROM meta WHERE key = 'digest') = ? AND NOT EXISTS (SELECT 1 FROM quake_digest_dirty)
            """, [.integer(Int64(format))]).int64 == 1
    }

    /// What `state(_:)` finds.
    static func state(_ db: Connection) throws(SQLiteError) -> DigestState {
        guard try exists(db) else { return .absent }
        switch try db.scalar("SELECT value FROM meta WHERE key = 'digest'") {
        case .integer(Int64(format)):
            let behind = Int(try db.scalar("SELECT count(*) FROM quake_digest_dirty").int64 ?? 0)
            return behind == 0 ? .current : .behind(rows: behind)
        case .integer(0): return .unheld
        default: return .absent
        }
    }

    // MARK: Writing

    /// A row's slot columns, after its id (column 0, which each statement names: the row's, or the
    /// dirty list's for a row that may be gone) and `FROM quake q` joined to its place's text `t`
    /// and its region's `r`: place id, time, magnitude, latitude, longitude, depth, region id, and
    /// the place and region, whose storage classes `row` checks with the others', then the kind's
    /// type, agency and network. The depth's band and the checks are made in Swift: as SQL
    /// expressions they took 0.9 s a million rows of a rebuild.
    private static let slotColumns = """
        t.id, q.time, q.magnitude, q.latitude, q.longitude, q.depth, r.id, q.placeKey, q.region, ifnull(q.magType, ''), ifnull(q.source, 'usgs'),
        \(network("q"))
        """

    /// The network a row of `table` names for the statistics, as SQL: for ComCat's rows (agency
    /// `usgs`) the network that contributed it, lower-cased (`ak`, `ci`, `nc`, `us`: ComCat merges
    /// some twenty, each with its own local magnitudes), `''` for any other agency's or without one.
    static func network(_ table: String) -> String {
        "CASE WHEN ifnull(\(table).source, 'usgs') = 'usgs' THEN lower(ifnull(\(table).net, '')) ELSE '' END"
    }

    /// The agency the statistics name: a row's network where it has one (`network`), else its agency.
    static func statisticsAgency(source: String, network: String) -> String { network.isEmpty ? source : network }

    /// The row of a `slotColumns` statement's current row; nil for one the slots cannot hold (a
    /// time stored as text compares unlike any integer in SQL, a place stored as a BLOB unlike text).
    private static func row(_ s: Statement, kinds: DigestKinds) throws(SQLiteError) -> DigestRow? {
        func isNumber(_ column: Int32, orNull: Bool) -> Bool {
            switch s.storageClass(at: column) {
            case .integer, .real: true
            case .null: orNull
            case .text, .blob: false
            }
        }
        guard s.storageClass(at: 2) == .integer, isNumber(3, orNull: true), isNumber(4, orNull: false),
              isNumber(5, orNull: false), isNumber(6, orNull: true),
              s.storageClass(at: 8) == .text, s.storageClass(at: 9) == .text else { return nil }
        let depth = s.optionalDouble(at: 6)
        return DigestRow(text: UInt32(truncatingIfNeeded: s.int64(at: 1)), depthBucket: DepthBands.bucket(of: depth),
                         time: s.int64(at: 2), magnitude: s.optionalDouble(at: 3), latitude: s.double(at: 4),
                         longitude: s.double(at: 5), depth: depth, region: UInt32(truncatingIfNeeded: s.int64(at: 7)),
                         kind: try kinds.id(s, magType: 10, source: 11, network: 12))
    }

    /// Builds the digest anew from the table (a bulk load, the migration, a write of too many rows
    /// to patch one by one, a store opened without one). A row the slots cannot hold leaves the
    /// store without a digest, marked so (`meta.digest` 0) that opening it does not try again.
    static func rebuild(_ db: Connection) throws(SQLiteError) {
        // The tables and triggers first: a digest of an older format may lack some (`isStale`), and
        // format 3's update trigger did not list magType and source.
        try db.execute("DROP TRIGGER IF EXISTS quake_digest_update;" + schema)
        try db.execute(parts.map { "DELETE FROM \($0);" }.joined() + """
            DELETE FROM quake_digest_text; DELETE FROM quake_digest_names; DELETE FROM quake_digest_dirty; DELETE FROM quake_digest_kind;
            DELETE FROM meta WHERE key = 'digest';
            """)
        guard try idsFit(db) else { return try markUnheld(db) }
        // The distinct texts first: each is looked up once a row below. GROUP BY sorts them, so the
        // dictionary and its index are written in order (DISTINCT inserts them in row order, at random
        // places in the index: 1.0 s instead of 0.64 at 1,000,000 quakes).
        try db.execute("""
            INSERT INTO quake_digest_text (text) SELECT placeKey FROM quake GROUP BY placeKey;
            INSERT OR IGNORE INTO quake_digest_text (text) SELECT region FROM quake GROUP BY region;
            """)
        try writeNames(db, fromChunk: 0)
        let rows = try db.prepare("""
            SELECT q.id, \(slotColumns) FROM quake q CROSS JOIN quake_digest_text t ON t.text = q.placeKey
                CROSS JOIN quake_digest_text r ON r.text = q.region ORDER BY q.id
            """)
        let inserts = try parts.map { table throws(SQLiteError) in try db.prepare("INSERT INTO \(table) (chunk, slots) VALUES (?, ?)") }
        var buffers = DigestRow.slotSizes.map { [UInt8](repeating: 0, count: Int(DigestRow.rowsPerChunk) * $0) }
        var chunk: Int64?
        let kinds = try DigestKinds(db)
        func write() throws(SQLiteError) {
            guard let chunk else { return }
            for part in parts.indices {
                inserts[part].reset()
                try inserts[part].bind([.integer(chunk), .blob(buffers[part])])
                try inserts[part].step()
            }
        }
        while try rows.step() {
            guard let row = try row(rows, kinds: kinds) else {
                try db.execute(parts.map { "DELETE FROM \($0);" }.joined() + "DELETE FROM quake_digest_text; DELETE FROM quake_digest_names;")
                return try markUnheld(db)
            }
            kinds.count(row.kind, by: 1)
            let id = rows.int64(at: 0)
            if chunk != id / DigestRow.rowsPerChunk {
                try write()
                chunk = id / DigestRow.rowsPerChunk
                for part in parts.indices { buffers[part].withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
            }
            let index = Int(id % DigestRow.rowsPerChunk)
            for part in parts.indices {
                buffers[part].withUnsafeMutableBytes { row.encode(part: part, into: $0.baseAddress! + index * DigestRow.slotSizes[part]) }
            }
        }
        try write()
        try kinds.writeCounts()
        try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('digest', ?)", [.integer(Int64(format))])
    }

    /// Counts each kind's rows (`quake_digest_kind.rows`) from the slots of a digest of this
    /// format (a pass over the detail part: 80 MB at 5,000,000 quakes, once, when a store of an
    /// older schema is opened for writing); a digest of another format or none is left uncounted,
    /// and its rebuild counts them.
    static func countKinds(_ db: Connection) throws(SQLiteError) {
        guard try db.scalar("SELECT value FROM meta WHERE key = 'digest'").int64 == Int64(format) else { return }
        let kinds = try DigestKinds(db)
        try db.execute("UPDATE quake_digest_kind SET rows = 0")
        let details = try db.prepare("SELECT slots FROM \(parts[DigestRow.kindPart])")
        let size = DigestRow.slotSizes[DigestRow.kindPart]
        while try details.step() {
            details.withBlob(at: 0) { slots in
                guard let base = slots.baseAddress else { return }
                for index in 0..<(slots.count / size) { kinds.count(DigestRow.kind(inSlotAt: base + index * size), by: 1) }
            }
        }
        try kinds.writeCounts()
    }

    /// Recounts `quake_count`: the time, magnitude and depth buckets over the digest in C when it
    /// is current in this snapshot (a pass each), the regions and any kind the digest cannot
    /// count (`bucketCounts` is nil) by SQL. `GROUP BY` sorted every row for each of the three:
    /// 4.8 s of a 5,000,000-quake import.
    static func recountSections(_ db: Connection) throws(SQLiteError) {
        var bySQL: Set<Int> = [0, 1, 2, 3]
        if try isCurrent(db) {
            let insert = try db.prepare("INSERT INTO quake_count (kind, bucket, count) VALUES (?, ?, ?)")
            for kind in [0, 1, 3] {
                // One kind's buckets at a time, written as the C array holds them.
                let counted = try scanBuckets(db, kind: kind)
                guard counted.hasBucketCounts else { continue }
                try db.execute("DELETE FROM quake_count WHERE kind = ?", [.integer(Int64(kind))])
                _ = try counted.forEachBucketCount { (bucket, count) throws(SQLiteError) in
                    insert.reset()
                    try insert.bind([.integer(Int64(kind)), .integer(bucket), .integer(Int64(count))])
                    try insert.step()
                }
                bySQL.remove(kind)
            }
        }
        try db.execute(Schema.sectionCountRecount(kinds: bySQL))
    }

    /// Every row counted per bucket of `quake_count`'s `kind` (0 time, 1 magnitude, 3 depth), in
    /// one pass over a current digest, ascending, empty buckets left out; nil when the span of
    /// buckets is too wide to count in memory (`quaketui_buckets`: 15-minute buckets over more
    /// than 60 years). Tests hold `quake_count` to it; `recountSections` writes them one by one.
    static func bucketCounts(_ db: Connection, kind: Int) throws(SQLiteError) -> [(bucket: Int64, count: Int)]? {
        try scanBuckets(db, kind: kind).bucketCounts
    }

    /// A pass over every chunk counting each row in its bucket of `kind`.
    private static func scanBuckets(_ db: Connection, kind: Int) throws(SQLiteError) -> MatchSet {
        let set = MatchSet()
        let query = DigestQuery(matchingTexts: nil, textCount: 0, minimumMagnitude: nil, countKind: kind, filters: [])
        let chunks = try chunks(db, locations: false, details: false)
        while try chunks.step() { try set.scanDigest(chunks, query: query) }
        return set
    }

    /// `meta.digest` of a store holding a row the slots cannot hold: no digest until the next
    /// bulk load rebuilds it (writes meanwhile keep nothing: `flush`).
    private static func markUnheld(_ db: Connection) throws(SQLiteError) {
        try db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('digest', 0)")
    }

    /// Whether opening the store for writing builds its digest: it has none (a store loaded by
    /// the `sqlite3` shell) or one of another slot format (written by an older quaketui).
    static func isStale(_ db: Connection) throws(SQLiteError) -> Bool {
        guard try exists(db) else { return false }
        let stored = try db.scalar("SELECT value FROM meta WHERE key = 'digest'")
        return stored == .null || (stored.int64 != 0 && stored.int64 != Int64(format))
    }

    /// Whether every row id fits a match set (0 ..< 2^28, `MatchSet`), and so a chunk number.
    private static func idsFit(_ db: Connection) throws(SQLiteError) -> Bool {
        // Two statements: SQLite reads min() or max() alone off the rowid's ends, both together by a scan.
        guard let lowest = try db.scalar("SELECT min(id) FROM quake").int64 else { return true }
        guard lowest >= 0 else { return false }
        return try (db.scalar("SELECT max(id) FROM quake").int64 ?? 0) < MatchSet.idLimit
    }

    /// Patches the slots of the rows listed dirty, before the write commits (a write of many rows
    /// rebuilds instead). Without a current digest, forgets the list: nothing is kept.
    /// Its sorts (the texts of the listed rows, or a rebuild's of every row) spill to files, as
    /// an import's `CREATE INDEX` does: a write that rebuilds the digest of a 1M store sorted its
    /// two million texts in memory (54 MB of a month of another agency's import into 1M).
    static func flush(_ db: Connection) throws(SQLiteError) {
        guard try exists(db), try db.scalar("SELECT EXISTS (SELECT 1 FROM quake_digest_dirty)").int64 == 1 else { return }
        try db.withSortsInFiles { () throws(SQLiteError) in try flushListed(db) }
    }

    /// `flush`, once there are listed rows.
    private static func flushListed(_ db: Connection) throws(SQLiteError) {
        guard try db.scalar("SELECT value FROM meta WHERE key = 'digest'").int64 == Int64(format) else {
            try db.execute("DELETE FROM quake_digest_dirty")
            return
        }
        let dirty = try db.scalar("SELECT count(*) FROM quake_digest_dirty").int64 ?? 0
        let stored = try db.scalar("SELECT coalesce(max(id), 0) FROM quake").int64 ?? 0
        guard dirty <= max(Self.patchedRowsAtMost, stored / 16), try idsFit(db) else { return try rebuild(db) }
        // CROSS JOIN: the listed rows first (the planner, without statistics, would scan the
        // place index of every quake and look each up in the list: 0.4 s at 5M). In text order:
        // the dictionary's index is then read and written page after page, not at random.
        let textsBefore = try lastTextID(db)
        try db.execute("""
            INSERT OR IGNORE INTO quake_digest_text (text)
                SELECT q.placeKey FROM quake_digest_dirty d CROSS JOIN quake q ON q.id = d.id
                UNION ALL SELECT q.region FROM quake_digest_dirty d CROSS JOIN quake q ON q.id = d.id
                ORDER BY 1
            """)
        if try lastTextID(db) > textsBefore { try writeNames(db, fromChunk: (textsBefore + 1) / DigestRow.rowsPerChunk) }
        let rows = try db.prepare("""
            SELECT d.id, \(slotColumns)
            FROM quake_digest_dirty d LEFT JOIN quake q ON q.id = d.id LEFT JOIN quake_digest_text t ON t.text = q.placeKey
                LEFT JOIN quake_digest_text r ON r.text = q.region
            ORDER BY d.id
            """)
        let kinds = try DigestKinds(db)
        let writers = parts.indices.map { BlobWriter(db, table: parts[$0], part: $0) }
        defer { for writer in writers { writer.close() } }
        let addChunks = try parts.map { table throws(SQLiteError) in
            try db.prepare("INSERT OR IGNORE INTO \(table) (chunk, slots) VALUES (?, zeroblob(?))")
        }
        let readChunks = try parts.map { table throws(SQLiteError) in try db.prepare("SELECT slots FROM \(table) WHERE chunk = ?") }
        let putChunks = try parts.map { table throws(SQLiteError) in
            try db.prepare("INSERT OR REPLACE INTO \(table) (chunk, slots) VALUES (?, ?)")
        }
        // The rows of one chunk at a time: many (a new chunk of an import) are written as whole
        // BLOBs, a few patched slot by slot (`sqlite3_blob_write`: a page a slot).
        var chunk: Int64 = -1, pending: [(index: Int, row: DigestRow)] = []
        func apply() throws(SQLiteError) {
            guard !pending.isEmpty else { return }
            for part in parts.indices {
                writers[part].close()  // its handle would expire with the inserts below
                if pending.count >= Self.slotsPatchedAtMost {
                    readChunks[part].reset()
                    try readChunks[part].bind(chunk, at: 1)
                    var slots = [UInt8](repeating: 0, count: Int(DigestRow.rowsPerChunk) * DigestRow.slotSizes[part])
                    if try readChunks[part].step() {
                        readChunks[part].withBlob(at: 0) { old in
                            slots.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: old.prefix($0.count))) }
                        }
                    }
                    readChunks[part].reset()
                    slots.withUnsafeMutableBytes { buffer in
                        for (index, row) in pending {
                            let slot = buffer.baseAddress! + index * DigestRow.slotSizes[part]
                            if part == DigestRow.kindPart { kinds.count(DigestRow.kind(inSlotAt: UnsafeRawPointer(slot)), by: -1) }
                            row.encode(part: part, into: slot)
                        }
                    }
                    putChunks[part].reset()
                    try putChunks[part].bind([.integer(chunk), .blob(slots)])
                    try putChunks[part].step()
                } else {
                    addChunks[part].reset()
                    try addChunks[part].bind([.integer(chunk), .integer(DigestRow.rowsPerChunk * Int64(DigestRow.slotSizes[part]))])
                    try addChunks[part].step()
                    for (index, row) in pending {
                        let replaced = try writers[part].write(row, slot: index, chunk: chunk)
                        if part == DigestRow.kindPart { kinds.count(replaced, by: -1) }
                    }
                }
            }
            pending.removeAll(keepingCapacity: true)
        }
        while try rows.step() {
            let id = rows.int64(at: 0)
            let row: DigestRow
            if rows.isNull(at: 1) {
                row = .empty  // deleted, or its id changed
            } else if let found = try Self.row(rows, kinds: kinds) {
                row = found
            } else {
                for writer in writers { writer.close() }
                return try rebuild(db)  // a row the slots cannot hold: the rebuild leaves no digest
            }
            if chunk != id / DigestRow.rowsPerChunk {
                try apply()
                chunk = id / DigestRow.rowsPerChunk
            }
            pending.append((Int(id % DigestRow.rowsPerChunk), row))
            kinds.count(row.kind, by: 1)
        }
        try apply()
        try kinds.writeCounts()
        try db.execute("DELETE FROM quake_digest_dirty")
    }

    /// The largest text id (0: none).
    private static func lastTextID(_ db: Connection) throws(SQLiteError) -> Int64 {
        try db.scalar("SELECT coalesce(max(id), 0) FROM quake_digest_text").int64 ?? 0
    }

    /// Packs the dictionary's texts into `quake_digest_names` from chunk `first` on (the shape
    /// `quaketui_digest_match_names` reads): texts are only ever added, with ids past the last.
    private static func writeNames(_ db: Connection, fromChunk first: Int64) throws(SQLiteError) {
        let texts = try db.prepare("SELECT id, text FROM quake_digest_text WHERE id >= ? ORDER BY id")
        try texts.bind(first * DigestRow.rowsPerChunk, at: 1)
        let put = try db.prepare("INSERT OR REPLACE INTO quake_digest_names (chunk, texts) VALUES (?, ?)")
        var chunk = first, pending: [[UInt8]] = []
        func write() throws(SQLiteError) {
            guard !pending.isEmpty else { return }
            put.reset()
            try put.bind([.integer(chunk), .blob(DigestNames.encode(pending))])
            try put.step()
            pending.removeAll(keepingCapacity: true)
        }
        while try texts.step() {
            let id = texts.int64(at: 0)
            if id / DigestRow.rowsPerChunk != chunk {
                try write()
                chunk = id / DigestRow.rowsPerChunk
            }
            // An id without a text (0, the first chunk's) is an empty one.
            while Int64(pending.count) < id % DigestRow.rowsPerChunk { pending.append([]) }
            pending.append(texts.withText(at: 1) { Array($0) })
        }
        try write()
    }

    // MARK: Reading

    /// The query of a pass taking `plan`'s rows (its search, filters and minimum magnitude),
    /// counting per bucket of `countingKind`; nil when the digest cannot answer: a plan it does
    /// not hold the columns of (`QueryPlan.digestAnswers`), or a snapshot where it is not complete
    /// (the caller reads the rows with SQL). Each distinct text is tested against the search once
    /// (`PlaceSearch.matches`, SQL's `instr`, in C); the pass then tests a bit a row.
    static func query(_ db: Connection, plan: QueryPlan, countingKind: Int?) throws(SQLiteError) -> DigestQuery? {
        guard plan.digestAnswers, try isCurrent(db) else { return nil }
        let textCount = (try db.scalar("SELECT coalesce(max(id), 0) FROM quake_digest_text").int64 ?? 0) + 1
        var query = DigestQuery(matchingTexts: nil, textCount: textCount, minimumMagnitude: plan.minimumMagnitude,
                                countKind: countingKind, filters: plan.filters)
        guard let search = plan.placeSearch else { return query }
        // The rarest word marks its texts (each of its names a sweep of `memmem`, each ending a
        // test of each text's end), then each other word keeps those among them that hold one of
        // its names or end with one of its endings.
        let words = search.wordsByRarity
        var matching = [UInt64](repeating: 0, count: Int(textCount / 64) + 1)
        // Every id below textCount must be read, chunk after chunk: a chunk missing or not of
        // its shape (cut by hand) leaves the search to SQL rather than miss its rows.
        let names = try db.prepare("SELECT chunk, texts FROM quake_digest_names ORDER BY chunk")
        var covered: Int64 = 0
        while try names.step() {
            let first = names.int64(at: 0) * DigestRow.rowsPerChunk
            guard first == covered else { return nil }
            let count = names.withBlob(at: 1) { blob -> Int64? in
                var held: Int64?
                for (needle, atEnd) in words[0].names.map({ ($0, false) }) + words[0].endings.map({ ($0, true) }) {
                    held = needle.withUnsafeBytes {
                        DigestNames.mark(blob, firstID: first, matching: $0, atEnd: atEnd, in: &matching, below: textCount)
                    }
                    if held == nil { return nil }
                }
                for word in words.dropFirst() {
                    held = DigestNames.keep(blob, firstID: first, containingOneOf: word.names, orEndingWithOneOf: word.endings,
                                            in: &matching, below: textCount)
                    if held == nil { return nil }
                }
                return held
            }
            guard let count else { return nil }
            covered = first + count
        }
        guard covered >= textCount else { return nil }
        query.matchingTexts = matching
        return query
    }

    /// The statement that reads every chunk for a pass (or those `condition` keeps, a `WHERE`
    /// clause on `k.chunk`): the chunk number, then the slots of part 0 and, when asked, of parts
    /// 1 and 2 (else NULL), in chunk order (`DigestChunk`).
    static func chunks(_ db: Connection, locations: Bool, details: Bool, _ condition: String = "") throws(SQLiteError) -> Statement {
        try db.prepare("""
            SELECT k.chunk, k.slots, \(locations ? "l.slots" : "NULL"), \(details ? "d.slots" : "NULL") FROM quake_digest k
            \(locations ? "JOIN quake_digest_location l USING (chunk)" : "") \(details ? "JOIN quake_digest_detail d USING (chunk)" : "")
            \(condition) ORDER BY k.chunk
            """)
    }

    /// Fills `set` with `plan`'s candidates (its search and filters), counting those at or above
    /// its minimum magnitude per bucket of `countingKind` (0 time, 1 magnitude, 3 depth) into its
    /// `bucketCounts`. False, with the set untouched, when the digest cannot answer (`query`): the
    /// caller fills the set with SQL.
    static func fill(_ db: Connection, plan: QueryPlan, countingKind: Int?, into set: MatchSet) throws(SQLiteError) -> Bool {
        guard let query = try query(db, plan: plan, countingKind: countingKind) else { return false }
        set.removeAll()
        let chunks = try chunks(db, locations: query.needsLocations, details: query.needsDetails)
        while try chunks.step() {
            try db.stopIfDue()  // a chunk's scan is C, which the deadline's progress handler never sees
            try set.scanDigest(chunks, query: query)
        }
        return true
    }

    /// `plan`'s rows at or above its minimum magnitude counted per bucket of `countingKind`, in one
    /// pass, in a set of their own (a plan without a search or filters: a minimum magnitude alone);
    /// nil when the digest cannot answer or the buckets span too wide to count in memory.
    static func countedBuckets(_ db: Connection, plan: QueryPlan, countingKind: Int) throws(SQLiteError) -> MatchSet? {
        let scratch = MatchSet()
        guard try fill(db, plan: plan, countingKind: countingKind, into: scratch), scratch.hasBucketCounts else { return nil }
        return scratch
    }

    /// Every row as the digest holds it, by id (ids no row has left out), with its place and
    /// region texts, for tests that hold the digest to the table; nil without a current digest.
    static func rows(_ db: Connection) throws(SQLiteError) -> [Int64: (place: String, region: String, kind: String, row: DigestRow)]? {
        guard try isCurrent(db) else { return nil }
        var texts: [UInt32: String] = [:], kindNames: [UInt32: String] = [:]
        let text = try db.prepare("SELECT id, text FROM quake_digest_text")
        while try text.step() { texts[UInt32(text.int64(at: 0))] = text.text(at: 1) }
        let kindText = try kindName(db)
        let kind = try db.prepare("SELECT id, \(kindText) FROM quake_digest_kind")
        while try kind.step() { kindNames[UInt32(kind.int64(at: 0))] = kind.text(at: 1) }
        var result: [Int64: (place: String, region: String, kind: String, row: DigestRow)] = [:]
        let chunks = try db.prepare("""
            SELECT k.chunk, k.slots, l.slots, d.slots FROM quake_digest k JOIN quake_digest_location l USING (chunk)
                JOIN quake_digest_detail d USING (chunk) ORDER BY k.chunk
            """)
        while try chunks.step() {
            let first = chunks.int64(at: 0) * DigestRow.rowsPerChunk
            chunks.withBlob(at: 1) { keys in
                chunks.withBlob(at: 2) { locations in
                    chunks.withBlob(at: 3) { details in
                        for index in 0..<(keys.count / DigestRow.slotSizes[0]) {
                            let row = DigestRow(decoding: [keys.baseAddress! + index * DigestRow.slotSizes[0],
                                                           locations.baseAddress! + index * DigestRow.slotSizes[1],
                                                           details.baseAddress! + index * DigestRow.slotSizes[2]])
                            if row.text != 0 {
                                result[first + Int64(index)] = (texts[row.text] ?? "?", texts[row.region] ?? "?", kindNames[row.kind] ?? "?", row)
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    /// Whether the store's kinds keep networks (`Schema.networksKept`; a container opened with
    /// fewer migrations, as tests of older stores do, does not).
    static func keepsNetworks(_ db: Connection) throws(SQLiteError) -> Bool {
        try db.hasSchema(Schema.networksKept)
    }

    /// A kind as one text, `type/agency/network`, as SQL over `quake_digest_kind` (for tests).
    private static func kindName(_ db: Connection) throws(SQLiteError) -> String {
        try "magType || '/' || source || '/' || " + (keepsNetworks(db) ? "network" : "''")
    }

    /// What differs between the digest and the table (empty when they agree), as readable lines,
    /// for tests that hold the digest to the table after writes and faults.
    static func mismatches(_ db: Connection) throws(SQLiteError) -> [String] {
        guard let digest = try rows(db) else { return ["no current digest"] }
        let (kindText, networkText) = (try kindName(db), try keepsNetworks(db) ? network("quake") : "''")
        let table = try db.prepare("""
            SELECT id, placeKey, region, \(Schema.depthBucket("depth")), time, magnitude, latitude, longitude, depth,
                ifnull(magType, '') || '/' || ifnull(source, 'usgs') || '/' || \(networkText)
            FROM quake ORDER BY id
            """)
        func text(_ value: Double?) -> String { value.map { "\($0)" } ?? "nil" }
        var found: [String] = [], seen = Set<Int64>()
        while try table.step() {
            let id = table.int64(at: 0)
            seen.insert(id)
            let want = "\(table.text(at: 1)) | \(table.text(at: 2)) | \(table.int64(at: 3)) \(table.int64(at: 4)) \(text(table.optionalDouble(at: 5))) "
                + "\(table.double(at: 6)) \(table.double(at: 7)) \(text(table.optionalDouble(at: 8))) | \(table.text(at: 9))"
            guard let (place, region, kind, row) = digest[id] else { found.append("row \(id) (\(want)) has no slot"); continue }
            let got = "\(place) | \(region) | \(row.depthBucket) \(row.time) \(text(row.magnitude)) \(row.latitude) \(row.longitude) \(text(row.depth))"
                + " | \(kind)"
            if got != want { found.append("row \(id): table \(want), digest \(got)") }
        }
        for id in digest.keys where !seen.contains(id) { found.append("slot \(id) has no row") }
        // Each kind's count is its rows' (kept with every slot written; NULL only where not counted).
        if try db.hasSchema(Schema.kindsCounted) {
            var slotsOfKind: [String: Int64] = [:]
            for slot in digest.values { slotsOfKind[slot.kind, default: 0] += 1 }
            let counts = try db.prepare("SELECT \(kindText), rows FROM quake_digest_kind")
            while try counts.step() {
                let kind = counts.text(at: 0), rows = counts.isNull(at: 1) ? nil : counts.int64(at: 1)
                let slots = slotsOfKind.removeValue(forKey: kind) ?? 0
                if rows != slots { found.append("kind \(kind) counts \(rows.map(String.init) ?? "NULL") rows, its slots \(slots)") }
            }
            for (kind, slots) in slotsOfKind { found.append("kind \(kind) of \(slots) slots is not in quake_digest_kind") }
        }
        // The packed names hold the dictionary, id for id.
        var dictionary: [String] = []
        let texts = try db.prepare("SELECT id, text FROM quake_digest_text ORDER BY id")
        while try texts.step() {
            while dictionary.count < texts.int64(at: 0) { dictionary.append("") }
            dictionary.append(texts.text(at: 1))
        }
        var packed: [String] = []
        let names = try db.prepare("SELECT chunk, texts FROM quake_digest_names ORDER BY chunk")
        while try names.step() {
            guard let texts = names.withBlob(at: 1, DigestNames.decode) else {
                found.append("the packed names of chunk \(names.int64(at: 0)) are not of their shape")
                continue
            }
            packed += texts
        }
        if packed.count > dictionary.count, packed[dictionary.count...].allSatisfy(\.isEmpty) { packed.removeLast(packed.count - dictionary.count) }
        if packed != dictionary { found.append("the packed names (\(packed.count)) are not the dictionary (\(dictionary.count))") }
        return found
    }

    /// A chunk with this many written rows or more is written whole, not patched slot by slot.
    static let slotsPatchedAtMost = 64

    /// Past this many written rows (or a sixteenth of the store) a write rebuilds the digest
    /// rather than patch a slot per row: a patch costs a few µs, a rebuild about 0.2 µs a row.
    static let patchedRowsAtMost: Int64 = 4_096
}

/// Whether the store's digest (`SearchDigest`) answers reads, as `quaketui info` says it.
public enum DigestState: Equatable, Sendable {
    /// Complete: searches, the held filters, the map and the statistics read it.
    case current
    /// Rows written by another program since quaketui last wrote: readers use SQL until quaketui's next write.
    case behind(rows: Int)
    /// A row it cannot hold (a time stored as text, an id past 2^28): readers use SQL.
    case unheld
    /// None: a store of an older schema read as it is, or one no quaketui has opened for writing yet.
    case absent
}

extension Connection {
    /// The store's digest state in this snapshot (`quaketui info`).
    public func digestState() throws(SQLiteError) -> DigestState { try SearchDigest.state(self) }
}

/// The ids of `quake_digest_kind` (`SearchDigest`): each kind (magType, source, network) a row
/// has, added when first met. A write meets a few hundred at most; consecutive rows mostly share
/// one, so the last kinds are compared byte for byte before the dictionary is asked.
final class DigestKinds {
    private let connection: Connection
    private var ids: [String: UInt32] = [:]
    /// The kinds seen, as bytes, compared with a row's columns without making a string: a
    /// catalogue has a few dozen, and its rows alternate among them (`ml`, `md`, `mb`, …).
    private var seen: [(magType: [UInt8], source: [UInt8], network: [UInt8], id: UInt32)] = []
    private let insert: Statement
    /// How many slots of each kind were written less how many were overwritten, since the last
    /// `writeCounts` (kind 0: an empty slot, not counted).
    private var counted: [UInt32: Int64] = [:]
    /// Whether the store's schema counts kinds (`Schema.kindsCounted`; a container opened with
    /// fewer migrations, as tests of older stores do, does not).
    private let countsRows: Bool
    /// Whether the kinds keep networks (`Schema.networksKept`); without, every network is `''`.
    private let keepsNetworks: Bool

    init(_ connection: Connection) throws(SQLiteError) {
        self.connection = connection
        keepsNetworks = try SearchDigest.keepsNetworks(connection)
        let known = try connection.prepare("SELECT id, magType, source, \(keepsNetworks ? "network" : "''") FROM quake_digest_kind")
        while try known.step() {
            ids[Self.key(known.text(at: 1), known.text(at: 2), known.text(at: 3))] = UInt32(truncatingIfNeeded: known.int64(at: 0))
        }
        countsRows = try connection.hasSchema(Schema.kindsCounted)
        let columns = "magType, source" + (keepsNetworks ? ", network" : "") + (countsRows ? ", rows" : "")
        let values = "?, ?" + (keepsNetworks ? ", ?" : "") + (countsRows ? ", 0" : "")
        insert = try connection.prepare("INSERT INTO quake_digest_kind (\(columns)) VALUES (\(values))")
    }

    private static func key(_ magType: String, _ source: String, _ network: String) -> String {
        magType + "\u{0}" + source + "\u{0}" + network
    }

    /// How many kinds are compared byte by byte before the dictionary.
    private static let seenLimit = 64

    /// The id of the kind in columns `magType`, `source` and `network` of `s`'s row, added when new.
    func id(_ s: Statement, magType: Int32, source: Int32, network: Int32) throws(SQLiteError) -> UInt32 {
        let networkColumn = keepsNetworks ? network : nil
        let found = s.withText(at: magType) { type in
            s.withText(at: source) { agency in
                Self.withText(s, at: networkColumn) { net in
                    seen.first { type.elementsEqual($0.magType) && agency.elementsEqual($0.source) && net.elementsEqual($0.network) }?.id
                }
            }
        }
        if let found { return found }
        let (type, agency, net) = (s.text(at: magType), s.text(at: source), networkColumn.map { s.text(at: $0) } ?? "")
        let id: UInt32
        if let known = ids[Self.key(type, agency, net)] {
            id = known
        } else {
            insert.reset()
            var values: [SQLiteValue] = [.text(type), .text(agency)]
            if keepsNetworks { values.append(.text(net)) }
            try insert.bind(values)
            try insert.step()
            id = UInt32(truncatingIfNeeded: connection.lastInsertRowID)
            ids[Self.key(type, agency, net)] = id
        }
        if seen.count < Self.seenLimit { seen.append((Array(type.utf8), Array(agency.utf8), Array(net.utf8), id)) }
        return id
    }

    /// `body` with column `column`'s text, or with no bytes when there is no column.
    private static func withText<T>(_ s: Statement, at column: Int32?, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        guard let column else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return s.withText(at: column, body)
    }

    /// Notes `delta` more slots of `kind` (a slot written, or -1: one overwritten).
    func count(_ kind: UInt32, by delta: Int64) {
        guard kind != 0 else { return }
        counted[kind, default: 0] += delta
    }

    /// Adds the counts noted to `quake_digest_kind.rows` (an uncounted kind, NULL, stays so).
    func writeCounts() throws(SQLiteError) {
        guard countsRows else { return counted.removeAll() }
        let update = try connection.prepare("UPDATE quake_digest_kind SET rows = rows + ? WHERE id = ?")
        for (kind, delta) in counted where delta != 0 {
            update.reset()
            try update.bind([.integer(delta), .integer(Int64(kind))])
            try update.step()
        }
        counted.removeAll()
    }
}
