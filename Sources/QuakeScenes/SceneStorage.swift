import Foundation
import QuakeTime
#if canImport(Glibc)
import Glibc
#endif

/// Per-scene typed key/value storage in `STATE/scenes/ID.plist`, like SwiftUI's `@SceneStorage`.
///
/// ```swift
/// let storage = try SceneStorage(state: state, scene: lease.id)   // crash guard + load
/// var order = storage.value(for: SceneKeys.sortOrder)
/// try storage.set("magnitude", for: SceneKeys.sortOrder)          // on disk within 250 ms
/// storage.markFirstFrameDrawn()                                   // restoring went fine
/// if let notice = storage.takeNotice() { status = notice }
/// ```
///
/// Reads are served from memory. A change is kept in memory and written by a background queue
/// after a short coalescing delay (``coalescingDelay``, well inside the 250 ms promise), as one
/// atomic replacement of the whole file (temp file, fsync, rename, fsync of the directory), so
/// a `kill -9` at any moment leaves the old or the new file. ``flush()`` writes at once, for
/// SIGHUP/SIGTERM handlers and quitting.
///
/// `@unchecked Sendable`: the UI calls it synchronously from the main thread while the writer
/// runs on a private queue; all mutable state is guarded by `mutex`, and file writes are
/// serialized by `writeMutex` (never held together with `mutex` while doing I/O).
public final class SceneStorage: @unchecked Sendable {
    /// The largest scene file allowed (SPEC §4.1: "a scene file stays under 64 KiB").
    public static let maximumFileSize = 64 * 1024
    /// How long changes are coalesced before the background write starts.
    public static let coalescingDelay: DispatchTimeInterval = .milliseconds(40)

    /// The scene this storage belongs to.
    public let sceneID: SceneID
    /// The state directory.
    public let state: StateDirectory
    /// `scenes/ID.plist`.
    public var path: String { state.scenePlistPath(sceneID) }

    private let mutex = NSLock()
    private var values: [String: PropertyListItem]
    /// The serialized form of `values`, kept from the size check in ``set(_:for:)``.
    private var encoded: Data?
    private var generation = 0
    private var writtenGeneration = 0
    private var writeScheduled = false
    private var isDestroyed = false
    private var notices = NoticeQueue()
    private var reportedKeys: Set<String> = []
    private var lastWriteErrorValue: QuakeScenesError?
    /// Set while the saved file could not be read (an I/O error at launch, issue 29): it is left
    /// in place, and the keys set since are kept apart, to be written over what the file holds
    /// once it reads (never over an empty dictionary standing in for it).
    private var unreadFile: QuakeScenesError?
    private var keysSetSinceUnread: [String: PropertyListItem?] = [:]

    private let writeMutex = NSLock()
    private let queue: DispatchQueue
    /// Schedules the coalesced write (tests pass a clock they move by hand).
    private let clock: AppClock

    /// Opens a scene's storage: applies the crash guard, loads the file (setting a bad one
    /// aside), and, if `restoring` is true, marks the scene as restoring until
    /// ``markFirstFrameDrawn()``.
    ///
    /// - Parameters:
    ///   - state: the state directory (created if needed).
    ///   - scene: the scene; the caller should hold its ``SceneLease``.
    ///   - restoring: whether this launch is about to restore the UI from it. Tools that only
    ///     read or edit a scene from outside pass false.
    ///   - clock: schedules the coalesced background write.
    /// - Throws: ``QuakeScenesError`` only if the state directory is unusable; bad files never throw.
    public convenience init(state: StateDirectory, scene: SceneID, restoring: Bool = true, clock: AppClock = .system) throws {
        try self.init(state: state, scene: scene, restoring: restoring, clock: clock, beforeLoading: {})
    }

