import QuakeModel
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
    /// The kind's id in `quake_digest_kind` (magType, source, network).
    var kind: UInt32 = 0

    static let rowsPerChunk = Int64(QUAKETUI_DIGEST_CHUNK)
    /// The part whose slot holds `kind`.
    static let kindPart = 2
    static let empty = DigestRow(text: 0, depthBucket: 0, time: 0, magnitude: nil, latitude: 0, longitude: 0, depth: nil, region: 0)

    /// The bytes of a slot of each part.
    static let slotSizes = (0..<Int32(QUAKETUI_DIGEST_PARTS)).map { Int(quaketui_digest_slot_size($0)) }

    private var c: quaketui_digest_row {
        quaketui_digest_row(text: text, depthBucket: depthBucket, time: time, magnitude: magnitude ?? .nan,
                            latitude: latitude, longitude: longitude, depth: depth ?? .nan, region: region, kind: kind)
    }

    /// Writes the fields of `part` into `slot`.
    func encode(part: Int, into slot: UnsafeMutableRawPointer) {
        var row = c
        quaketui_digest_encode(Int32(part), slot.assumingMemoryBound(to: UInt8.self), &row)
    }

    init(text: UInt32, depthBucket: Int32, time: Int64, magnitude: Double?, latitude: Double, longitude: Double,
         depth: Double?, region: UInt32, kind: UInt32 = 0) {
        (self.text, self.depthBucket, self.time, self.magnitude) = (text, depthBucket, time, magnitude)
        (self.latitude, self.longitude, self.depth, self.region, self.kind) = (latitude, longitude, depth, region, kind)
    }

    /// The kind held in the slot of `kindPart` at `slot` (0: no row).
    static func kind(inSlotAt slot: UnsafeRawPointer) -> UInt32 {
        var row = DigestRow.empty.c
        quaketui_digest_decode(Int32(kindPart), slot.assumingMemoryBound(to: UInt8.self), &row)
        return row.kind
    }

    /// The row whose slot of each part starts at `slots[part]`.
    init(decoding slots: [UnsafeRawPointer]) {
        var row = DigestRow.empty.c
        for (part, slot) in slots.enumerated() { quaketui_digest_decode(Int32(part), slot.assumingMemoryBound(to: UInt8.self), &row) }
        self.init(text: row.text, depthBucket: row.depthBucket, time: row.time, magnitude: row.magnitude.isNaN ? nil : row.magnitude,
                  latitude: row.latitude, longitude: row.longitude, depth: row.depth.isNaN ? nil : row.depth, region: row.region,
                  kind: row.kind)
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
    private var replaced: [UInt8]

    init(_ connection: Connection, table: String, part: Int) {
        self.connection = connection
        self.table = table
        self.part = part
        bytes = [UInt8](repeating: 0, count: DigestRow.slotSizes[part])
        replaced = bytes
    }

    deinit { close() }

    /// Writes `row`'s slot of this part at slot `index` of the BLOB of chunk `chunk`. Returns the
    /// kind of the slot it replaced when this part holds kinds (`DigestRow.kindPart`: the kinds'
    /// counts need it), else 0.
    @discardableResult
    func write(_ digestRow: DigestRow, slot index: Int, chunk: Int64) throws(SQLiteError) -> UInt32 {
        if row != chunk {
            let rc: Int32
            if let blob { rc = sqlite3_blob_reopen(blob, chunk) } else {
                rc = sqlite3_blob_open(connection.rawHandle, "main", table, "slots", chunk, 1, &blob)
            }
            guard rc == SQLITE_OK else { throw failed(chunk) }
            row = chunk
        }
        var old: UInt32 = 0
        if part == DigestRow.kindPart {
            let rc = replaced.withUnsafeMutableBytes { sqlite3_blob_read(blob, $0.baseAddress, Int32($0.count), Int32(index * $0.count)) }
            guard rc == SQLITE_OK else { throw failed(chunk) }
            old = replaced.withUnsafeBytes { DigestRow.kind(inSlotAt: $0.baseAddress!) }
        }
        bytes.withUnsafeMutableBytes { digestRow.encode(part: part, into: $0.baseAddress!) }
        let rc = bytes.withUnsafeBytes { sqlite3_blob_write(blob, $0.baseAddress, Int32($0.count), Int32(index * $0.count)) }
        guard rc == SQLITE_OK else { throw failed(chunk) }
        return old
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
    /// Row filters every taken row passes: only those the digest holds (`RowFilter.isHeldInDigest`).
    var filters: [RowFilter]

    /// Whether the query takes every row of the digest: no search, no minimum, no filter.
    var takesEveryRow: Bool { matchingTexts == nil && minimumMagnitude == nil && filters.isEmpty }

    /// Whether a pass needs the location part (a near filter) or the detail part (a depth filter).
    var needsLocations: Bool { filters.contains { if case .near = $0 { true } else { false } } }
    var needsDetails: Bool { filters.contains { if case .depth = $0 { true } else { false } } }

    func withC<T>(_ body: (UnsafePointer<quaketui_digest_query>) -> T) -> T {
        var c = filters.map(Self.cFilter)
        func run() -> T {
            c.withUnsafeBufferPointer { filters in
                func run(_ texts: UnsafePointer<UInt64>?) -> T {
                    var query = quaketui_digest_query(matchingTexts: texts, textCount: textCount,
                                                      hasMinimumMagnitude: minimumMagnitude == nil ? 0 : 1,
                                                      minimumMagnitude: minimumMagnitude ?? 0, countKind: Int32(countKind ?? -1),
                                                      filterCount: Int32(filters.count), filters: filters.baseAddress)
                    return body(&query)
                }
                guard let matchingTexts else { return run(nil) }
                return matchingTexts.withUnsafeBufferPointer { run($0.baseAddress) }
            }
        }
        // Each id bitmap pinned for the call, its filter pointing at it.
        func pinning(from start: Int) -> T {
            for index in filters.indices.dropFirst(start) {
                guard case .declustered(let kept) = filters[index] else { continue }
                return kept.bitmap.withUnsafeBufferPointer { bytes in
                    (c[index].ids, c[index].idBytes) = (bytes.baseAddress, Int64(bytes.count))
                    return pinning(from: index + 1)
                }
            }
            return run()
        }
        return pinning(from: 0)
    }

    /// A filter as the C pass tests it (`RowFilter.sql` decides the same).
    private static func cFilter(_ filter: RowFilter) -> quaketui_digest_filter {
        var c = quaketui_digest_filter()
        switch filter {
        case .depth, .magnitude:
            let kind = if case .depth = filter { QUAKETUI_FILTER_DEPTH } else { QUAKETUI_FILTER_MAGNITUDE }
            let (low, high) = filter.storedBounds!
            (c.kind, c.low, c.high) = (Int32(kind), low, high)
        case .time(let from, let until):
            (c.kind, c.from, c.until, c.hasUntil) = (Int32(QUAKETUI_FILTER_TIME), from, until ?? 0, until == nil ? 0 : 1)
        case .near(let center, let radiusKm):
            let band = center.latitudeBand(radiusKm: radiusKm)
            (c.kind, c.low, c.high) = (Int32(QUAKETUI_FILTER_NEAR), band.lowerBound, band.upperBound)
            (c.latitude, c.longitude, c.radius) = (center.latitude, center.longitude, radiusKm)
        case .declustered:
            // The bitmap is pinned where the query is run (`withC`).
            c.kind = Int32(QUAKETUI_FILTER_IDS)
        case .eventType, .alert, .felt, .intensity, .magnitudeType, .revised:
            preconditionFailure("\(filter) is not held in the digest")
        }
        return c
    }
}

/// The parts of one chunk as a pass reads them from a statement's row (`quaketui_digest_chunk`):
/// the chunk number in column 0, then the slots of parts 0, 1 and 2 (NULL for a part not read).
enum DigestChunk {
    /// Calls `body` with the chunk of `statement`'s current row and its row count.
    static func with<T>(_ statement: Statement, _ body: (UnsafePointer<quaketui_digest_chunk>, Int) -> T) -> T {
        let readsLocations = !statement.isNull(at: 2), readsDetails = !statement.isNull(at: 3)
        return statement.withBlob(at: 1) { keys in
            statement.withBlob(at: 2) { locations in
                statement.withBlob(at: 3) { details in
                    // The rows every part read holds (all of the chunk: the tables are written together;
                    // a store edited by hand is read no further than its BLOBs go), at most a chunk.
                    var rows = min(keys.count / DigestRow.slotSizes[0], Int(QUAKETUI_DIGEST_CHUNK))
                    if readsLocations { rows = min(rows, locations.count / DigestRow.slotSizes[1]) }
                    if readsDetails { rows = min(rows, details.count / DigestRow.slotSizes[2]) }
                    func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? { buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) }
                    var chunk = quaketui_digest_chunk(keys: bytes(keys), locations: bytes(locations), details: bytes(details),
                                                      count: Int64(rows), firstId: statement.int64(at: 0) * DigestRow.rowsPerChunk)
                    return body(&chunk, rows)
                }
            }
        }
    }
}

