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
/// let token = DirectoryEvents.shared?.subscribe(directory: dir, kinds: .complete, names: { $0 == "refresh.plist" }) { event in
///     queue.async { reload() }
/// }
/// ```
///
/// `nil` where inotify is unavailable; callers poll instead.
public final class DirectoryEvents: @unchecked Sendable {
    // @unchecked: `subscriptions` and `nextID` are guarded by `mutex`; the descriptor is
    // read (into `buffer`) only on `queue`.

    /// What a subscriber hears.
    public enum Event: Sendable, Equatable {
        /// A matching name changed (several changes may be reported once), or the kernel's
        /// queue overflowed and anything may have changed.
        case changed
        /// The watch is gone (the directory was deleted, moved away or unmounted): no more
        /// events will come, so the subscriber should fall back to polling.
        case watchLost
    }

    /// Which changes a subscriber hears of.
    public struct Kinds: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        #if canImport(Glibc)
        /// Written in place (every `write`, so also half-written files).
        public static let written = Kinds(rawValue: UInt32(IN_MODIFY))
        /// Closed by a writer: the write is finished.
        public static let closedAfterWriting = Kinds(rawValue: UInt32(IN_CLOSE_WRITE))
        /// Created (still empty at that moment).
        public static let created = Kinds(rawValue: UInt32(IN_CREATE))
        /// Renamed into place (an atomic replace).
        public static let movedIn = Kinds(rawValue: UInt32(IN_MOVED_TO))
        /// Renamed away.
        public static let movedOut = Kinds(rawValue: UInt32(IN_MOVED_FROM))
        /// Deleted.
        public static let deleted = Kinds(rawValue: UInt32(IN_DELETE))
        /// Mode, owner or times changed (`chmod`, `touch`).
        public static let attributes = Kinds(rawValue: UInt32(IN_ATTRIB))
        #else
        public static let written = Kinds(rawValue: 1), closedAfterWriting = Kinds(rawValue: 2),
                          created = Kinds(rawValue: 4), movedIn = Kinds(rawValue: 8), movedOut = Kinds(rawValue: 16),
                          deleted = Kinds(rawValue: 32), attributes = Kinds(rawValue: 64)
        #endif
        /// A file's whole new contents or its absence, never a file caught half-written: for
        /// files replaced by rename, or edited by a program that closes them when done.
        public static let complete: Kinds = [.closedAfterWriting, .movedIn, .movedOut, .deleted, .attributes]
        /// Every change, for a file written in place and kept open (SQLite's WAL).
        public static let all: Kinds = [.written, .closedAfterWriting, .created, .movedIn, .movedOut, .deleted, .attributes]
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
        var kinds: Kinds
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

    /// The pause after each read of the events (a change is still heard within it).
    static let pause = DispatchTimeInterval.milliseconds(5)
    /// The events read at once (reused: one read per wake-up).
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// The watch's mask: every kind any subscriber may ask for (one mask per directory, as the
    /// kernel keeps one watch per directory and instance); each subscriber hears its own kinds.
    private static let mask = Kinds.all.rawValue

    /// An instance of its own, whose queue no other part of the process can overflow (tests).
    /// Keep it for the life of the process, as `shared` is: it is never torn down. The app
    /// uses `shared`, as the kernel allows few instances per user.
    package init?() {
        #if canImport(Glibc)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        descriptor = fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in
            drain()
            // The kernel merges a file's identical events while they wait unread: pausing a
            // moment after each read turns a writer's thousands of `write`s to the WAL (a
            // delete's batches, an import) into a few events instead of a wake-up each, which
            // took a fifth of the browser's CPU beside a delete (issue 57).
            self.source?.suspend()
            queue.asyncAfter(deadline: .now() + Self.pause) { [unowned self] in self.source?.resume() }
        }
        source.resume()
        self.source = source
        #else
        return nil
        #endif
    }

    /// Calls `handler` on a background queue after changes of `kinds` to files in `directory`
    /// whose names pass `names`. The handler should be quick (hand work to your own queue).
    ///
    /// - Returns: the token that keeps the subscription, or nil if the directory cannot be
    ///   watched (missing, not a directory, the watch limit reached): poll instead.
    public func subscribe(directory: String, kinds: Kinds, names: @escaping @Sendable (Substring) -> Bool,
                          handler: @escaping @Sendable (Event) -> Void) -> Token? {
        #if canImport(Glibc)
        mutex.lock()
        defer { mutex.unlock() }
        let watch = inotify_add_watch(descriptor, directory, Self.mask | UInt32(IN_ONLYDIR))
        guard watch >= 0 else { return nil }
        nextID += 1
        let id = nextID
        subscriptions[watch, default: [:]][id] = Subscription(kinds: kinds, names: names, handler: handler)
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
        var changed: [Int32: [Substring: UInt32]] = [:]  // watch → name → the kinds seen
        var lost: Set<Int32> = []
        var overflow = false
        let header = MemoryLayout<inotify_event>.size
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
                changed[event.wd, default: [:]][Substring(decoding: name, as: UTF8.self), default: 0] |= event.mask
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
            let names = changed[watch] ?? [:]
            for subscriber in subscribers.values where overflow || names.contains(where: { name, mask in
                mask & subscriber.kinds.rawValue != 0 && subscriber.names(name)
            }) {
                calls.append((subscriber.handler, .changed))
            }
        }
        mutex.unlock()
        for (handler, event) in calls { handler(event) }
        #endif
    }
}
