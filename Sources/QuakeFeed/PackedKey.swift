/// A member name packed into two words for cheap comparison: bytes 0–7, then bytes 8–14
/// with the length in the top byte. Names longer than 15 bytes never match a known key.
struct PackedKey: Equatable {
    var lo: UInt64
    var hi: UInt64

    static let unknown = PackedKey(lo: .max, hi: .max)

    init(lo: UInt64, hi: UInt64) {
        self.lo = lo
        self.hi = hi
    }

    init(_ name: String) {
        var bytes = Array(name.utf8)
        precondition(bytes.count <= 15)
        let count = bytes.count
        bytes += [UInt8](repeating: 0, count: 16 - count)
        self = bytes.withUnsafeBufferPointer { PackedKey.pack($0.baseAddress!, count) }
    }

    /// Packs `count` bytes at `p` with two unaligned loads; `p` must have 16 readable bytes
    /// (ByteInput's buffer is padded for this).
    @inline(__always) static func packPadded(_ p: UnsafePointer<UInt8>, _ count: Int) -> PackedKey {
        guard count <= 15 else { return .unknown }
        var lo = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        var hi = UnsafeRawPointer(p + 8).loadUnaligned(as: UInt64.self)
        if count < 8 {
            lo &= (1 &<< UInt64(count &* 8)) &- 1
            hi = 0
        } else {
            hi &= (1 &<< UInt64((count &- 8) &* 8)) &- 1
        }
        return PackedKey(lo: lo, hi: hi | UInt64(count) &<< 56)
    }

    @inline(__always) static func pack(_ p: UnsafePointer<UInt8>, _ count: Int) -> PackedKey {
        guard count <= 15 else { return .unknown }
        var lo: UInt64 = 0, hi: UInt64 = 0
        var i = 0
        while i < count && i < 8 {
            lo |= UInt64(p[i]) << (UInt64(i) &* 8)
            i &+= 1
        }
        while i < count {
            hi |= UInt64(p[i]) << (UInt64(i &- 8) &* 8)
            i &+= 1
        }
        hi |= UInt64(count) << 56
        return PackedKey(lo: lo, hi: hi)
    }
}
