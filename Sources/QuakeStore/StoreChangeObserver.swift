import Foundation
import QuakeTime
#if canImport(Glibc)
import Glibc
#endif

/// Tells a process that another connection — in any process — committed to the store, so it
/// can merge the history after its last token. Like Core Data's remote change notification.
///
/// How it knows without busy-polling the disk: inotify on the state directory wakes it when
/// the WAL (or the database file) is written; it then asks its own idle connection for
/// `PRAGMA data_version`, which changes exactly when another connection committed
/// (https://www.sqlite.org/pragma.html#pragma_data_version). The file's size or mtime alone
/// would miss commits after a checkpoint resets the WAL. A slow safety check (every second)
/// covers file systems without inotify.
///
/// ```swift
/// let observer = try StoreChangeObserver(container: container) { print("store changed") }
/// defer { observer.stop() }
/// ```
public final class StoreChangeObserver: @unchecked Sendable {
    // @unchecked: all mutable state is confined to `queue`.
    private let queue = DispatchQueue(label: "quaketui.store.observer")
    private let connection: Connection
    private let onChange: @Sendable () -> Void
    private var lastVersion: Int64 = 0
    private var inotifyFD: Int32 = -1
    private var readSource: DispatchSourceRead?
    private var checkScheduled = false
    private var stopped = false
    private let storeFileName: String
    private let clock: AppClock
    private let safetyInterval: TimeInterval

    /// Starts observing. `onChange` runs on a private queue, once per detected change (several
    /// quick commits may be reported once).
    public init(container: PersistentContainer, safetyInterval: TimeInterval = 1,
                onChange: @escaping @Sendable () -> Void) throws(StoreError) {
        do {
            connection = try PersistentContainer.openConnection(path: container.path)
            lastVersion = try connection.scalar("PRAGMA data_version").int64 ?? 0
        } catch {
            throw StoreError(error, path: container.path)
        }
        self.onChange = onChange
        storeFileName = PersistentContainer.fileName
        clock = container.clock
        self.safetyInterval = safetyInterval
        queue.sync {
            startInotify(directory: container.directory.path)
            scheduleSafetyCheck()
        }
    }

    /// The slow safety check, again and again until stopped, on the container's clock.
    private func scheduleSafetyCheck() {
        clock.schedule(after: .milliseconds(Int(safetyInterval * 1000)), on: queue) { [weak self] in
            guard let self, !stopped else { return }
            check()
            scheduleSafetyCheck()
        }
    }

    deinit { assert(stopped, "StoreChangeObserver was not stopped") }

    /// Stops observing and closes the connection. No `onChange` runs after it returns.
    public func stop() {
        queue.sync {
            guard !stopped else { return }
            stopped = true
            readSource?.cancel()  // its cancel handler closes the inotify descriptor
            connection.close()
        }
    }

    private func startInotify(directory: String) {
        #if canImport(Glibc)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
        guard inotify_add_watch(fd, directory, mask) >= 0 else { close(fd); return }
        inotifyFD = fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in drainEvents() }
        source.setCancelHandler { close(fd) }
        source.resume()
        readSource = source
        #endif
    }

    private func drainEvents() {
        #if canImport(Glibc)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotifyFD, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (nameLength, name) = buffer.withUnsafeBytes { raw -> (Int, String) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = raw[start..<min(start + Int(event.len), count)].prefix { $0 != 0 }
                    return (Int(event.len), String(decoding: bytes, as: UTF8.self))
                }
                if name.hasPrefix(storeFileName) { relevant = true }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
        }
        // A large import writes the WAL thousands of times; coalesce into one check shortly after.
        if relevant && !checkScheduled {
            checkScheduled = true
            // Strong, not unowned: the owner may stop and release the observer within these
            // 5 ms (quitting right after a commit); `check()` then sees `stopped` and returns.
            clock.schedule(after: .milliseconds(5), on: queue) { [self] in
                checkScheduled = false
                check()
            }
        }
        #endif
    }

    private func check() {
        guard !stopped else { return }
        guard let version = try? connection.scalar("PRAGMA data_version").int64 else { return }
        if version != lastVersion {
            lastVersion = version
            onChange()
        }
    }
}
