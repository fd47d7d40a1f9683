import Foundation

/// Advertises and continues user activities through `STATE/activity.plist` (SPEC §4.3).
///
/// ```swift
/// let activities = try ActivityCenter(state: state)
/// activities.advertiseInBackground(.showQuake(code: code), from: lease.id) // detail view shows it
/// let handoff = activities.mostRecent(excludingScene: lease.id)           // the H key
/// let token = activities.onActivity(for: lease.id) { activity in … }      // `quaketui open` while running
/// if let pending = try activities.takeActivity(for: lease.id) { … }      // `quaketui open` before launch
/// ```
///
/// The file's top-level `type`, `payload`, `scene` and `date` are the most recently advertised
/// activity, readable by a person. `recent` keeps the latest activity of each of the last few
/// scenes (so `H` can skip the scene's own), and `pending` maps a scene ID to an activity sent
/// to it by `quaketui open`, consumed by that scene. Every change is a read-modify-write under
/// an flock on `.activity.lock` with an atomic replace.
///
/// `@unchecked Sendable`: the only mutable state, the coalesced background advertisement,
/// is guarded by `mutex`.
public final class ActivityCenter: @unchecked Sendable {
    /// How many scenes' latest activities `recent` keeps.
    public static let recentLimit = 16
    /// The largest `activity.plist` read.
    static let maximumFileSize = 64 * 1024

    /// The state directory.
    public let state: StateDirectory
    /// `activity.plist`.
    public var path: String { state.activityPath }

    private let mutex = NSLock()
    private var queuedAdvertisement: (activity: UserActivity, scene: SceneID)?
    private let queue = DispatchQueue(label: "quaketui.activity-center", qos: .utility)

    /// - Throws: ``QuakeScenesError`` if the state directory is unusable.
    public init(state: StateDirectory) throws {
        try state.prepared()
        self.state = state
    }

    /// Advertises `activity` from `scene` on a background queue, keeping only the latest if
    /// several arrive before the write: for the UI thread, which advertises on every selection
    /// change in the detail view and must not wait for an flock and an fsync.
    public func advertiseInBackground(_ activity: UserActivity, from scene: SceneID) {
        mutex.lock()
        let alreadyQueued = queuedAdvertisement != nil
        queuedAdvertisement = (activity, scene)
        mutex.unlock()
        if !alreadyQueued {
            queue.async { [self] in try? writeQueuedAdvertisement() }
        }
    }

    /// Writes a pending background advertisement now, if any (for quitting, and for tests).
    public func flushAdvertisements() throws {
        try queue.sync { try writeQueuedAdvertisement() }
    }

    private func writeQueuedAdvertisement() throws {
        mutex.lock()
        let next = queuedAdvertisement
        queuedAdvertisement = nil
        mutex.unlock()
        if let next { try advertise(next.activity, from: next.scene) }
    }

    /// Records `activity` as the most recent one, advertised by `scene` now.
    public func advertise(_ activity: UserActivity, from scene: SceneID, now: Date = Date()) throws {
        var stamped = activity
        stamped.sceneID = scene
        stamped.date = now
        try modify { file in
            file.recent.removeAll { $0.sceneID == scene }
            file.recent.insert(stamped, at: 0)
            file.recent = Array(file.recent.prefix(ActivityCenter.recentLimit))
        }
    }

    /// The most recently advertised activity of any scene.
    public func mostRecent() -> UserActivity? { load().recent.first }

    /// The most recent activity advertised by a scene other than `scene` (the `H` key).
    public func mostRecent(excludingScene scene: SceneID) -> UserActivity? {
        load().recent.first { $0.sceneID != scene }
    }

    /// Addresses `activity` to `scene` (replacing an earlier one not yet taken); the scene takes
    /// it at launch or, if running and observing, within 1 s.
    public func send(_ activity: UserActivity, to scene: SceneID, now: Date = Date()) throws {
        var stamped = activity
        stamped.date = now
        try modify { file in file.pending[scene] = stamped }
    }

    /// Removes and returns the activity addressed to `scene`, if any.
    public func takeActivity(for scene: SceneID) throws -> UserActivity? {
        guard load().pending[scene] != nil else { return nil }   // cheap check without the lock
        var taken: UserActivity?
        try modify { file in taken = file.pending.removeValue(forKey: scene) }
        return taken
    }