extension MatchSet {
    /// Adds the rows of `statement`'s current chunk (`DigestChunk`) that `query` takes, and counts
    /// them per bucket (`quaketui_digest_scan`).
    func scanDigest(_ statement: Statement, query: DigestQuery) throws(SQLiteError) {
        let rc = DigestChunk.with(statement) { chunk, _ in
            query.withC { q in withCounting { storage, buckets in quaketui_digest_scan(chunk, q, storage, buckets) } }
        }
        guard rc == 0 else { throw SQLiteError(extendedCode: rc, message: "a row id the match set cannot hold (a store edited by hand?)") }
    }
}

/// The map's cells counted over the digest (`quaketui_digest_density`).
struct DigestDensity {
    var counts: [Int]
    var maxima: [Double]
    let window: quaketui_density_window

    init(minimumLatitude: Double, maximumLatitude: Double, longitudeRanges: [ClosedRange<Double>], layout: GridLayout) {
        precondition(longitudeRanges.count <= 2)
        var ranges = [Double](repeating: 0, count: 4)
        for (index, range) in longitudeRanges.enumerated() { (ranges[2 * index], ranges[2 * index + 1]) = (range.lowerBound, range.upperBound) }
        window = quaketui_density_window(minimumLatitude: minimumLatitude, maximumLatitude: maximumLatitude,
                                         rangeCount: Int32(longitudeRanges.count), ranges: (ranges[0], ranges[1], ranges[2], ranges[3]),
                                         cellDegrees: layout.cellDegrees, rows: Int64(layout.rows), columns: Int64(layout.columns),
                                         rowOrigin: Int64(layout.rowOrigin), columnOrigin: Int64(layout.columnOrigin),
                                         globeRows: Int64(layout.globeRows), globeColumns: Int64(layout.globeColumns))
        counts = [Int](repeating: 0, count: layout.count)
        maxima = [Double](repeating: -.infinity, count: layout.count)
    }