    /// As the public init; `beforeLoading` runs after the crash marker is written and before
    /// the file is read (tests crash there).
    init(state: StateDirectory, scene: SceneID, restoring: Bool, clock: AppClock,
         beforeLoading: () -> Void) throws {
        try state.prepared()
        self.state = state
        self.sceneID = scene
        self.clock = clock
        self.queue = DispatchQueue(label: "quaketui.scene-storage.\(scene.rawValue)", qos: .utility)
        let plist = state.scenePlistPath(scene)
        AtomicFile.removeStaleTemporaries(for: (plist as NSString).lastPathComponent, in: state.scenesPath)

        let marker = state.sceneRestoringPath(scene)
        if FileManager.default.fileExists(atPath: marker) {
            // The previous launch wrote the marker and died before its first frame: its saved
            // state probably crashed it, so set it aside rather than crash again (as iOS does).
            var message = "The last launch of scene \(scene) stopped while restoring it, so it starts fresh"
            if FileManager.default.fileExists(atPath: plist),
               let aside = PropertyListFile.moveAside(plist, reason: "crashed")
            {
                message += " (the saved state is kept as \((aside as NSString).lastPathComponent))"
            }
            notices.add(message + ".")
            unlink(marker)
        }

        // The marker goes down BEFORE the file is read: a file that crashes the load itself is
        // then set aside by the next launch, instead of crashing every launch.
        if restoring {
            do {
                if let fd = try AtomicFile.openStateFile(marker, O_WRONLY | O_CREAT | O_TRUNC) {
                    let text = Array("\(getpid())\n".utf8)
                    let written = text.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                    let code = errno
                    Glibc.close(fd)
                    if written != text.count {
                        notices.add("Could not write the crash marker \(marker): \(String(cString: strerror(code))); "
                            + "if this launch crashes, the next one will not set the scene aside.")
                    }
                }
            } catch {
                notices.add("\(error)")
            }
            beforeLoading()
        }

        let loaded = PropertyListFile.load(plist, limit: SceneStorage.maximumFileSize,
                                           checks: SceneKeys.checks, what: "the saved state of scene \(scene)")
        values = loaded.root
        unreadFile = loaded.readError
        reportedKeys.formUnion(loaded.droppedKeys)
        if let notice = loaded.notice { notices.add(notice) }
        if !loaded.droppedKeys.isEmpty {
            generation += 1   // rewrite the file without the bad keys
            scheduleWriteLocked()
        }
    }

    /// The stored value for `key`, or its default if missing, of the wrong type or invalid
    /// (a wrong-typed value is reported once through ``takeNotice()``).
    public func value<V>(for key: SceneKey<V>) -> V {
        mutex.lock()
        defer { mutex.unlock() }
        guard let item = values[key.name] else { return key.defaultValue }
        if let value = key.decode(item) { return value }
        if reportedKeys.insert(key.name).inserted {
            notices.add("Scene \(sceneID): the saved value of \(key.name) was not usable; using the default.")
        }
        return key.defaultValue
    }

    /// Stores `value` for `key` (nil for an optional removes it); on disk within 250 ms.
    ///
    /// - Throws: ``QuakeScenesError`` `valueTooLarge` if the file would reach 64 KiB, or
    ///   `valueNotEncodable`; the stored value is then unchanged.
    public func set<V>(_ value: V, for key: SceneKey<V>) throws {
        try setItem(value.propertyListItem, forName: key.name)
    }

    /// Removes `key`, so it reads as its default.
    public func removeValue<V>(for key: SceneKey<V>) {
        try? setItem(nil, forName: key.name)
    }

    /// Several keys at once, with one encoding of the file for all of them (`set` encodes it
    /// once per changed key, and a key press that saves the whole scene changes several).
    /// All or none: on a throw no value of the batch is stored.
    ///
    /// ```swift
    /// try storage.update { batch in
    ///     batch.set("magnitude", for: SceneKeys.sortOrder)
    ///     batch.set(false, for: SceneKeys.sortAscending)
    /// }
    /// ```
    public func update(_ body: (inout Batch) -> Void) throws {
        var batch = Batch()
        body(&batch)
        try setItems(batch.items)
    }

    /// The values of one `update`, in the order they were set.
    public struct Batch {
        fileprivate var items: [(name: String, item: PropertyListItem?)] = []

        public mutating func set<V>(_ value: V, for key: SceneKey<V>) {
            items.append((key.name, value.propertyListItem))
        }
    }

    /// The raw items, for tools and tests.
    public var allItems: [String: PropertyListItem] {
        mutex.lock()
        defer { mutex.unlock() }
        return values
    }

    private func setItem(_ item: PropertyListItem?, forName name: String) throws {
        try setItems([(name, item)])
    }

    /// Stores the changed items with one encoding; an error names the first changed key.
    private func setItems(_ items: [(name: String, item: PropertyListItem?)]) throws {
        mutex.lock()
        defer { mutex.unlock() }
        var candidate = values
        var changed: [String] = []
        for (name, item) in items where candidate[name] != item {
            candidate[name] = item
            changed.append(name)
        }
        guard let first = changed.first else { return }
        let data: Data
        do {
            data = try PropertyListItem.xmlData(for: candidate)
        } catch {
            throw QuakeScenesError(.valueNotEncodable, path: path, key: first, sceneID: sceneID.rawValue,
                                   detail: "\(error)")
        }
        guard data.count < SceneStorage.maximumFileSize else {
            throw QuakeScenesError(.valueTooLarge, path: path, key: first, sceneID: sceneID.rawValue,
                                   detail: "the file would be \(data.count) bytes; the limit is \(SceneStorage.maximumFileSize)")
        }
        values = candidate
        encoded = data
        for name in changed {
            if unreadFile != nil { keysSetSinceUnread[name] = candidate[name] }
            reportedKeys.remove(name)
        }
        generation += 1
        scheduleWriteLocked()
    }

