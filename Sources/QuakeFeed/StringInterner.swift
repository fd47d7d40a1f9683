/// Reuses the `String`s of short values that repeat from feature to feature — `status`,
/// `type`, `magType`, `net`, `alert` ("reviewed", "earthquake", "ml", "ak", "green") — so they
/// are validated and built once, not once per quake.
///
/// A direct-mapped cache of 64 slots keyed by the packed bytes (values of at most 15 bytes,
/// which Swift stores inline, so a hit costs no allocation and no reference counting).
final class StringInterner {
    private let keys: UnsafeMutablePointer<PackedKey>
    private let values: UnsafeMutablePointer<String>

    init() {
        keys = .allocate(capacity: 64)
        keys.initialize(repeating: .unknown, count: 64)
        values = .allocate(capacity: 64)
        values.initialize(repeating: "", count: 64)
    }

    deinit {
        keys.deallocate()
        values.deinitialize(count: 64)
        values.deallocate()
    }

    /// The string for the `count` bytes at `p` (which must have 16 readable bytes; `count` ≤ 15).
    @inline(__always) func string(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        let key = PackedKey.packPadded(p, count)
        let slot = Int(truncatingIfNeeded: ((key.lo ^ (key.hi &* 0x0100_0000_01B3)) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
        if keys[slot] == key { return values[slot] }
        let value = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        keys[slot] = key
        values[slot] = value
        return value
    }
}