    /// Counts `statement`'s current chunk (`DigestChunk`, with part 1). Returns how many rows fell off the grid.
    mutating func add(_ statement: Statement, query: DigestQuery) -> Int {
        var window = self.window
        return DigestChunk.with(statement) { chunk, _ in
            query.withC { q in
                counts.withUnsafeMutableBufferPointer { counts in
                    maxima.withUnsafeMutableBufferPointer { maxima in
                        counts.withMemoryRebound(to: Int64.self) { counts in
                            Int(quaketui_digest_density(chunk, q, &window, counts.baseAddress, maxima.baseAddress))
                        }
                    }
                }
            }
        }
    }
}

/// A distance sort's rows at or past each of its band bounds, counted over the digest
/// (`quaketui_digest_distances`).
struct DigestDistances {
    /// Ascending, in km.
    let bounds: [Double]
    private(set) var atLeast: [Int]

    init(bounds: [Double]) {
        self.bounds = bounds
        atLeast = [Int](repeating: 0, count: bounds.count)
    }

    /// Counts `statement`'s current chunk (`DigestChunk`, with part 1) from `origin`.
    mutating func add(_ statement: Statement, query: DigestQuery, origin: GeoPoint) {
        DigestChunk.with(statement) { chunk, _ in
            query.withC { q in
                atLeast.withUnsafeMutableBufferPointer { atLeast in
                    atLeast.withMemoryRebound(to: Int64.self) { atLeast in
                        quaketui_digest_distances(chunk, q, origin.latitude, origin.longitude, bounds, Int32(bounds.count), atLeast.baseAddress)
                    }
                }
            }
        }
    }
}