    /// Schedules one background write unless one is pending. Call with `mutex` held.
    private func scheduleWriteLocked() {
        guard !writeScheduled, !isDestroyed else { return }
        writeScheduled = true
        clock.schedule(after: SceneStorage.coalescingDelay, on: queue) { [self] in
            mutex.lock()
            writeScheduled = false
            mutex.unlock()
            do {
                try flush()
            } catch let error as QuakeScenesError {
                mutex.lock()
                // Every failure, as the queue keeps one copy while it waits: a key clears the
                // status line, so a save that fails again after it must say so again.
                notices.add("Could not save scene \(sceneID): \(error)")
                lastWriteErrorValue = error
                mutex.unlock()
            } catch {}
        }
    }

    /// Writes pending changes now, synchronously; does nothing if there are none.
    ///
    /// Call it from SIGHUP/SIGTERM handlers and before exiting.
    /// - Throws: ``QuakeScenesError`` `fileOperationFailed` if the file cannot be written.
    public func flush() throws {
        writeMutex.lock()
        defer { writeMutex.unlock() }
        mutex.lock()
        let target = generation
        let done = writtenGeneration >= target || isDestroyed
        var data = encoded
        var snapshot = values
        mutex.unlock()
        if done { return }
        if try mergeUnreadFile() {
            data = nil
            snapshot = allItems
        }
        if data == nil {
            data = try? PropertyListItem.xmlData(for: snapshot)
        }
        guard let data else { return }
        do {
            try AtomicFile.write(data, to: path)
        } catch let error as QuakeScenesError where error.errno == ENOENT {
            // Someone removed scenes/ (or the whole state directory) under us: recreate, retry once.
            try state.prepared()
            try AtomicFile.write(data, to: path)
        }
        mutex.lock()
        writtenGeneration = max(writtenGeneration, target)
        lastWriteErrorValue = nil
        mutex.unlock()
    }

    /// If the saved file could not be read at launch, reads it now and puts this session's keys
    /// over it; returns whether the values changed. Throws the read error while it persists, so
    /// a save never replaces a file it could not read.
    private func mergeUnreadFile() throws -> Bool {
        mutex.lock()
        let unread = unreadFile != nil
        mutex.unlock()
        guard unread else { return false }
        let loaded = PropertyListFile.load(path, limit: SceneStorage.maximumFileSize,
                                           checks: SceneKeys.checks, what: "the saved state of scene \(sceneID)")
        if let error = loaded.readError { throw error }
        mutex.lock()
        defer { mutex.unlock() }
        var merged = loaded.root
        for (name, item) in keysSetSinceUnread { merged[name] = item }
        values = merged
        encoded = nil
        unreadFile = nil
        keysSetSinceUnread = [:]
        return true
    }

    /// Whether every change so far is on disk.
    public var isFlushed: Bool {
        mutex.lock()
        defer { mutex.unlock() }
        return writtenGeneration >= generation
    }

    /// The most recent background write failure, cleared by a successful write.
    public var lastWriteError: QuakeScenesError? {
        mutex.lock()
        defer { mutex.unlock() }
        return lastWriteErrorValue
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

    /// The next one-time message for the status line (a file set aside, a value reset, a failed
    /// save), or nil. Each message is returned once.
    public func takeNotice() -> String? {
        mutex.lock()
        defer { mutex.unlock() }
        return notices.take()
    }

    /// Ends the crash guard's restoring phase: the first frame is drawn, so the saved state did
    /// not crash the launch. Safe to call repeatedly.
    public func markFirstFrameDrawn() {
        unlink(state.sceneRestoringPath(sceneID))
    }

    /// Writes pending changes and ends the restoring phase: call it on every orderly exit
    /// (`q`, or a usage error before drawing). A SIGTERM/SIGHUP handler calls ``flush()``
    /// only, so a launch killed while hanging in restore still trips the crash guard.
    public func close() throws {
        try flush()
        markFirstFrameDrawn()
    }

    /// Starts the crash guard's restoring phase again (e.g. before restoring after `open`).
    public func markRestoring() {
        if let fd = try? AtomicFile.openStateFile(state.sceneRestoringPath(sceneID), O_WRONLY | O_CREAT | O_TRUNC) {
            Glibc.close(fd)
        }
    }

    /// Whether the restoring marker is present.
    public var isRestoring: Bool { FileManager.default.fileExists(atPath: state.sceneRestoringPath(sceneID)) }

    /// Closes the scene and deletes its state (the `Q` key): no further writes happen, and
    /// `ID.plist` and the restoring marker are removed. The caller releases its lease.
    public func destroy() {
        writeMutex.lock()
        defer { writeMutex.unlock() }
        mutex.lock()
        isDestroyed = true
        values = [:]
        encoded = nil
        mutex.unlock()
        unlink(path)
        unlink(state.sceneRestoringPath(sceneID))
        AtomicFile.syncDirectory(state.scenesPath)
    }
}
