import Foundation
import QuakeTime
#if canImport(Glibc)
import Glibc
#endif

/// Calls a handler when a file changes, by polling its `stat` (device, inode, size, mtime)
/// on a background queue, paced by an ``AppClock``.
///
/// ```swift
/// let watcher = FileWatcher(path: state.defaultsPath, interval: .milliseconds(250)) { reload() }
/// watcher.start()
/// ```
///
/// Why polling and not inotify: the files are replaced by rename, so an inotify watch would
/// have to be on the directory and re-armed; a 250 ms stat of one path costs next to nothing
/// and meets the 1-second promise of SPEC §4.2. Every atomic write makes a new inode, so even a
/// same-size write within one mtime tick is seen.
/// `@unchecked Sendable`: the signature is only touched on the serial queue and `running`
/// is guarded by `mutex`.
final class FileWatcher: @unchecked Sendable {
    private struct Signature: Equatable {
        var device: UInt64 = 0, inode: UInt64 = 0, size: Int64 = -1, seconds: Int = 0, nanoseconds: Int = 0
    }

    private let path: String
    private let interval: DispatchTimeInterval
    private let clock: AppClock
    private let handler: @Sendable () -> Void
    private let queue = DispatchQueue(label: "quaketui.file-watcher", qos: .utility)
    private let mutex = NSLock()
    /// Which run of `start` the scheduled polls belong to; 0 while stopped.
    private var run = 0
    private var runs = 0
    private var last: Signature

    init(path: String, interval: DispatchTimeInterval, clock: AppClock = .system,
         handler: @escaping @Sendable () -> Void) {
        self.path = path
        self.interval = interval
        self.clock = clock
        self.handler = handler
        self.last = FileWatcher.signature(of: path)
    }

    deinit { stop() }

    /// Starts polling; the handler runs on a background queue after each observed change.
    func start() {
        mutex.lock()
        defer { mutex.unlock() }
        guard run == 0 else { return }
        runs += 1
        run = runs
        schedule(run)
    }

    /// Stops polling.
    func stop() {
        mutex.lock()
        defer { mutex.unlock() }
        run = 0
    }

    private func schedule(_ run: Int) {
        clock.schedule(after: interval, on: queue) { [weak self] in
            guard let self else { return }
            mutex.lock()
            let current = self.run == run
            mutex.unlock()
            guard current else { return }
            poll()
            schedule(run)
        }
    }

    /// Records the current state as seen, so a change this process made itself is not reported.
    func acknowledge() {
        let now = FileWatcher.signature(of: path)
        queue.async { self.last = now }
    }

    private func poll() {
        let now = FileWatcher.signature(of: path)
        if now != last {
            last = now
            handler()
        }
    }

    private static func signature(of path: String) -> Signature {
        var info = stat()
        guard stat(path, &info) == 0 else { return Signature() }
        return Signature(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                         seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }
}