/// The dictionary packed for a search (`quake_digest_names`, `SearchDigest`): a chunk's BLOB is a
/// u32 count of ids, that many u32 end offsets into the bytes after them, then the texts one after
/// another, little-endian (CQuakeSQL.h, `quaketui_digest_match_names`, reads it).
enum DigestNames {
    /// The BLOB of a chunk's texts, in id order from its first id (an empty one for an id without a text).
    static func encode(_ texts: [[UInt8]]) -> [UInt8] {
        var blob = [UInt8]()
        blob.reserveCapacity(4 + 4 * texts.count + texts.reduce(0) { $0 + $1.count })
        withUnsafeBytes(of: UInt32(texts.count).littleEndian) { blob += $0 }
        var end: UInt32 = 0
        for text in texts {
            end += UInt32(text.count)
            withUnsafeBytes(of: end.littleEndian) { blob += $0 }
        }
        for text in texts { blob += text }
        return blob
    }

    /// The texts of a chunk's BLOB, in id order; nil for a BLOB not of its shape.
    static func decode(_ blob: UnsafeRawBufferPointer) -> [String]? {
        guard blob.count >= 4 else { return nil }
        let count = Int(UInt32(littleEndian: blob.loadUnaligned(as: UInt32.self)))
        let bytes = 4 + 4 * count
        guard bytes <= blob.count else { return nil }
        var texts: [String] = [], start = bytes
        for index in 0..<count {
            let end = bytes + Int(UInt32(littleEndian: blob.loadUnaligned(fromByteOffset: 4 + 4 * index, as: UInt32.self)))
            guard end >= start, end <= blob.count else { return nil }
            texts.append(String(decoding: UnsafeRawBufferPointer(rebasing: blob[start..<end]), as: UTF8.self))
            start = end
        }
        return texts
    }

    /// Sets the bit of each id below `textCount` whose text in `blob` (one chunk, its first id
    /// `firstID`) contains `needle`, or ends with it when `atEnd` (`quaketui_digest_match_names`).
    /// Returns how many ids the chunk holds, or nil for a BLOB not of its shape.
    static func mark(_ blob: UnsafeRawBufferPointer, firstID: Int64, matching needle: UnsafeRawBufferPointer, atEnd: Bool = false,
                     in bits: inout [UInt64], below textCount: Int64) -> Int64? {
        let count = bits.withUnsafeMutableBufferPointer { bits in
            quaketui_digest_match_names(blob.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(blob.count), firstID,
                                        needle.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(needle.count),
                                        atEnd ? 1 : 0, bits.baseAddress, min(textCount, Int64(bits.count) * 64))
        }
        return count >= 0 ? count : nil
    }

    /// Clears the bit of each id whose text in `blob` holds none of `needles` and ends with none
    /// of `endings` (`quaketui_digest_keep_names`): the other words of a search, among the first
    /// word's matches. Returns how many ids the chunk holds, or nil for a BLOB not of its shape.
    static func keep(_ blob: UnsafeRawBufferPointer, firstID: Int64, containingOneOf names: [[UInt8]],
                     orEndingWithOneOf endings: [[UInt8]], in bits: inout [UInt64], below textCount: Int64) -> Int64? {
        let needles = names + endings
        let atEnds = names.map { _ in Int32(0) } + endings.map { _ in Int32(1) }
        let lengths = needles.map { Int64($0.count) }
        // The needles' storage stays put while the C call reads it (one allocation a call).
        let joined = needles.flatMap { $0 }
        let count = joined.withUnsafeBufferPointer { storage in
            var pointers: [UnsafePointer<UInt8>?] = []
            var offset = 0
            for needle in needles {
                pointers.append(storage.baseAddress.map { $0 + offset })
                offset += needle.count
            }
            return bits.withUnsafeMutableBufferPointer { bits in
                quaketui_digest_keep_names(blob.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(blob.count), firstID,
                                           pointers, lengths, atEnds, Int32(needles.count), bits.baseAddress,
                                           min(textCount, Int64(bits.count) * 64))
            }
        }
        return count >= 0 ? count : nil
    }
}