    /// Drops activities addressed to `scenes` and not yet taken (their scenes were removed, so a
    /// later scene reusing the ID must not inherit them).
    public func discardActivities(for scenes: [SceneID]) throws {
        let pending = load().pending
        guard scenes.contains(where: { pending[$0] != nil }) else { return }
        try modify { file in for scene in scenes { file.pending[scene] = nil } }
    }

    /// Calls `handler` on a background queue with each activity addressed to `scene`, taking it,
    /// right after `send` (within 250 ms where the kernel's file events are unavailable). An activity already waiting is delivered at once.
    public func onActivity(for scene: SceneID, _ handler: @escaping @Sendable (UserActivity) -> Void)
        -> ObservationToken
    {
        // The watcher holds this center strongly and the token holds the watcher, so observing
        // keeps working even if the caller drops the center; cancelling the token frees both.
        let deliver: @Sendable () -> Void = { [self] in
            guard let activity = try? takeActivity(for: scene) else { return }
            handler(activity)
        }
        let watcher = FileWatcher(path: path, watching: .kernelEvents(fallback: AppStorage.pollInterval), handler: deliver)
        watcher.start()
        DispatchQueue.global(qos: .utility).async(execute: deliver)
        return ObservationToken { watcher.stop() }
    }

    /// Carries out `quaketui open CODE|EVENT-URL [--scene ID]`: parses the argument and sends a
    /// ``UserActivity/showQuakeType`` activity to `scene`.
    ///
    /// - Returns: a summary for `--json`, saying whether a live process shows the scene (it
    ///   will show the quake within 1 s) or not (the next launch of the scene will).
    /// - Parameter isStored: whether the store holds a code (``QuakeCode/parse(_:isStored:)``).
    /// - Throws: ``QuakeScenesError`` `invalidActivityTarget` (usage error) or a file error.
    public func open(_ argument: String, in scene: SceneID, now: Date = Date(),
                     isStored: (String) -> Bool = { _ in false }) throws -> OpenSummary {
        let code = try QuakeCode.parse(argument, isStored: isStored)
        try send(.showQuake(code: code), to: scene, now: now)
        let pid = SceneLease.holder(of: scene, in: state)
        return OpenSummary(code: code, scene: scene, isOpen: pid != nil, pid: pid.flatMap { $0 > 0 ? $0 : nil })
    }

    // MARK: - The file

    /// The parsed contents of `activity.plist`.
    struct File {
        var recent: [UserActivity] = []
        var pending: [SceneID: UserActivity] = [:]
    }

    func load() -> File { Self.load(path) }

    /// The activities `quaketui open` sent and no scene has taken yet, by scene: read without
    /// preparing the state directory (for `quaketui scenes`, which lists their scenes).
    static func pending(in state: StateDirectory) -> [SceneID: UserActivity] {
        guard FileManager.default.fileExists(atPath: state.activityPath) else { return [:] }
        return load(state.activityPath).pending
    }

    static func load(_ path: String) -> File {
        let loaded = PropertyListFile.load(path, limit: ActivityCenter.maximumFileSize, checks: [],
                                           what: "activity.plist")
        var file = File()
        if case .array(let items)? = loaded.root["recent"] {
            file.recent = items.compactMap(UserActivity.init(propertyListItem:))
        }
        if case .dictionary(let items)? = loaded.root["pending"] {
            for (key, item) in items {
                if let id = try? SceneID(validating: key), let activity = UserActivity(propertyListItem: item) {
                    file.pending[id] = activity
                }
            }
        }
        return file
    }

    private func modify(_ change: (inout File) -> Void) throws {
        let lock = try FileLock.acquire(state.activityLockPath)
        defer { lock.unlock() }
        var file = load()
        change(&file)
        var root: [String: PropertyListItem] = [
            "recent": .array(file.recent.map(\.propertyListItem)),
            "pending": .dictionary(Dictionary(uniqueKeysWithValues: file.pending.map { ($0.key.rawValue, $0.value.propertyListItem) })),
        ]
        if case .dictionary(let latest)? = file.recent.first?.propertyListItem {
            root.merge(latest) { current, _ in current }
        }
        let data: Data
        do {
            data = try PropertyListItem.xmlData(for: root)
        } catch {
            throw QuakeScenesError(.valueNotEncodable, path: path, detail: "\(error)")
        }
        try AtomicFile.write(data, to: path)
    }
}
