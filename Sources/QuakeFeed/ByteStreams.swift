#if canImport(Glibc)
import Glibc
#endif

// The FeedByteStream implementations behind FeedSource, and the counting/peeking layer.

/// Adapts a closure to ``FeedByteStream``.
final class ClosureByteStream: FeedByteStream {
    let totalBytes: Int64?
    private let body: (UnsafeMutableRawBufferPointer) throws -> Int

    init(totalBytes: Int64?, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.totalBytes = totalBytes
        self.body = read
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try body(buffer) }
}

/// Reads a file descriptor with `read(2)`, retrying on `EINTR`; closes it in `deinit` if it owns it.
final class FileDescriptorStream: FeedByteStream {
    let fd: Int32
    let ownsDescriptor: Bool
    let totalBytes: Int64?

    init(fd: Int32, ownsDescriptor: Bool) {
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        var info = stat()
        // Only a regular file has a meaningful size; a pipe or terminal reports 0.
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            totalBytes = Int64(info.st_size)
        } else {
            totalBytes = nil
        }
    }

    /// Opens `path` read-only, again after `EINTR` (a signal came first: issue 57). The
    /// corresponding C function is `open`.
    static func open(path: String) throws(SystemError) -> FileDescriptorStream {
        var fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        for _ in 0..<100 where fd < 0 && errno == EINTR { fd = Glibc.open(path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 { throw SystemError(code: errno) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw SystemError(code: EISDIR)
        }
        return FileDescriptorStream(fd: fd, ownsDescriptor: true)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(code: errno)
        }
    }
}

/// Serves an in-memory array.
final class MemoryByteStream: FeedByteStream {
    private let bytes: [UInt8]
    private var position = 0
    var totalBytes: Int64? { Int64(bytes.count) }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - position)
        if n > 0 {
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: n)
            }
            position += n
        }
        return n
    }
}

/// Counts the raw bytes read from the source (for progress) and lets the sniffer put back
/// the bytes it peeked at.
final class CountingStream: FeedByteStream {
    private let base: any FeedByteStream
    private(set) var count: Int64 = 0
    private var pushback: [UInt8] = []
    private let maximumRead: Int

    init(_ base: any FeedByteStream, maximumRead: Int) {
        self.base = base
        self.maximumRead = max(1, maximumRead)
    }

    /// Reads up to `n` bytes (fewer only at the end), to be put back with `unread`.
    func peek(_ n: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: n)
        while result.count < n {
            let got = try chunk.withUnsafeMutableBytes { raw in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<(n - result.count)]))
            }
            if got == 0 { break }
            result += chunk[0..<got]
        }
        pushback = result + pushback
        return result
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if !pushback.isEmpty {
            let n = min(buffer.count, pushback.count)
            pushback.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
            pushback.removeFirst(n)
            return n
        }
        let limited = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, maximumRead)])
        let n = try base.read(into: limited)
        count += Int64(n)
        return n
    }
}
