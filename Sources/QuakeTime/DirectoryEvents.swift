import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's one inotify instance: tells subscribers when a file whose name they care
/// about is created, written, renamed, deleted or changes attributes in a directory they watch.
/// What lets an idle browser sleep: the store observer and the plist watchers wait on it
/// instead of looking at the disk on a timer.
///
/// One instance, not one per watcher, because the kernel allows 128 per user
/// (`fs.inotify.max_user_instances`) and a test run opens hundreds of watchers; watches on one
/// directory share a watch descriptor, counted so the last unsubscribe removes it.
///
/// ```swift
/// let token = DirectoryEvents.shared?.subscribe(directory: dir, names: { $0 == "refresh.plist" }) { event in
///     queue.async { reload() }
/// }
/// ```
///
/// `nil` where inotify is unavailable; callers poll instead.
public final class DirectoryEvents: @unchecked Sendable {
    // @unchecked: `subscriptions` and `nextID` are guarded by `mutex`; the descriptor is
    // read only on `queue`.

    /// What a subscriber hears.
    public enum Event: Sendable, Equatable {
        /// A matching name changed (several changes may be reported once), or the kernel's
        /// queue overflowed and anything may have changed.
        case changed
        /// The watch is gone (the directory was deleted, moved away or unmounted): no more
        /// events will come, so the subscriber should fall back to polling.
        case watchLost
    }

    /// A subscription; cancel it (or let it go) to stop hearing events.
    public final class Token: Sendable {
        private let cancelling: @Sendable () -> Void
        init(_ cancel: @escaping @Sendable () -> Void) { cancelling = cancel }
        deinit { cancelling() }
        /// Stops delivery. Idempotent. A delivery already under way may still finish.
        public func cancel() { cancelling() }
    }

    private struct Subscription {
        var names: @Sendable (Substring) -> Bool
        var handler: @Sendable (Event) -> Void
    }

    /// The process's instance, or nil where inotify cannot be set up.
    public static let shared: DirectoryEvents? = DirectoryEvents()

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "quaketui.directory-events", qos: .utility)
    private var source: DispatchSourceRead?
    private let mutex = NSLock()
    /// Watch descriptor → subscription ID → subscription.
    private var subscriptions: [Int32: [UInt64: Subscription]] = [:]
    private var nextID: UInt64 = 0

    #if canImport(Glibc)
    /// Everything that can change what a file holds or whether it is there. `IN_MODIFY` is
    /// here for SQLite's WAL, which is written in place and never closed while in use.
    private static let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM
                                     | IN_DELETE | IN_ATTRIB)
    #endif

    private init?() {
        #if canImport(Glibc)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        descriptor = fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in drain() }
        source.resume()
        self.source = source
        #else
        return nil
        #endif
    }

    /// Calls `handler` on a background queue after changes to files in `directory` whose
    /// names pass `names`. The handler should be quick (hand work to your own queue).
    ///
    /// - Returns: the token that keeps the subscription, or nil if the directory cannot be
    ///   watched (missing, not a directory, the watch limit reached): poll instead.
    public func subscribe(directory: String, names: @escaping @Sendable (Substring) -> Bool,
                          handler: @escaping @Sendable (Event) -> Void) -> Token? {
        #if canImport(Glibc)
        mutex.lock()
        defer { mutex.unlock() }
        let watch = inotify_add_watch(descriptor, directory, Self.mask | UInt32(IN_ONLYDIR))
        guard watch >= 0 else { return nil }
        nextID += 1
        let id = nextID
        subscriptions[watch, default: [:]][id] = Subscription(names: names, handler: handler)
        return Token { [weak self] in self?.unsubscribe(watch: watch, id: id) }
        #else
        return nil
        #endif
    }

    private func unsubscribe(watch: Int32, id: UInt64) {
        #if canImport(Glibc)
        mutex.lock()
        defer { mutex.unlock() }
        guard subscriptions[watch]?.removeValue(forKey: id) != nil else { return }
        if subscriptions[watch]?.isEmpty == true {
            subscriptions[watch] = nil
            inotify_rm_watch(descriptor, watch)
        }
        #endif
    }

    /// Reads every queued event, then tells each interested subscriber once.
    private func drain() {
        #if canImport(Glibc)
        var changed: [Int32: Set<Substring>] = [:]
        var lost: Set<Int32> = []
        var overflow = false
        let header = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + header <= count {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let start = offset + header
                let end = min(start + Int(event.len), count)
                offset = start + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true; continue }
                if event.mask & UInt32(IN_IGNORED) != 0 { lost.insert(event.wd); continue }
                let name = buffer[start..<end].prefix { $0 != 0 }
                changed[event.wd, default: []].insert(Substring(decoding: name, as: UTF8.self))
            }
        }
        var calls: [(@Sendable (Event) -> Void, Event)] = []
        mutex.lock()
        for (watch, subscribers) in subscriptions {
            if lost.contains(watch) {
                calls += subscribers.values.map { ($0.handler, .watchLost) }
                subscriptions[watch] = nil
                continue
            }
            let names = changed[watch] ?? []
            for subscriber in subscribers.values where overflow || names.contains(where: subscriber.names) {
                calls.append((subscriber.handler, .changed))
            }
        }
        mutex.unlock()
        for (handler, event) in calls { handler(event) }
        #endif
    }
}
