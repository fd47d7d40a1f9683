import CQuakeSQL
import CSQLite

/// One row's slot in the digest (CQuakeSQL's `quaketui_digest_row`): the keys a search's counts
/// read, packed (see `SearchDigest`).
struct DigestSlot: Equatable {
    /// The folded place's id in `quake_digest_text`; 0 for an id no row has.
    var text: UInt32
    var depthBucket: Int32
    var time: Int64
    var magnitude: Double?

    static let size = Int(QUAKETUI_DIGEST_SLOT)
    static let rowsPerChunk = Int64(QUAKETUI_DIGEST_CHUNK)
    static let empty = DigestSlot(text: 0, depthBucket: 0, time: 0, magnitude: nil)

    func encode(into slot: UnsafeMutableRawPointer) {
        var row = quaketui_digest_row(text: text, depthBucket: depthBucket, time: time, magnitude: magnitude ?? 0,
                                      hasMagnitude: magnitude == nil ? 0 : 1)
        quaketui_digest_encode(slot.assumingMemoryBound(to: UInt8.self), &row)
    }

    init(text: UInt32, depthBucket: Int32, time: Int64, magnitude: Double?) {
        self.text = text
        self.depthBucket = depthBucket
        self.time = time
        self.magnitude = magnitude
    }

    init(decoding slot: UnsafeRawPointer) {
        var row = quaketui_digest_row()
        quaketui_digest_decode(slot.assumingMemoryBound(to: UInt8.self), &row)
        self.init(text: row.text, depthBucket: row.depthBucket, time: row.time, magnitude: row.hasMagnitude != 0 ? row.magnitude : nil)
    }
}

/// Writes digest slots into the BLOBs of one column in place (`sqlite3_blob_write`), a row at a time: a slot
/// patched dirties the page that holds it, not the whole BLOB.
final class BlobWriter {
    private let connection: Connection
    private let table: String, column: String
    private var blob: OpaquePointer?
    private var row: Int64?

    init(_ connection: Connection, table: String, column: String) {
        self.connection = connection
        self.table = table
        self.column = column
    }

    deinit { close() }

    private var bytes = [UInt8](repeating: 0, count: DigestSlot.size)

    /// Writes `slot` at `offset` into the BLOB of row `rowid`.
    func write(_ slot: DigestSlot, at offset: Int, row rowid: Int64) throws(SQLiteError) {
        if row != rowid {
            let rc: Int32
            if let blob { rc = sqlite3_blob_reopen(blob, rowid) } else {
                rc = sqlite3_blob_open(connection.rawHandle, "main", table, column, rowid, 1, &blob)
            }
            guard rc == SQLITE_OK else {
                let error = connection.error(sql: "writing \(table).\(column) of row \(rowid)")
                close()
                throw error
            }
            row = rowid
        }
        bytes.withUnsafeMutableBytes { slot.encode(into: $0.baseAddress!) }
        let rc = bytes.withUnsafeBytes { sqlite3_blob_write(blob, $0.baseAddress, Int32($0.count), Int32(offset)) }
        guard rc == SQLITE_OK else {
            let error = connection.error(sql: "writing \(table).\(column) of row \(rowid)")
            close()
            throw error
        }
    }

    func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
        row = nil
    }
}

extension MatchSet {
    /// Adds the rows of one chunk of digest slots (the BLOB in `column` of `statement`'s current
    /// row; ids from `firstId`) that `query` matches, and counts them per bucket (`quaketui_digest_scan`).
    func scanDigest(_ statement: Statement, column: Int32, firstId: Int64, query: DigestQuery) throws(SQLiteError) {
        let rc = statement.withBlob(at: column) { slots in
            query.matchingTexts.withUnsafeBufferPointer { texts in
                var q = quaketui_digest_query(matchingTexts: texts.baseAddress, textCount: query.textCount,
                                              hasMinimumMagnitude: query.minimumMagnitude == nil ? 0 : 1,
                                              minimumMagnitude: query.minimumMagnitude ?? 0, countKind: Int32(query.countKind ?? -1))
                return withCounting { storage, buckets in
                    quaketui_digest_scan(slots.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(slots.count / DigestSlot.size),
                                         firstId, &q, storage, buckets)
                }
            }
        }
        guard rc == 0 else { throw SQLiteError(extendedCode: rc, message: "a row id the match set cannot hold (a store edited by hand?)") }
    }
}

/// What a digest scan looks for (`quaketui_digest_query`).
struct DigestQuery {
    /// Bit `id` set for every text id whose place matches the search.
    var matchingTexts: [UInt64]
    /// Text ids below this were tested.
    var textCount: Int64
    var minimumMagnitude: Double?
    /// `quake_count`'s kind of the buckets to count (0 time, 1 magnitude, 3 depth); nil: none.
    var countKind: Int?
}
