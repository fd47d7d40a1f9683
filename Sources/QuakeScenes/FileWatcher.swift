import Foundation
import QuakeTime
#if canImport(Glibc)
import Glibc
#endif

/// Calls a handler when a file changes: woken by the kernel (``DirectoryEvents``, inotify on
/// the file's directory) where it can be, else by polling on a timer; either way it compares
/// the file's `stat` (device, inode, size, mtime) with what it saw last, so it reports real
/// changes only, once each.
///
/// ```swift
/// let watcher = FileWatcher(path: state.defaultsPath, watching: .kernelEvents(fallback: .milliseconds(250))) { reload() }
/// watcher.start()
/// ```
///
/// Why the directory and not the file: the files are replaced by rename, so a watch on the
/// file itself would follow the old inode. Every atomic write makes a new inode, so even a
/// same-size write within one mtime tick is seen.
/// `@unchecked Sendable`: the signature is only touched on the serial queue; `run` and
/// `subscription` are guarded by `mutex`.
final class FileWatcher: @unchecked Sendable {
    /// What wakes the watcher.
    enum Watching {
        /// The kernel's file events; polls every `fallback` where they are unavailable (or the
        /// directory's watch is lost). An idle process then makes no wake-ups at all.
        case kernelEvents(fallback: DispatchTimeInterval)
        /// A poll every `interval`, paced by `clock` (tests move it by hand).
        case polling(every: DispatchTimeInterval, clock: AppClock)
    }

    private struct Signature: Equatable {
        var device: UInt64 = 0, inode: UInt64 = 0, size: Int64 = -1, seconds: Int = 0, nanoseconds: Int = 0
    }

    private let path: String
    private let watching: Watching
    private let handler: @Sendable () -> Void
    private let events: DirectoryEvents?
    private let queue = DispatchQueue(label: "quaketui.file-watcher", qos: .utility)
    private let mutex = NSLock()
    /// Which run of `start` the scheduled polls and events belong to; 0 while stopped.
    private var run = 0
    private var runs = 0
    private var subscription: DirectoryEvents.Token?
    private var last: Signature

    /// `events`: the kernel's file events that wake it (`.kernelEvents`).
    init(path: String, watching: Watching, events: DirectoryEvents? = DirectoryEvents.shared,
         handler: @escaping @Sendable () -> Void) {
        self.path = path
        self.watching = watching
        self.events = events
        self.handler = handler
        self.last = FileWatcher.signature(of: path)
    }

    deinit { stop() }

    /// Whether the kernel wakes this watcher (false while it polls).
    var usesKernelEvents: Bool {
        mutex.lock()
        defer { mutex.unlock() }
        return subscription != nil
    }

    /// Starts watching; the handler runs on a background queue after each observed change.
    func start() {
        mutex.lock()
        defer { mutex.unlock() }
        guard run == 0 else { return }
        runs += 1
        run = runs
        switch watching {
        case .kernelEvents(let fallback):
            if !subscribe(run) { schedulePoll(run, every: fallback, clock: .system) }
        case .polling(let interval, let clock):
            schedulePoll(run, every: interval, clock: clock)
        }
    }

    /// Stops watching.
    func stop() {
        mutex.lock()
        let token = subscription
        subscription = nil
        run = 0
        mutex.unlock()
        token?.cancel()
    }

    /// Subscribes to the directory's events (called with `mutex` held); false if it cannot.
    private func subscribe(_ run: Int) -> Bool {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        // Only finished writes: a file written in place (`echo … > defaults.plist`) is empty
        // when it is created or truncated, and reading it then would set a good file aside.
        let token = events?.subscribe(directory: url.deletingLastPathComponent().path,
                                      kinds: .complete, names: { $0 == name }) { [weak self] event in
            guard let self else { return }
            queue.async {
                guard self.isCurrent(run) else { return }
                if event == .watchLost { self.fallBackToPolling(run) }
                self.poll()
            }
        }
        subscription = token
        // A change between `init` and the subscription would otherwise go unseen.
        if token != nil { queue.async { if self.isCurrent(run) { self.poll() } } }
        return token != nil
    }

    private func fallBackToPolling(_ run: Int) {
        guard case .kernelEvents(let fallback) = watching else { return }
        mutex.lock()
        defer { mutex.unlock() }
        guard self.run == run else { return }
        subscription = nil
        schedulePoll(run, every: fallback, clock: .system)
    }

    private func isCurrent(_ run: Int) -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        return self.run == run
    }

    private func schedulePoll(_ run: Int, every interval: DispatchTimeInterval, clock: AppClock) {
        clock.schedule(after: interval, on: queue) { [weak self] in
            guard let self, isCurrent(run) else { return }
            poll()
            schedulePoll(run, every: interval, clock: clock)
        }
    }

    /// Returns once everything queued so far has run (the first look after `start` included),
    /// so a test can change the file knowing the watcher has already seen it as it was.
    func settle() { queue.sync {} }

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
