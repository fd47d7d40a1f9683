import Foundation

/// Who writes the store and who waits to: a small side file next to it (`quakes.sqlite-queue`),
/// so that SQLite's one write lock is shared fairly and a wait can name what it waits for.
///
/// - A writer waiting for the lock (SQLite's busy handler, ``LockWait``) holds a shared
///   `flock` on the file until it has the lock; a writer about to begin a transaction, or a
///   long job between two of its batches, first lets every such waiter go (``yieldToWaiters()``).
///   SQLite's own busy handler polls ever more slowly (up to every 100 ms) and a writer that
///   commits and begins again at once would keep the lock from it for as long as the job runs.
/// - The writer holding the lock writes its author and process id into the file for the time of
///   its transaction (``markHolder(_:)``), so a writer behind it can say "quaketui delete
///   (pid 4242) is writing the store" and keep waiting while that process lives.
///
/// Everything is best effort: a queue file that cannot be opened or written (a read-only
/// directory, an injected EIO) leaves writers waiting as SQLite's busy handler alone would.
/// flock(2) locks belong to the open file description and go when the process dies.
final class WriterQueue: @unchecked Sendable {
    // @unchecked: `fd` is set once; flock, pread and pwrite on it are thread-safe.
    private let fd: Int32

    static let suffix = "-queue"

    /// Opens (creating, 0600) the queue file of the store at `storePath`; nil when it cannot be
    /// opened or is not a regular file (never following a link).
    init?(storePath: String) {
        let path = storePath + Self.suffix
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Says this writer waits for the lock (a shared lock on the file, not blocking).
    func announceWaiting() { _ = flock(fd, LOCK_SH | LOCK_NB) }

    /// Says this writer no longer waits (it has the lock, or gave up).
    func stopWaiting() { _ = flock(fd, LOCK_UN) }

    /// Whether another writer (in any process, this one included) is waiting for the lock.
    var someoneIsWaiting: Bool {
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// Waits, up to `limit` seconds, until no writer waits for the lock any more: each one
    /// that was waiting has taken it (it stops waiting as soon as it has). A waiter polls every
    /// few milliseconds (``LockWait``), so this is a few milliseconds per waiter.
    func yieldToWaiters(limit: TimeInterval = 1) {
        guard someoneIsWaiting else { return }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limit * 1e9)
        repeat { usleep(1_000) } while someoneIsWaiting && DispatchTime.now().uptimeNanoseconds < deadline
    }

    /// Records `author` and this process as the lock's holder, for writers waiting behind it.
    func markHolder(_ author: String) {
        let text = Array("\(author) \(getpid())\n".utf8)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(fd, off_t(text.count))
    }

    /// Clears the holder once its transaction has ended.
    func clearHolder() { _ = ftruncate(fd, 0) }

    /// The quaketui writer that holds the lock, if one says so and its process lives.
    var holder: WriteLockHolder? {
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return WriteLockHolder(parsing: String(decoding: buffer[..<count], as: UTF8.self))
            .flatMap { $0.isAlive ? $0 : nil }
    }
}

/// The quaketui process writing the store, as it says in the queue file: `delete 4242`.
public struct WriteLockHolder: Sendable, Equatable {
    /// The writer's author: the command (`delete`, `import`, `fetch`, `refresh`) or `notes`.
    public let author: String
    public let pid: Int32

    public init(author: String, pid: Int32) {
        self.author = author
        self.pid = pid
    }

    /// Reads `author pid` and a line feed; nil for anything else.
    init?(parsing text: String) {
        let words = text.split(separator: " ")
        guard text.hasSuffix("\n"), words.count == 2, let pid = Int32(words[1].dropLast()), pid > 0,
              words[0].allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
        self.init(author: String(words[0]), pid: pid)
    }

    /// "quaketui delete (pid 4242)", or "a quaketui browser saving notes (pid 4242)".
    public var description: String {
        author == "notes" ? "a quaketui browser saving notes (pid \(pid))" : "quaketui \(author) (pid \(pid))"
    }

    var isAlive: Bool { kill(pid, 0) == 0 || errno == EPERM }
}
