import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Calls a handler when a file changes, by polling its `stat` (device, inode, size, mtime) on a
/// background DispatchSource timer.
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
/// `@unchecked Sendable`: the signature is only touched on the timer's serial queue and the
/// timer itself is guarded by `mutex`.
final class FileWatcher: @unchecked Sendable {
    private struct Signature: Equatable {
        var device: UInt64 = 0, inode: UInt64 = 0, size: Int64 = -1, seconds: Int = 0, nanoseconds: Int = 0
    }

    private let path: String
    private let interval: DispatchTimeInterval
    private let handler: @Sendable () -> Void
    private let queue = DispatchQueue(label: "quaketui.file-watcher", qos: .utility)
    private let mutex = NSLock()
    private var timer: DispatchSourceTimer?
    private var last: Signature

    init(path: String, interval: DispatchTimeInterval, handler: @escaping @Sendable () -> Void) {
        self.path = path
        self.interval = interval
        self.handler = handler
        self.last = FileWatcher.signature(of: path)
    }

    deinit { stop() }

    /// Starts polling; the handler runs on a background queue after each observed change.
    func start() {
        mutex.lock()
        defer { mutex.unlock() }
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
        self.timer = timer
    }

    /// Stops polling.
    func stop() {
        mutex.lock()
        defer { mutex.unlock() }
        timer?.cancel()
        timer = nil
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
