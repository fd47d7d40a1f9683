/// Passes UTF-8 through untouched and turns UTF-16 (little or big endian, with a byte order
/// mark, as Windows tools save "Unicode" text) into UTF-8, so every parser reads UTF-8.
///
/// The encoding is decided once, from the first two bytes: `FF FE` is UTF-16LE, `FE FF` is
/// UTF-16BE; anything else is UTF-8 (a UTF-8 byte order mark is left for the sniffer, which
/// skips it). The UTF-16 byte order mark itself is dropped. Positions in errors then count
/// bytes of the UTF-8 text (lines are the same; columns are UTF-8 byte columns). A lone
/// surrogate becomes U+FFFD; an odd trailing byte is dropped.
///
/// The pass-through costs one extra call per chunk; nothing is copied.
final class TextDecodingStream: FeedByteStream {
    enum Encoding: Equatable {
        case utf8, utf16LittleEndian, utf16BigEndian
    }

    private let upstream: any FeedByteStream
    private(set) var encoding: Encoding?
    /// Bytes read while deciding, served before anything else.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Raw UTF-16 input not yet decoded (at most one odd byte carries over).
    private var raw: [UInt8]
    private var carry: [UInt8] = []
    private var highSurrogate: UInt16?
    private var atEnd = false

    init(_ upstream: any FeedByteStream, chunkSize: Int) {
        self.upstream = upstream
        raw = []
        raw.reserveCapacity(max(2, chunkSize))
    }

    var totalBytes: Int64? { upstream.totalBytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if encoding == nil { try decide() }
        if pendingStart < pending.count {
            let n = min(buffer.count, pending.count - pendingStart)
            pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + pendingStart, byteCount: n) }
            pendingStart += n
            if pendingStart == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
            }
            return n
        }
        if encoding == .utf8 { return try upstream.read(into: buffer) }
        // UTF-16: decode the next chunk into `pending`, then serve it.
        while pending.isEmpty {
            if atEnd { return 0 }
            try decodeNextChunk(size: max(2, buffer.count))
        }
        return try read(into: buffer)
    }

    private func decide() throws {
        var head: [UInt8] = []
        var byte = [UInt8](repeating: 0, count: 2)
        while head.count < 2 {
            let n = try byte.withUnsafeMutableBytes { try upstream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(2 - head.count)])) }
            if n == 0 { break }
            head += byte[0..<n]
        }
        switch (head.first, head.dropFirst().first) {
        case (0xFF, 0xFE): encoding = .utf16LittleEndian
        case (0xFE, 0xFF): encoding = .utf16BigEndian
        default:
            encoding = .utf8
            pending = head
        }
    }

    private func decodeNextChunk(size: Int) throws {
        raw.removeAll(keepingCapacity: true)
        raw += carry
        carry.removeAll()
        let want = max(2, size / 2 * 2)
        var chunk = [UInt8](repeating: 0, count: want)
        let n = try chunk.withUnsafeMutableBytes { try upstream.read(into: $0) }
        if n == 0 {
            atEnd = true
            if highSurrogate != nil { append(0xFFFD) }
            highSurrogate = nil
            return
        }
        raw += chunk[0..<n]
        if raw.count % 2 == 1 { carry = [raw.removeLast()] }
        let bigEndian = encoding == .utf16BigEndian
        var i = 0
        while i + 1 < raw.count {
            let unit = bigEndian ? UInt16(raw[i]) << 8 | UInt16(raw[i + 1]) : UInt16(raw[i + 1]) << 8 | UInt16(raw[i])
            i += 2
            if let high = highSurrogate {
                highSurrogate = nil
                if (0xDC00...0xDFFF).contains(unit) {
                    append(0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00))
                    continue
                }
                append(0xFFFD)
            }
            if (0xD800...0xDBFF).contains(unit) {
                highSurrogate = unit
            } else if (0xDC00...0xDFFF).contains(unit) {
                append(0xFFFD)
            } else {
                append(UInt32(unit))
            }
        }
    }

    @inline(__always) private func append(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            pending.append(UInt8(scalar))
        case 0x80..<0x800:
            pending.append(UInt8(0xC0 | scalar >> 6))
            pending.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            pending.append(UInt8(0xE0 | scalar >> 12))
            pending.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            pending.append(UInt8(0x80 | scalar & 0x3F))
        default:
            pending.append(UInt8(0xF0 | scalar >> 18))
            pending.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            pending.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            pending.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
