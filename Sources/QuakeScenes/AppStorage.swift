import Foundation
import QuakeTime

/// App-wide typed settings in `STATE/defaults.plist`, shared by every scene and process, like
/// SwiftUI's `@AppStorage` (SPEC §4.2).
///
/// ```swift
/// let defaults = try AppStorage(state: state)
/// let token = defaults.onChange { DispatchQueue.main.async { redraw() } }   // other panes' changes
/// try defaults.set("mi", for: AppKeys.distanceUnit)
/// let unit = defaults.value(for: AppKeys.distanceUnit)
/// ```
///
/// Every ``set(_:for:)`` is a read-modify-write of the whole file under an `flock` on
/// `.defaults.lock`, so two processes changing different keys never lose each other's change,
/// and the file is replaced atomically. A watcher (``FileWatcher``: inotify on the state
/// directory, or a poll every 250 ms where that is unavailable) reloads it, so a running pane
/// sees another pane's change within 1 s.
///
/// `@unchecked Sendable`: the cache, observers and notices are guarded by `mutex`.
public final class AppStorage: @unchecked Sendable {
    /// The largest `defaults.plist` allowed.
    public static let maximumFileSize = 64 * 1024
    /// How often the file is polled for other processes' changes.
    public static let pollInterval: DispatchTimeInterval = .milliseconds(250)

    /// The state directory.
    public let state: StateDirectory
    /// `defaults.plist`.
    public var path: String { state.defaultsPath }

    private let mutex = NSLock()
    /// Held across an own write and the cache update after it, and by `reload`, so the
    /// watcher (woken by the kernel as soon as the file is renamed into place) never reads
    /// the new file before the cache has it and reports this instance's own change.
    /// Separate from `mutex` so readers of values never wait on a write's fsync.
    private let writing = NSLock()
    private var values: [String: PropertyListItem] = [:]
    /// Why the last load could not read the file (an I/O error that lasted through the retries).
    private var lastReadError: QuakeScenesError?
    private var notices = NoticeQueue()
    private var reportedKeys: Set<String> = []
    private var observers: [UInt64: @Sendable () -> Void] = [:]
    private var nextObserver: UInt64 = 0
    private var watcher: FileWatcher?
    /// Paces the watcher's polls when tests pass a clock they move by hand; nil: the kernel
    /// wakes the watcher (``FileWatcher/Watching/kernelEvents(fallback:)``).
    private let pollingClock: AppClock?

    /// Loads `defaults.plist` (a bad file is set aside, see ``takeNotice()``).
    ///
    /// - Parameter preparing: creates the state directory if missing (false for a command that
    ///   only reads: a missing directory then reads as every default, and nothing is created).
    /// - Throws: ``QuakeScenesError`` only if the state directory is unusable.
    public init(state: StateDirectory, pollingClock: AppClock? = nil, preparing: Bool = true) throws {
        if preparing { try state.prepared() }
        self.state = state
        self.pollingClock = pollingClock
        _ = reload()
    }

    deinit { watcher?.stop() }

    /// The value for `key`, or its default if missing, wrong-typed or invalid.
    ///
    /// Served from memory: the cache follows other processes' changes once ``onChange(_:)``
    /// (or ``changes()``) has started the watcher, or after ``reload()``.
    public func value<V>(for key: AppKey<V>) -> V {
        mutex.lock()
        defer { mutex.unlock() }
        guard let item = values[key.name] else { return key.defaultValue }
        if let value = key.decode(item) { return value }
        if reportedKeys.insert(key.name).inserted {
            notices.add("The setting \(key.name) in defaults.plist was not usable; using the default.")
        }
        return key.defaultValue
    }

    /// Stores `value` for `key` (nil for an optional removes it), durably and at once.
    ///
    /// - Throws: ``QuakeScenesError`` `valueTooLarge`, `valueNotEncodable` or `fileOperationFailed`.
    public func set<V>(_ value: V, for key: AppKey<V>) throws {
        try update(name: key.name, item: value.propertyListItem)
    }

    /// Removes `key`, so it reads as its default.
    public func removeValue<V>(for key: AppKey<V>) throws {
        try update(name: key.name, item: nil)
    }

    private func update(name: String, item: PropertyListItem?) throws {
        writing.lock()
        defer { writing.unlock() }
        let lock = try FileLock.acquire(state.defaultsLockPath)
        defer { lock.unlock() }
        let loaded = PropertyListFile.load(path, limit: AppStorage.maximumFileSize, checks: AppKeys.checks,
                                           what: "defaults.plist", keepingOddEntries: true)
        // Writing over a file that could not be read would replace every other setting.
        if let error = loaded.readError { throw error }
        var root = loaded.root
        root[name] = item
        let data: Data
        do {
            data = try PropertyListItem.xmlData(for: root)
        } catch {
            throw QuakeScenesError(.valueNotEncodable, path: path, key: name, detail: "\(error)")
        }
        guard data.count < AppStorage.maximumFileSize else {
            throw QuakeScenesError(.valueTooLarge, path: path, key: name,
                                   detail: "the file would be \(data.count) bytes; the limit is \(AppStorage.maximumFileSize)")
        }
        if loaded.root != root || loaded.notice != nil || !FileManager.default.fileExists(atPath: path) {
            try AtomicFile.write(data, to: path)
        }
        mutex.lock()
        values = root
        reportedKeys.remove(name)
        if let notice = loaded.notice { notices.add(notice) }
        mutex.unlock()
        watcher?.acknowledge()
    }

