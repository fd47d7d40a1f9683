import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The scenes in a state directory, for `quaketui scenes [list|rm ID…|rm --all|prune --older-than DAYS]`.
///
/// ```swift
/// let catalogue = SceneCatalogue(state: state)
/// let scenes = try catalogue.list()                          // [SceneSummary], Codable for --json
/// let removed = try catalogue.remove(["left"], force: false) // refuses a scene open elsewhere
/// let pruned = try catalogue.prune(olderThanDays: 30)
/// ```
public struct SceneCatalogue: Sendable {
    /// The state directory.
    public let state: StateDirectory

    public init(state: StateDirectory) {
        self.state = state
    }

    /// Every scene with a `.plist`, `.lock` or `.restoring` file, or a quake `quaketui open`
    /// sent it waiting (a scene that has not started yet), sorted by ID.
    public func list() throws -> [SceneSummary] {
        let pending = ActivityCenter.pending(in: state)
        return try ids(pending: pending).map { summary(of: $0, pending: pending) }
    }

    /// The summary of one scene (it need not exist: then `lastUsed` is nil).
    public func summary(of id: SceneID) -> SceneSummary {
        summary(of: id, pending: ActivityCenter.pending(in: state))
    }

    private func summary(of id: SceneID, pending: [SceneID: UserActivity]) -> SceneSummary {
        let plist = state.scenePlistPath(id)
        // A quake sent and waiting counts as a use of the scene (prune goes by it).
        let dates = [plist, state.sceneLockPath(id), state.sceneRestoringPath(id)].compactMap(modificationDate)
            + [pending[id]?.date].compactMap { $0 }
        var root: [String: PropertyListItem] = [:]
        if let data = try? AtomicFile.read(plist, limit: SceneStorage.maximumFileSize),
           let parsed = PropertyListItem.rootDictionary(from: data)
        {
            root = parsed
        }
        func string<V>(_ key: SceneKey<V>) -> String? {
            if case .string(let s)? = root[key.name], !s.isEmpty { return s }
            return nil
        }
        let pid = SceneLease.holder(of: id, in: state)
        return SceneSummary(id: id, lastUsed: dates.max(),
                            selectedQuake: string(SceneKeys.selectedQuake),
                            sortOrder: string(SceneKeys.sortOrder) ?? SceneKeys.sortOrder.defaultValue,
                            selectedTab: string(SceneKeys.selectedTab) ?? SceneKeys.selectedTab.defaultValue,
                            isOpen: pid != nil, pid: pid.flatMap { $0 > 0 ? $0 : nil },
                            pendingQuake: pending[id]?.quakeCode)
    }

    /// Deletes the named scenes' state files (`ID.plist`, `ID.lock`, `ID.restoring` and files set
    /// aside as `ID.plist.corrupt-…`/`ID.plist.crashed-…`) and any `quaketui open` still
    /// waiting for them.
    ///
    /// A scene held by a live process is refused unless `force`; a forced removal leaves that
    /// process running (it keeps its lock on the unlinked file and may write its plist again).
    /// - Throws: ``QuakeScenesError`` `invalidSceneID` for a bad ID, `sceneNotFound` for an unknown one.
    public func remove(_ ids: [String], force: Bool = false) throws -> SceneRemovalSummary {
        let known = Set(try self.ids(pending: ActivityCenter.pending(in: state)))
        var targets: [SceneID] = []
        for raw in ids {
            let id = try SceneID(validating: raw)
            guard known.contains(id) else {
                throw QuakeScenesError(.sceneNotFound, path: state.scenesPath, sceneID: raw)
            }
            targets.append(id)
        }
        return try remove(targets, force: force)
    }

    /// Deletes every scene (`scenes rm --all`), except those held by live processes unless `force`.
    public func removeAll(force: Bool = false) throws -> SceneRemovalSummary {
        try remove(ids(pending: ActivityCenter.pending(in: state)), force: force)
    }

    /// Deletes scenes not used for `days` days (by the newest of their files' modification
    /// times); a scene held by a live process is never pruned.
    public func prune(olderThanDays days: Double, now: Date = Date()) throws -> SceneRemovalSummary {
        let cutoff = now.addingTimeInterval(-days * 86_400)
        let old = try list().filter { ($0.lastUsed ?? .distantPast) < cutoff }.map(\.id)
        return try remove(old, force: false)
    }

    private func remove(_ targets: [SceneID], force: Bool) throws -> SceneRemovalSummary {
        var result = SceneRemovalSummary()
        for id in targets {
            // Take the lock ourselves so no process can start showing the scene while we delete it.
            let lock = try FileLock.acquire(state.sceneLockPath(id), wait: false)
            if lock == nil {
                let pid = SceneLease.holderPID(of: id, in: state)
                if !force {
                    result.refused.append(.init(id: id, pid: pid))
                    continue
                }
            }
            for path in files(of: id) { unlink(path) }
            lock?.unlock()
            result.removed.append(id)
        }
        AtomicFile.syncDirectory(state.scenesPath)
        if !result.removed.isEmpty, FileManager.default.fileExists(atPath: state.activityPath) {
            try? ActivityCenter(state: state).discardActivities(for: result.removed)
        }
        return result
    }

    /// Every file belonging to `id` in `scenes/`.
    private func files(of id: SceneID) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: state.scenesPath)) ?? []
        let exact: Set<String> = ["\(id).plist", "\(id).lock", "\(id).restoring"]
        return names.filter { name in
            exact.contains(name) || name.hasPrefix("\(id).plist.corrupt-") || name.hasPrefix("\(id).plist.crashed-")
        }.map { state.scenesPath + "/" + $0 }
    }

    /// The IDs of all scenes, from the names of `ID.plist`, `ID.lock` and `ID.restoring`, and
    /// the scenes a quake waits for (`pending`).
    private func ids(pending: [SceneID: UserActivity]) throws -> [SceneID] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: state.scenesPath)
        } catch {
            if !FileManager.default.fileExists(atPath: state.scenesPath) { return pending.keys.sorted() }
            throw QuakeScenesError(.fileOperationFailed, path: state.scenesPath, detail: "\(error)")
        }
        var ids = Set(pending.keys)
        for name in names where !name.hasPrefix(AtomicFile.temporaryPrefix) {
            for suffix in [".plist", ".lock", ".restoring"] where name.hasSuffix(suffix) {
                if let id = try? SceneID(validating: String(name.dropLast(suffix.count))) { ids.insert(id) }
            }
        }
        return ids.sorted()
    }

    private func modificationDate(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }
}
