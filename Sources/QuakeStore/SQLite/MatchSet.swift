import QuakeModel
import CQuakeSQL
import CSQLite

/// A set of row ids as a bitmap (CQuakeSQL's `quaketui_idset`): the rows a results controller's
/// search and filters match. A million quakes take 125 KB.
///
/// SQL reaches it on the connection it is registered on (`register(on:)`): `quaketui_match(id)`
/// adds a row, in an aggregate over the rows a `WHERE` clause passes, so a rebuild is one
/// statement with no row returned to Swift; `quaketui_matched(id)` tests a row while a query walks a sort index. A temp
/// table did the same at a B-tree insert per match and a B-tree probe per row walked: 1.2 s of
/// the 1.3 s that the counts for "a" took at a million quakes.
///
/// Not thread-safe: it belongs to one results controller, used from one thread at a time.
///
/// `quaketui_match_counting(id, bucket)` also counts the rows it adds per bucket (`bucketCounts`):
/// the section counts of the scan that builds the set, so a search matching most of the table
/// is not walked a second time to count its sections.
final class MatchSet {
    private let storage: UnsafeMutablePointer<quaketui_idset>
    private let buckets: UnsafeMutablePointer<quaketui_buckets>
    private let counting: UnsafeMutablePointer<quaketui_counting_match>

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: quaketui_idset(words: nil, wordCount: 0, count: 0))
        buckets = .allocate(capacity: 1)
        buckets.initialize(to: quaketui_buckets(base: 0, length: 0, counts: nil, overflow: 0))
        counting = .allocate(capacity: 1)
        counting.initialize(to: quaketui_counting_match(set: storage, buckets: buckets))
    }

    deinit {
        quaketui_idset_free(storage)
        storage.deinitialize(count: 1)
        storage.deallocate()
        quaketui_buckets_free(buckets)
        buckets.deinitialize(count: 1)
        buckets.deallocate()
        counting.deinitialize(count: 1)
        counting.deallocate()
    }

    /// Makes `quaketui_match`, `quaketui_match_counting` and `quaketui_matched` on `db` use this
    /// set. The set must outlive every statement of `db` that calls them.
    func register(on db: Connection) throws(SQLiteError) {
        guard quaketui_register_idset(db.rawHandle, storage) == SQLITE_OK,
              quaketui_register_counting_match(db.rawHandle, counting) == SQLITE_OK else { throw db.error() }
    }

    /// The rows `quaketui_match_counting` added since `removeAll()`, per bucket with at least one,
    /// ascending, as a list (tests); nil when their span was too wide to count in memory. The
    /// passes read them one at a time (`forEachBucketCount`, `nextBucketCount`): five years of
    /// 15-minute buckets copied into a list hold 2.7 MB.
    var bucketCounts: [(bucket: Int64, count: Int)]? {
        var result: [(bucket: Int64, count: Int)] = []
        guard forEachBucketCount({ result.append(($0, $1)) }) else { return nil }
        return result
    }

    /// Whether the bucket counts hold every row counted (false: their span was too wide).
    var hasBucketCounts: Bool { buckets.pointee.overflow == 0 }

    /// Calls `body` with each bucket that has rows and its count, ascending; false, calling
    /// nothing, when the span was too wide.
    func forEachBucketCount<E: Error>(_ body: (_ bucket: Int64, _ count: Int) throws(E) -> Void) throws(E) -> Bool {
        guard hasBucketCounts else { return false }
        var index: Int?
        while let (bucket, count) = nextBucketCount(after: &index, ascending: true) { try body(bucket, count) }
        return true
    }

    /// The next bucket with rows after `index` (nil: none yet) in `ascending` order or its
    /// reverse, `index` moved to it; nil after the last, or when the span was too wide.
    func nextBucketCount(after index: inout Int?, ascending: Bool) -> (bucket: Int64, count: Int)? {
        guard hasBucketCounts else { return nil }
        let counts = buckets.pointee, length = Int(counts.length)
        var next = index.map { ascending ? $0 + 1 : $0 - 1 } ?? (ascending ? 0 : length - 1)
        while next >= 0, next < length, counts.counts[next] == 0 { next += ascending ? 1 : -1 }
        guard next >= 0, next < length else { return nil }
        index = next
        return (counts.base + Int64(next), Int(counts.counts[next]))
    }

    /// Calls `body` with the set and its bucket counts, for C that fills both (`scanDigest`).
    func withCounting<T>(_ body: (UnsafeMutablePointer<quaketui_idset>, UnsafeMutablePointer<quaketui_buckets>) throws -> T) rethrows -> T {
        try body(storage, buckets)
    }

    /// The first id a set cannot hold (2^28).
    static let idLimit = Int64(QUAKETUI_IDSET_LIMIT)

    /// Ids in the set.
    var count: Int { Int(storage.pointee.count) }

    func contains(_ id: Int64) -> Bool { quaketui_idset_contains(storage, id) != 0 }

    /// Adds `id`.
    /// - Throws: `SQLiteError` (`SQLITE_RANGE` for an id below 0 or from 2^28 on — 32 MB of
    ///   bitmap, which no store of quaketui's numbers reaches — `SQLITE_NOMEM` with no room).
    func insert(_ id: Int64) throws(SQLiteError) {
        let rc = quaketui_idset_insert(storage, id)
        guard rc == 0 else { throw SQLiteError(extendedCode: rc, message: "row id \(id) cannot join the match set") }
    }

    func remove(_ id: Int64) { quaketui_idset_remove(storage, id) }

    /// Frees the bucket counts (up to 8 MB for matches spread over decades of 15-minute
    /// buckets), once the sections are built from them; the set stays.
    func forgetBucketCounts() { quaketui_buckets_free(buckets) }

    /// Empties the set and its bucket counts.
    func removeAll() {
        quaketui_idset_clear(storage)
        quaketui_buckets_free(buckets)
    }

    /// Makes this set a copy of `other` (to put a set back after a failed request).
    /// - Throws: `SQLiteError` (`SQLITE_NOMEM`); the set is then unchanged.
    func assign(_ other: MatchSet) throws(SQLiteError) {
        let rc = quaketui_idset_copy(storage, other.storage)
        guard rc == 0 else { throw SQLiteError(extendedCode: rc, message: "no memory to copy the match set") }
    }

    /// The ids in ascending order.
    var ids: some Sequence<Int64> {
        sequence(state: Int64(0)) { [storage] from -> Int64? in
            let id = quaketui_idset_next(storage, from)
            guard id >= 0 else { return nil }
            from = id + 1
            return id
        }
    }
}