    /// Throws when the settings could not be read (an I/O error that lasted through the
    /// retries), so that a command whose answer depends on them says so instead of answering
    /// with the defaults as if nothing were set (issue 57).
    ///
    /// - Throws: ``SettingsUnreadable`` naming the file and the error.
    public func requireReadable() throws {
        let error = mutex.withLock { lastReadError }
        if let error {
            throw SettingsUnreadable(path: path, cause: error.systemMessage ?? error.detail ?? "an I/O error",
                                     isNoFile: error.code == .unsafeStateFile)
        }
    }

    /// Re-reads the file; returns whether any value changed.
    @discardableResult
    public func reload() -> Bool {
        let handlers: [@Sendable () -> Void]? = writing.withLock {
            let loaded = PropertyListFile.load(path, limit: AppStorage.maximumFileSize, checks: AppKeys.checks,
                                               what: "defaults.plist", keepingOddEntries: true)
            mutex.lock()
            defer { mutex.unlock() }
            lastReadError = loaded.readError
            // A file that cannot be read now keeps the values read before (none at launch).
            if loaded.readError != nil, !values.isEmpty {
                if let notice = loaded.notice { notices.add(notice) }
                return nil
            }
            let changed = values != loaded.root
            values = loaded.root
            if let notice = loaded.notice { notices.add(notice) }
            return changed ? Array(observers.values) : nil
        }
        for handler in handlers ?? [] { handler() }
        return handlers != nil
    }

    /// Calls `handler` (on a background queue) whenever another process or instance changes a
    /// value, within 1 s; starts the watcher on first use. Keep the token to keep observing.
    public func onChange(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        mutex.lock()
        let id = nextObserver
        nextObserver += 1
        observers[id] = handler
        if watcher == nil {
            let watching: FileWatcher.Watching = pollingClock.map { .polling(every: AppStorage.pollInterval, clock: $0) }
                ?? .kernelEvents(fallback: AppStorage.pollInterval)
            let watcher = FileWatcher(path: path, watching: watching) { [weak self] in
                self?.reload()
            }
            watcher.start()
            self.watcher = watcher
        }
        mutex.unlock()
        return ObservationToken { [weak self] in
            guard let self else { return }
            self.mutex.lock()
            self.observers[id] = nil
            self.mutex.unlock()
        }
    }

    /// The changes as an async sequence, for code that prefers `for await`.
    public func changes() -> AsyncStream<Void> {
        AsyncStream { continuation in
            let token = onChange { continuation.yield() }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// Calls `handler` each time a notice is added (a background save that failed, a file
    /// another process broke), so a loop that sleeps until something happens wakes to show it.
    /// It runs with the storage's lock held: it must be quick and must not call back into the
    /// storage (a wake-up pipe's `wake()` is the intended handler).
    public func onNotice(_ handler: @escaping @Sendable () -> Void) {
        mutex.lock()
        notices.onAdd = handler
        mutex.unlock()
    }

    /// The next one-time message for the status line, or nil.
    public func takeNotice() -> String? {
        mutex.lock()
        defer { mutex.unlock() }
        return notices.take()
    }
}

/// `defaults.plist` could not be read, and a command's answer depends on it (``AppStorage/requireReadable()``).
public struct SettingsUnreadable: Error, CustomStringConvertible, Sendable {
    public let path: String
    /// The system's word for the failure ("Input/output error"), or what is there instead of a
    /// file ("a FIFO (named pipe)").
    public let cause: String
    /// Whether the entry at `path` is no regular file (a directory, a FIFO, a link).
    public var isNoFile = false

    public init(path: String, cause: String, isNoFile: Bool = false) {
        (self.path, self.cause, self.isNoFile) = (path, cause, isNoFile)
    }

    public var description: String {
        if isNoFile {
            return "Could not read the settings: \(path) is \(cause), not a file, and the answer depends on them: it is not "
                + "given with the defaults in their place. It is left as it is: remove it (rm -r '\(path)') and set the settings again."
        }
        return "Could not read the settings in \(path) (\(cause)), and the answer depends on them: it is not given with the defaults "
            + "in their place. The file is left as it is; run the command again, and if this keeps happening, check the disk."
    }
}
