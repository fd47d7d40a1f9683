/// FNV-1a, 64 bits: the hash of a few bytes where speed matters more than spread (a dictionary of
/// region texts tallied per row, a snapshot file's checksum, XML names, a fetch's `meta` key).
@inlinable
public func fnv1a<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
    var hash = fnv1aBasis
    for byte in bytes { hash = fnv1aStep(hash, byte) }
    return hash
}

/// FNV-1a's starting value, for a hash built a byte at a time as input is read (`fnv1aStep`).
@inlinable public var fnv1aBasis: UInt64 { 0xcbf2_9ce4_8422_2325 }

/// One byte into an FNV-1a hash.
@inlinable @inline(__always)
public func fnv1aStep(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
    (hash ^ UInt64(byte)) &* 0x0100_0000_01b3
}
