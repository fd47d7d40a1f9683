import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An advisory `flock(2)` on a lock file, released by ``unlock()`` or `deinit`.
///
/// ```swift
/// let lock = try FileLock.acquire("/state/.defaults.lock")   // blocks until exclusive
/// defer { lock.unlock() }
/// ```
///
/// flock locks belong to the open file description, so two opens in one process conflict just
/// as two processes do. The file is opened `O_CLOEXEC` so child processes never inherit a lock.
/// `@unchecked Sendable`: the descriptor is only changed under `mutex`.
final class FileLock: @unchecked Sendable {
    private let mutex = NSLock()
    private var fd: Int32
    /// The lock file's path.
    let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        Self.heldHere.insert(path)
    }

    deinit { unlock() }

    /// Opens (creating, mode 0600) and exclusively locks `path`, waiting for other holders.
    /// A symbolic link, FIFO or other non-regular file at `path` is refused
    /// (``QuakeScenesError/Code/unsafeStateFile``), never followed.
    ///
    /// The corresponding C functions are `open` and `flock(LOCK_EX)`.
    static func acquire(_ path: String) throws -> FileLock {
        guard let lock = try acquire(path, wait: true) else {
            throw AtomicFile.failure(path, "flock")
        }
        return lock
    }

    /// Tries to lock `path` without waiting; nil if another open file description holds it.
    ///
    /// After locking it checks that `path` still names the locked file: a `scenes rm` may
    /// have unlinked it in between, in which case the lock is worthless and we retry.
    static func acquire(_ path: String, wait: Bool) throws -> FileLock? {
        while true {
            // Never through a link (a planted `ID.lock` link would truncate its target), never a FIFO.
            guard let fd = try AtomicFile.openStateFile(path, O_RDWR | O_CREAT) else { throw AtomicFile.failure(path, "open") }
            var result: Int32
            repeat {
                result = flock(fd, wait ? LOCK_EX : (LOCK_EX | LOCK_NB))
            } while result != 0 && errno == EINTR
            if result != 0 {
                let code = errno
                close(fd)
                if code == EWOULDBLOCK { return nil }
                errno = code
                throw AtomicFile.failure(path, "flock")
            }
            var held = stat()
            var named = stat()
            if fstat(fd, &held) == 0, lstat(path, &named) == 0,
               held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                return FileLock(fd: fd, path: path)
            }
            close(fd)
        }
    }

    /// Locks `path` and writes this process's PID into it, unless a live process holds it:
    /// another one, or this one through a `FileLock` it has not unlocked. Returns nil then, at once.
    ///
    /// Any other holder is passing, so it is waited out (every 10 ms, for up to 2 s on a loaded
    /// machine): a probe (`scenes list`), a holder that has not written its PID yet, or a child
    /// being spawned, which holds a copy of its parent's descriptor until its `exec` (``unlock()``
    /// releases that copy's lock too; a holder that exits without unlocking does not).
    static func acquireUnlessHeld(_ path: String) throws -> FileLock? {
        for attempt in 0..<200 {
            if let lock = try acquire(path, wait: false) {
                lock.writeContents("\(getpid())\n")
                return lock
            }
            if let pid = holderPID(path), ProcessLiveness.isAlive(pid), pid != getpid() || heldHere.contains(path) {
                return nil
            }
            if attempt < 199 { usleep(10_000) }
        }
        return nil
    }

    /// The PID its holder wrote into the lock file at `path` (`acquireUnlessHeld`), if readable.
    static func holderPID(_ path: String) -> Int32? {
        guard let data = try? AtomicFile.read(path, limit: 64) else { return nil }
        return Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The paths this process holds a `FileLock` on.
    private static let heldHere = HeldPaths()

    /// Replaces the lock file's contents (e.g. with the holder's PID).
    func writeContents(_ text: String) {
        mutex.lock()
        defer { mutex.unlock() }
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) }
    }

    /// A second descriptor for the same open file description, as a child being spawned holds
    /// one until its `exec`. For tests.
    func duplicatedDescriptor() -> Int32 { mutex.withLock { dup(fd) } }

    /// Releases the lock, then closes the descriptor; safe to call twice.
    ///
    /// `LOCK_UN` first: a child another thread is spawning holds a copy of the descriptor until
    /// its `exec`, and closing ours alone would leave the lock held through that copy (flock
    /// belongs to the open file description, which the copy shares). `LOCK_UN` on any copy
    /// releases it for all of them.
    func unlock() {
        mutex.lock()
        defer { mutex.unlock() }
        guard fd >= 0 else { return }
        _ = flock(fd, LOCK_UN)
        close(fd)
        fd = -1
        Self.heldHere.remove(path)
    }
}

/// A set of paths shared by the threads of this process.
private final class HeldPaths: @unchecked Sendable {
    // @unchecked: `paths` is only touched under `mutex`.
    private let mutex = NSLock()
    private var paths: Set<String> = []

    func insert(_ path: String) { mutex.withLock { _ = paths.insert(path) } }
    func remove(_ path: String) { mutex.withLock { _ = paths.remove(path) } }
    func contains(_ path: String) -> Bool { mutex.withLock { paths.contains(path) } }
}
