import CZlib

/// Why a compressed stream could not be inflated; ``ByteInput`` turns it into a
/// ``FeedError`` with code ``FeedError/Code/corruptCompressedData`` and the text position.
struct GzipFailure: Error, CustomStringConvertible {
    /// What zlib (or the stream's end) said, e.g. `invalid distance too far back`.
    var message: String
    /// Offset in the compressed input where it was noticed.
    var compressedOffset: Int64
    /// The inflated size passed the limit (a decompression bomb), rather than corrupt data.
    var isTooLarge = false
    var description: String { message }
}

/// Inflates gzip (or zlib) data from `upstream` as a ``FeedByteStream``.
///
/// Uses `inflateInit2` with windowBits 15+32 so zlib detects the gzip or zlib header itself,
/// and continues after each member's end so concatenated gzip members (`cat a.gz b.gz`, as
/// RFC 1952 §2.2 allows) read as one stream. A stream that ends inside a member is an error,
/// not a silent short read. This is the only file that imports `CZlib`.
final class GzipInflater: FeedByteStream {
    private let upstream: any FeedByteStream
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity: Int
    private var upstreamEnded = false
    /// Inside a member (header seen, end not yet).
    private var inMember = false
    /// A member ended; the next input starts a new one after `inflateReset`.
    private var memberEnded = false
    private var consumed: Int64 = 0
    /// Bytes inflated so far.
    private var produced: Int64 = 0
    /// At most `allowance + ratio × consumed` bytes may come out: a feed compresses about 10×,
    /// a bomb 1000× — stopping it bounds the time spent, not only the memory.
    private let ratio: Int64
    private let allowance: Int64

    init(upstream: any FeedByteStream, chunkSize: Int, maximumRatio: Int64 = 100,
         allowance: Int64 = 64 << 20) throws(GzipFailure) {
        self.upstream = upstream
        ratio = max(1, maximumRatio)
        self.allowance = max(0, allowance)
        inputCapacity = max(1, chunkSize)
        input = .allocate(capacity: inputCapacity)
        // z_stream keeps a back pointer to itself, so it must not move: allocate it.
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // The corresponding C function is `inflateInit2` (a macro, wrapped by the shim).
        let rc = quaketui_inflateInit2(stream, 15 + 32)
        guard rc == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            input.deallocate()
            throw GzipFailure(message: "zlib could not start (inflateInit2 returned \(rc))", compressedOffset: 0)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        stream.pointee.next_out = out
        stream.pointee.avail_out = UInt32(clamping: buffer.count)
        let capacity = Int(stream.pointee.avail_out)
        while Int(stream.pointee.avail_out) == capacity {
            if stream.pointee.avail_in == 0 {
                if upstreamEnded {
                    if inMember {
                        throw GzipFailure(message: "the compressed stream ends before its end marker",
                                          compressedOffset: consumed)
                    }
                    return 0
                }
                let n = try upstream.read(into: UnsafeMutableRawBufferPointer(start: input, count: inputCapacity))
                if n == 0 {
                    upstreamEnded = true
                    continue
                }
                stream.pointee.next_in = input
                stream.pointee.avail_in = UInt32(n)
            }
            if memberEnded {
                // The corresponding C function is `inflateReset`; it fails only on a broken stream state.
                let reset = inflateReset(stream)
                guard reset == Z_OK else {
                    throw GzipFailure(message: "zlib could not start the next member (inflateReset returned \(reset))",
                                      compressedOffset: consumed)
                }
                memberEnded = false
            }
            inMember = true
            let before = stream.pointee.avail_in
            // The corresponding C function is `inflate`.
            let rc = inflate(stream, Z_NO_FLUSH)
            consumed += Int64(before - stream.pointee.avail_in)
            switch rc {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                inMember = false
                memberEnded = true
            case Z_NEED_DICT:
                throw GzipFailure(message: "the zlib stream needs a preset dictionary", compressedOffset: consumed)
            case Z_MEM_ERROR:
                throw GzipFailure(message: "zlib ran out of memory", compressedOffset: consumed)
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "error \(rc)"
                throw GzipFailure(message: "corrupt compressed data at compressed byte \(consumed) (zlib: \(detail))",
                                  compressedOffset: consumed)
            }
        }
        let n = capacity - Int(stream.pointee.avail_out)
        produced += Int64(n)
        let (scaled, overflow) = ratio.multipliedReportingOverflow(by: consumed)
        if !overflow, produced > allowance &+ scaled {
            throw GzipFailure(
                message: "the compressed data inflates to more than \(ratio)× its size plus \(allowance >> 20) MiB "
                    + "(\(produced >> 20) MiB from \(consumed >> 10) KiB so far): a decompression bomb, not a feed",
                compressedOffset: consumed, isTooLarge: true)
        }
        return n
    }
}
