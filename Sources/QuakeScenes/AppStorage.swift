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
/// and the file is replaced atomically. A watcher polls the file every 250 ms (see
/// ``FileWatcher``) and reloads, so a running pane sees another pane's change within 1 s.
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
    private var values: [String: PropertyListItem] = [:]
    private var notices: [String] = []
    private var reportedKeys: Set<String> = []
    private var observers: [UInt64: @Sendable () -> Void] = [:]
    private var nextObserver: UInt64 = 0
    private var watcher: FileWatcher?
    /// Paces the watcher's polls (tests pass a clock they move by hand).
    private let clock: AppClock

    /// Loads `defaults.plist` (a bad file is set aside, see ``takeNotice()``).
    ///
    /// - Throws: ``QuakeScenesError`` only if the state directory is unusable.
    public init(state: StateDirectory, clock: AppClock = .system) throws {
        try state.prepared()
        self.state = state
        self.clock = clock
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
            notices.append("The setting \(key.name) in defaults.plist was not usable; using the default.")
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
        let lock = try FileLock.acquire(state.defaultsLockPath)
        defer { lock.unlock() }
        let loaded = PropertyListFile.load(path, limit: AppStorage.maximumFileSize, checks: AppKeys.checks,
                                           what: "defaults.plist")
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
        if let notice = loaded.notice { notices.append(notice) }
        mutex.unlock()
        watcher?.acknowledge()
    }

    /// Re-reads the file; returns whether any value changed.
    @discardableResult
    public func reload() -> Bool {
        let loaded = PropertyListFile.load(path, limit: AppStorage.maximumFileSize, checks: AppKeys.checks,
                                           what: "defaults.plist")
        mutex.lock()
        let changed = values != loaded.root
        values = loaded.root
        if let notice = loaded.notice { notices.append(notice) }
        let handlers = changed ? Array(observers.values) : []
        mutex.unlock()
        for handler in handlers { handler() }
        return changed
    }

    /// Calls `handler` (on a background queue) whenever another process or instance changes a
    /// value, within 1 s; starts the watcher on first use. Keep the token to keep observing.
    public func onChange(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        mutex.lock()
        let id = nextObserver
        nextObserver += 1
        observers[id] = handler
        if watcher == nil {
            let watcher = FileWatcher(path: path, interval: AppStorage.pollInterval, clock: clock) { [weak self] in
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

    /// The next one-time message for the status line, or nil.
    public func takeNotice() -> String? {
        mutex.lock()
        defer { mutex.unlock() }
        return notices.isEmpty ? nil : notices.removeFirst()
    }
}
