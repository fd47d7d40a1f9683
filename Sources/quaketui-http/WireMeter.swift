import Foundation

/// Counts the bytes that came over this process's TCP connections: what the server actually
/// sent, before curl undoes a `Content-Encoding`. URLSession hands over decoded bytes only, so
/// this is how the helper knows a response's size on the wire (issue 29: a gzip-encoded bomb).
///
/// The count is the kernel's per-connection `tcpi_bytes_received` (Linux 4.1+, `TCP_INFO`)
/// less what still waits unread in the socket (`FIONREAD`): the bytes curl has consumed. Each
/// TCP socket found in `/proc/self/fd` is duplicated, so its count survives curl closing it.
/// A connection already open when the meter is made (kept alive from an earlier download of a
/// session) counts from then on.
final class WireMeter: @unchecked Sendable {
    // @unchecked: `sockets` and `baselines` are only touched under `lock`.
    private let lock = NSLock()
    /// The socket's inode → our duplicate of its descriptor.
    private var sockets: [UInt64: Int32] = [:]
    /// The counts of the connections open before this meter, by inode.
    private var baselines: [UInt64: (received: Int64, consumed: Int64)] = [:]

    init() {
        scan()
        lock.lock()
        defer { lock.unlock() }
        for (inode, fd) in sockets {
            guard let (total, unread) = Self.counts(fd) else { continue }
            baselines[inode] = (total, max(0, total - unread))
        }
    }

    /// `offsetof(struct tcp_info, tcpi_bytes_received)` in `<linux/tcp.h>`: the kernel's ABI only
    /// ever appends to `tcp_info`, and glibc's copy of the struct stops before this field.
    private static let bytesReceivedOffset = 128
    private static let socketType: mode_t = 0o140000  // S_IFSOCK

    // Our duplicates keep their connections open: a session's next download must not inherit them.
    deinit {
        for fd in sockets.values { close(fd) }
    }

    /// Looks for TCP sockets not seen yet (a new connection, a redirect's) and keeps them.
    func scan() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        lock.lock()
        defer { lock.unlock() }
        for name in names {
            guard let fd = Int32(name), fd > 2 else { continue }
            var status = stat()
            guard fstat(fd, &status) == 0, status.st_mode & 0o170000 == Self.socketType,
                  sockets[UInt64(status.st_ino)] == nil, Self.counts(fd) != nil else { continue }
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 3)
            if copy >= 0 { sockets[UInt64(status.st_ino)] = copy }
        }
    }

    /// Bytes received from the network so far, and of those the ones curl has read.
    var totals: (received: Int64, consumed: Int64) {
        lock.lock()
        defer { lock.unlock() }
        var received: Int64 = 0, consumed: Int64 = 0
        for (inode, fd) in sockets {
            guard let (total, unread) = Self.counts(fd) else { continue }
            let base = baselines[inode] ?? (0, 0)
            received += total - base.received
            consumed += max(0, total - unread) - base.consumed
        }
        return (received, consumed)
    }

    /// Whether any TCP connection was found.
    var isMeasuring: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !sockets.isEmpty
    }

    /// `tcpi_bytes_received` and the unread bytes of a TCP socket; nil for anything else.
    /// The corresponding C calls are `getsockopt(fd, IPPROTO_TCP, TCP_INFO, …)` and `ioctl(fd, FIONREAD, …)`.
    private static func counts(_ fd: Int32) -> (Int64, Int64)? {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        let rc = info.withUnsafeMutableBytes { getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, $0.baseAddress, &length) }
        guard rc == 0, Int(length) >= bytesReceivedOffset + 8 else { return nil }
        let received = info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: bytesReceivedOffset, as: UInt64.self) }
        var unread: Int32 = 0
        if ioctl(fd, UInt(FIONREAD), &unread) != 0 { unread = 0 }
        return (Int64(clamping: received), Int64(unread))
    }
}
