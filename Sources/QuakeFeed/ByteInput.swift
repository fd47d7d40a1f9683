/// A chunked, forward-only byte buffer over a ``FeedByteStream`` that knows its line and column.
///
/// Memory is one fixed buffer of `chunkSize` bytes plus a scratch area for one string value,
/// whatever the input size. Parsers read `buffer[pos..<end]` directly through the pointer
/// (no per-byte calls in hot loops) and call ``refill()`` when `pos == end`.
///
/// Lines are counted where newlines can legally occur: JSON whitespace and CSV records /
/// quoted fields, so counting costs nothing on the hot string and number paths. A raw
/// newline inside a JSON string is an error reported before it would be counted.
final class ByteInput {
    let name: String
    private let stream: any FeedByteStream
    /// `capacity` bytes of input followed by 16 readable padding bytes.
    let buffer: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Next unread byte.
    var pos = 0
    /// One past the last valid byte.
    var end = 0
    /// Absolute offset of `buffer[0]` in the (decompressed) input.
    var base: Int64 = 0
    /// Current 1-based line and the absolute offset where it starts.
    var line = 1
    var lineStart: Int64 = 0
    private var atEOF = false

    /// Bytes of the current string or CSV field that are being kept.
    let scratch: UnsafeMutablePointer<UInt8>
    let scratchCapacity: Int
    var scratchCount = 0
    /// Set when a kept value exceeded `scratchCapacity`; its tail was dropped.
    var scratchOverflowed = false
    /// Bytes of the number literal being read (numbers are short; see `maximumNumberLength`).
    let numberScratch: UnsafeMutablePointer<UInt8>
    static let maximumNumberLength = 512
    /// Open containers while a value is being skipped (`{` or `[`), at most `maximumDepth`.
    let containerStack: UnsafeMutablePointer<UInt8>
    let maximumDepth: Int
    /// Bytes in the last CSV field read (kept or not).
    var lastFieldLength = 0

    init(name: String, stream: any FeedByteStream, chunkSize: Int, maximumStringLength: Int, maximumDepth: Int) {
        self.name = name
        self.stream = stream
        capacity = max(1, chunkSize)
        // 16 spare bytes so word-at-a-time code may read past `end` (the excess is masked off).
        buffer = .allocate(capacity: capacity + 16)
        buffer.initialize(repeating: 0, count: capacity + 16)
        scratchCapacity = maximumStringLength
        // +4 so one encoded scalar always fits after the limit check.
        scratch = .allocate(capacity: maximumStringLength + 4)
        numberScratch = .allocate(capacity: Self.maximumNumberLength + 1)
        self.maximumDepth = max(1, maximumDepth)
        containerStack = .allocate(capacity: self.maximumDepth)
    }

    deinit {
        buffer.deallocate()
        scratch.deallocate()
        numberScratch.deallocate()
        containerStack.deallocate()
    }

    /// The absolute offset of the next unread byte.
    @inline(__always) var offset: Int64 { base + Int64(pos) }

    /// Makes at least one byte available; false at the end of input.
    @inline(__always) func ensure() throws(FeedError) -> Bool {
        if pos < end { return true }
        return try refill()
    }

    /// Discards the consumed buffer and reads the next chunk; false at the end of input.
    func refill() throws(FeedError) -> Bool {
        base += Int64(end)
        pos = 0
        end = 0
        if atEOF { return false }
        while true {
            let n: Int
            do {
                n = try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
            } catch let failure as GzipFailure where failure.isTooLarge {
                throw error(.decompressedTooLarge, failure.message,
                            hint: "if it really is a feed, raise the limit with QUAKETUI_MAX_INFLATION_RATIO=N (default \(FeedReader.maximumInflationRatio))",
                            underlying: failure)
            } catch let failure as GzipFailure {
                throw error(.corruptCompressedData, failure.message,
                            hint: "the compressed file is damaged or incomplete — download it again",
                            underlying: failure)
            } catch {
                throw self.error(.readFailed, "read failed: \(error)", underlying: error)
            }
            if n > 0 {
                end = n
                return true
            }
            atEOF = true
            return false
        }
    }

    // MARK: - Positions and errors

    /// Line and column of an absolute offset on the current line.
    func position(at offset: Int64) -> (line: Int, column: Int) {
        (line, Int(max(0, offset - lineStart)) + 1)
    }

    func error(_ code: FeedError.Code, _ message: String, at offset: Int64? = nil,
               hint: String? = nil, underlying: (any Error)? = nil) -> FeedError {
        let at = offset ?? self.offset
        let (line, column) = position(at: at)
        return FeedError(code: code, name: name, line: line, column: column, offset: at,
                         message: message, hint: hint, underlyingError: underlying)
    }

    /// The error for input that ends where `context` ("inside a string") needed more.
    func unexpectedEnd(_ context: String) -> FeedError {
        error(.unexpectedEnd, "unexpected end of input \(context)",
              hint: "the file looks truncated — download it again")
    }

    // MARK: - Scratch

    @inline(__always) func resetScratch() {
        scratchCount = 0
        scratchOverflowed = false
    }

    @inline(__always) func appendScratch(_ from: UnsafePointer<UInt8>, _ count: Int) {
        guard count > 0 else { return }
        if scratchOverflowed || scratchCount + count > scratchCapacity {
            scratchOverflowed = true
            return
        }
        (scratch + scratchCount).update(from: from, count: count)
        scratchCount += count
    }

    @inline(__always) func appendScratch(_ byte: UInt8) {
        if scratchOverflowed || scratchCount >= scratchCapacity {
            scratchOverflowed = true
            return
        }
        scratch[scratchCount] = byte
        scratchCount += 1
    }

    func scratchString() -> String {
        String(decoding: UnsafeBufferPointer(start: scratch, count: scratchCount), as: UTF8.self)
    }
}

/// Describes a byte for error messages: `'x'`, `'\n'` or `byte 0x89`.
func describeByte(_ byte: UInt8) -> String {
    switch byte {
    case 0x0A: return "a newline"
    case 0x0D: return "a carriage return"
    case 0x09: return "a tab"
    case 0x20: return "a space"
    case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
    default: return "byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
