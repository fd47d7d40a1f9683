#if canImport(Glibc)
import Glibc
#endif

/// A byte stream a ``FeedReader`` can pull from: an HTTP body, a pipe, a test fixture.
///
/// `refresh` streams a download through this: `read(into:)` fills the buffer with the next
/// bytes and returns how many it wrote, or 0 at the end of the stream. It may return fewer
/// bytes than the buffer holds; it should block until at least one byte is available.
///
/// ```swift
/// final class Body: FeedByteStream {
///     func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { … }
/// }
/// let reader = try FeedReader(source: .stream(Body()), name: url)
/// ```
public protocol FeedByteStream: AnyObject {
    /// Fills the start of `buffer` and returns the number of bytes written; 0 means end of input.
    /// - Throws: any error; the reader reports it as ``FeedError/Code/readFailed`` with its position.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// The total size in bytes if known (a `Content-Length`), for progress; `nil` by default.
    var totalBytes: Int64? { get }
}

extension FeedByteStream {
    public var totalBytes: Int64? { nil }
}

/// Where a ``FeedReader`` gets its bytes. The format is sniffed from the bytes, never from a name.
///
/// Not `Sendable`: a stream and a closure are owned by the one reader that reads them.
///
/// ```swift
/// FeedSource.path("all_month.geojson")
/// FeedSource(argument: "-")            // standard input
/// FeedSource.bytes(Array(text.utf8))
/// ```
public enum FeedSource {
    /// A file on disk. The reader opens it and closes it when it is deinitialized.
    case path(String)
    /// The process's standard input (fd 0), not closed by the reader.
    case standardInput
    /// An open file descriptor owned by the caller, not closed by the reader.
    case fileDescriptor(Int32)
    /// Any byte stream.
    case stream(any FeedByteStream)
    /// Bytes in memory (tests, small documents).
    case bytes([UInt8])

    /// The source for a command-line argument: `-` is standard input, anything else a path.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .path(argument)
    }

    /// A source that calls `read` to fill each buffer (returning 0 at the end).
    public static func reading(totalBytes: Int64? = nil,
                               _ read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) -> FeedSource {
        .stream(ClosureByteStream(totalBytes: totalBytes, read: read))
    }
}

@available(*, unavailable)
extension FeedSource: Sendable {}
