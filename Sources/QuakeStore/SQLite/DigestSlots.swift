import CQuakeSQL
import CSQLite

/// One row as the digest holds it (CQuakeSQL's `quaketui_digest_row`), its fields spread over the
/// digest's parts (see `SearchDigest`).
struct DigestRow: Equatable {
    /// The folded place's id in `quake_digest_text`; 0 for an id no row has.
    var text: UInt32
    var depthBucket: Int32
    var time: Int64
    var magnitude: Double?
    var latitude: Double
    var longitude: Double
    var depth: Double?
    /// The region's id in `quake_digest_text`.
    var region: UInt32

    static let rowsPerChunk = Int64(QUAKETUI_DIGEST_CHUNK)
    static let empty = DigestRow(text: 0, depthBucket: 0, time: 0, magnitude: nil, latitude: 0, longitude: 0, depth: nil, region: 0)

    /// The bytes of a slot of each part.
    static let slotSizes = (0..<Int32(QUAKETUI_DIGEST_PARTS)).map { Int(quaketui_digest_slot_size($0)) }

    private var c: quaketui_digest_row {
        quaketui_digest_row(text: text, depthBucket: depthBucket, time: time, magnitude: magnitude ?? .nan,
                            latitude: latitude, longitude: longitude, depth: depth ?? .nan, region: region)
    }

    /// Writes the fields of `part` into `slot`.
    func encode(part: Int, into slot: UnsafeMutableRawPointer) {
        var row = c
        quaketui_digest_encode(Int32(part), slot.assumingMemoryBound(to: UInt8.self), &row)
    }

    init(text: UInt32, depthBucket: Int32, time: Int64, magnitude: Double?, latitude: Double, longitude: Double,
         depth: Double?, region: UInt32) {
        (self.text, self.depthBucket, self.time, self.magnitude) = (text, depthBucket, time, magnitude)
        (self.latitude, self.longitude, self.depth, self.region) = (latitude, longitude, depth, region)
    }

    /// The row whose slot of each part starts at `slots[part]`.
    init(decoding slots: [UnsafeRawPointer]) {
        var row = DigestRow.empty.c
        for (part, slot) in slots.enumerated() { quaketui_digest_decode(Int32(part), slot.assumingMemoryBound(to: UInt8.self), &row) }
        self.init(text: row.text, depthBucket: row.depthBucket, time: row.time, magnitude: row.magnitude.isNaN ? nil : row.magnitude,
                  latitude: row.latitude, longitude: row.longitude, depth: row.depth.isNaN ? nil : row.depth, region: row.region)
    }
}

/// Writes digest slots of one part into the BLOBs of its table in place (`sqlite3_blob_write`),
/// a row at a time: a slot patched dirties the page that holds it, not the whole BLOB.
final class BlobWriter {
    private let connection: Connection
    private let table: String
    private let part: Int
    private var blob: OpaquePointer?
    private var row: Int64?
    private var bytes: [UInt8]

    init(_ connection: Connection, table: String, part: Int) {
        self.connection = connection
        self.table = table
        self.part = part
        bytes = [UInt8](repeating: 0, count: DigestRow.slotSizes[part])
    }

    deinit { close() }

    /// Writes `row`'s slot of this part at slot `index` of the BLOB of chunk `chunk`.
    func write(_ digestRow: DigestRow, slot index: Int, chunk: Int64) throws(SQLiteError) {
        if row != chunk {
            let rc: Int32
            if let blob { rc = sqlite3_blob_reopen(blob, chunk) } else {
                rc = sqlite3_blob_open(connection.rawHandle, "main", table, "slots", chunk, 1, &blob)
            }
            guard rc == SQLITE_OK else { throw failed(chunk) }
            row = chunk
        }
        bytes.withUnsafeMutableBytes { digestRow.encode(part: part, into: $0.baseAddress!) }
        let rc = bytes.withUnsafeBytes { sqlite3_blob_write(blob, $0.baseAddress, Int32($0.count), Int32(index * $0.count)) }
        guard rc == SQLITE_OK else { throw failed(chunk) }
    }

    private func failed(_ chunk: Int64) -> SQLiteError {
        let error = connection.error(sql: "writing \(table).slots of chunk \(chunk)")
        close()
        return error
    }

    func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
        row = nil
    }
}

/// Which rows a pass over the digest takes (`quaketui_digest_query`).
struct DigestQuery {
    /// Bit `id` set for every text id whose place matches the search; nil: every row.
    var matchingTexts: [UInt64]?
    /// Text ids below this were tested.
    var textCount: Int64
    var minimumMagnitude: Double?
    /// `quake_count`'s kind of the buckets a scan counts (0 time, 1 magnitude, 3 depth); nil: none.
    var countKind: Int?

