/// FNV-1a, 64 bits: the hash of a few bytes where speed matters more than spread (a dictionary of
/// region texts tallied per row, a snapshot file's checksum).
@inline(__always)
func fnv1a<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }
    return hash
}
