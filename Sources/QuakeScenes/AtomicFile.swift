import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and crash-safe whole-file replacement for the small state files.
///
/// ```swift
/// try AtomicFile.write(data, to: "/state/scenes/main.plist")
/// ```
///
/// A write goes to a temporary file in the same directory, is `fsync`ed, renamed over the
/// target and the directory is `fsync`ed, so a `kill -9` (or power loss) at any point leaves
/// either the old or the new file, never a torn one. rename(2) is atomic within one file system.
enum AtomicFile {
    /// The prefix of temporary files, so the catalogue and cleanup can recognise them.
    static let temporaryPrefix = ".tmp-"

    /// Replaces the file at `path` with `data` atomically and durably, mode 0600.
    ///
    /// - Throws: ``QuakeScenesError`` with code `fileOperationFailed` naming the path.
    static func write(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = directory + "/" + temporaryPrefix + name + "-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let fd = retryingInterrupted { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure(temporary, "open") }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        do {
            try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < buffer.count {
                    let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw failure(temporary, "write")
                    }
                    offset += n
                }
            }
            guard retryingInterrupted({ fsync(fd) }) == 0 else { throw failure(temporary, "fsync") }
            closed = true
            guard close(fd) == 0 else { throw failure(temporary, "close") }
            guard retryingInterrupted({ rename(temporary, path) }) == 0 else { throw failure(path, "rename") }
        } catch {
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
    }

    /// `fsync`s a directory so a rename or unlink in it survives power loss; failures are ignored
    /// because some file systems refuse directory fsync and the rename itself already happened.
    static func syncDirectory(_ directory: String) {
        let dfd = retryingInterrupted { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if dfd >= 0 {
            _ = retryingInterrupted { fsync(dfd) }
            close(dfd)
        }
    }

    /// Reads a whole file, or returns nil if it does not exist.
    ///
    /// - Parameter limit: read at most this many bytes plus one, so an oversized file is
    ///   detected without reading all of it.
    /// - Throws: ``QuakeScenesError`` `fileOperationFailed` when opening or reading still fails
    ///   after ``readAttempts`` tries (a transient `EIO` or `EINTR` is tried again, from the start:
    ///   issue 29), `unsafeStateFile` for a link, FIFO or device.
    static func read(_ path: String, limit: Int) throws -> Data? {
        var attempt = 1
        while true {
            do {
                return try readOnce(path, limit: limit)
            } catch let error as QuakeScenesError where error.code == .fileOperationFailed && attempt < readAttempts {
                attempt += 1
            }
        }
    }

    /// How many times ``read(_:limit:)`` tries a file before reporting an I/O error.
    static let readAttempts = 3

    private static func readOnce(_ path: String, limit: Int) throws -> Data? {
        guard let fd = try openStateFile(path, O_RDONLY) else { return nil }
        defer { close(fd) }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while result.count <= limit {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(path, "read")
            }
            if n == 0 { break }
            result.append(contentsOf: buffer[0..<n])
        }
        return result
    }

    /// Removes leftover temporary files for `name` in `directory` whose writer process is gone
    /// (a writer killed between creating and renaming its temporary file leaves one behind).
    static func removeStaleTemporaries(for name: String, in directory: String) {
        let prefix = temporaryPrefix + name + "-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }) else { continue }
            if pid != getpid() && !ProcessLiveness.isAlive(pid) {
                unlink(directory + "/" + entry)
            }
        }
    }

    /// Opens a state file safely: never through a symbolic link (`O_NOFOLLOW`), never blocking
    /// (`O_NONBLOCK`, so a FIFO cannot hang the app), and only if it is a regular file. The
    /// descriptor is blocking again when returned. Nil when `path` does not exist and `flags`
    /// does not create it.
    ///
    /// The corresponding C functions are `open`, `openat` and `fstat`.
    /// - Throws: ``QuakeScenesError`` `unsafeStateFile` for a link, FIFO, device, directory or
    ///   socket; `fileOperationFailed` for other failures.
    static func openStateFile(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws -> Int32? {
        // openat relative to the directory, opened once: inside `scenes/` (ours, never a link)
        // the directory is opened O_NOFOLLOW too, so swapping it for a link in between is refused.
        let directory = (path as NSString).deletingLastPathComponent
        let isScenes = (directory as NSString).lastPathComponent == "scenes"
        let dfd = retryingInterrupted {
            open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (isScenes ? O_NOFOLLOW : 0))
        }
        if dfd < 0 {
            let code = errno
            if code == ENOENT && flags & O_CREAT == 0 { return nil }
            if isScenes, code == ELOOP || code == ENOTDIR, let kind = unsafeKind(directory) {
                throw QuakeScenesError(.unsafeStateFile, path: directory, detail: kind)
            }
            errno = code
            throw failure(directory, "open")
        }
        defer { close(dfd) }
        let fd = retryingInterrupted { openat(dfd, (path as NSString).lastPathComponent, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode) }
        if fd < 0 {
            let code = errno
            if code == ENOENT && flags & O_CREAT == 0 { return nil }
            if code == ELOOP || code == ENXIO || code == EISDIR, let kind = unsafeKind(path) {
                throw QuakeScenesError(.unsafeStateFile, path: path, detail: kind)
            }
            errno = code
            throw failure(path, "open")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = failure(path, "fstat")
            close(fd)
            throw error
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw QuakeScenesError(.unsafeStateFile, path: path, detail: kindName(info.st_mode))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// What the entry at `path` is, if it is not a regular file ("a symbolic link", "a FIFO"…).
    static func unsafeKind(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
        return kindName(info.st_mode)
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }

    /// A `fileOperationFailed` error for the current `errno`.
    static func failure(_ path: String, _ call: String) -> QuakeScenesError {
        QuakeScenesError(.fileOperationFailed, path: path, errno: errno, detail: "\(call) failed")
    }
}