    func withC<T>(_ body: (UnsafePointer<quaketui_digest_query>) -> T) -> T {
        func run(_ texts: UnsafePointer<UInt64>?) -> T {
            var query = quaketui_digest_query(matchingTexts: texts, textCount: textCount,
                                              hasMinimumMagnitude: minimumMagnitude == nil ? 0 : 1,
                                              minimumMagnitude: minimumMagnitude ?? 0, countKind: Int32(countKind ?? -1))
            return body(&query)
        }
        guard let matchingTexts else { return run(nil) }
        return matchingTexts.withUnsafeBufferPointer { run($0.baseAddress) }
    }
}

extension MatchSet {
    /// Adds the rows of one chunk of part-0 slots (the BLOB in `column` of `statement`'s current
    /// row; ids from `firstId`) that `query` takes, and counts them per bucket (`quaketui_digest_scan`).
    func scanDigest(_ statement: Statement, column: Int32, firstId: Int64, query: DigestQuery) throws(SQLiteError) {
        let rc = statement.withBlob(at: column) { keys in
            query.withC { q in
                withCounting { storage, buckets in
                    quaketui_digest_scan(keys.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(keys.count / DigestRow.slotSizes[0]),
                                         firstId, q, storage, buckets)
                }
            }
        }
        guard rc == 0 else { throw SQLiteError(extendedCode: rc, message: "a row id the match set cannot hold (a store edited by hand?)") }
    }
}

/// The rows a pass takes, decoded a chunk at a time (`quaketui_digest_take`): the statistics'
/// pass over the digest's keys and details.
final class DigestTaker {
    private let rows = UnsafeMutablePointer<quaketui_digest_row>.allocate(capacity: Int(QUAKETUI_DIGEST_CHUNK))

    deinit { rows.deallocate() }

    /// Calls `body` with each row of one chunk that `query` takes (part 0 in column `keys` and
    /// part 2 in column `details` of `statement`'s current row): its time, magnitude, depth and region id.
    func forEachTaken(_ statement: Statement, keys: Int32, details: Int32, query: DigestQuery,
                      _ body: (_ time: Int64, _ magnitude: Double?, _ depth: Double?, _ region: UInt32) -> Void) {
        let taken = statement.withBlob(at: keys) { keyBytes in
            statement.withBlob(at: details) { detailBytes in
                let count = min(keyBytes.count / DigestRow.slotSizes[0], detailBytes.count / DigestRow.slotSizes[2], Int(QUAKETUI_DIGEST_CHUNK))
                return query.withC { q in
                    Int(quaketui_digest_take(keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                             detailBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(count), q, rows))
                }
            }
        }
        for index in 0..<taken {
            let row = rows[index]
            body(row.time, row.magnitude.isNaN ? nil : row.magnitude, row.depth.isNaN ? nil : row.depth, row.region)
        }
    }
}

/// The map's cells counted over the digest (`quaketui_digest_density`).
struct DigestDensity {
    var counts: [Int]
    var maxima: [Double]
    let window: quaketui_density_window

    init(minimumLatitude: Double, maximumLatitude: Double, longitudeRanges: [ClosedRange<Double>], cellDegrees: Double,
         rows: Int, columns: Int) {
        precondition(longitudeRanges.count <= 2)
        var ranges = [Double](repeating: 0, count: 4)
        for (index, range) in longitudeRanges.enumerated() { (ranges[2 * index], ranges[2 * index + 1]) = (range.lowerBound, range.upperBound) }
        window = quaketui_density_window(minimumLatitude: minimumLatitude, maximumLatitude: maximumLatitude,
                                         rangeCount: Int32(longitudeRanges.count), ranges: (ranges[0], ranges[1], ranges[2], ranges[3]),
                                         cellDegrees: cellDegrees, rows: Int64(rows), columns: Int64(columns))
        counts = [Int](repeating: 0, count: rows * columns)
        maxima = [Double](repeating: -.infinity, count: rows * columns)
    }

    /// Counts one chunk: part 0 in column `keys` and part 1 in column `locations` of `statement`'s
    /// current row. Returns how many rows fell off the grid.
    mutating func add(_ statement: Statement, keys: Int32, locations: Int32, query: DigestQuery) -> Int {
        statement.withBlob(at: keys) { keyBytes in
            statement.withBlob(at: locations) { locationBytes in
                let rows = min(keyBytes.count / DigestRow.slotSizes[0], locationBytes.count / DigestRow.slotSizes[1])
                return query.withC { q in
                    var window = self.window
                    return counts.withUnsafeMutableBufferPointer { counts in
                        maxima.withUnsafeMutableBufferPointer { maxima in
                            counts.withMemoryRebound(to: Int64.self) { counts in
                                Int(quaketui_digest_density(keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                            locationBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                            Int64(rows), q, &window, counts.baseAddress, maxima.baseAddress))
                            }
                        }
                    }
                }
            }
        }
    }
}
