import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ownership of a scene: an `flock` on `scenes/ID.lock` (which contains the holder's PID),
/// held for as long as this process shows the scene (SPEC §4, "one process per scene").
///
/// ```swift
/// let lease = try SceneLease.acquire(identity, in: state)
/// let storage = try SceneStorage(state: state, scene: lease.id)
/// // … run the browser; the lock goes away with the process, even after kill -9 …
/// ```
///
/// The kernel drops an flock when its holder dies, so a crashed process never leaves a scene
/// stuck. `@unchecked Sendable`: the only mutable state is inside ``FileLock``, which locks.
public final class SceneLease: @unchecked Sendable {
    /// The scene held, possibly renumbered (`ID-2`) from the requested one.
    public let id: SceneID
    private let lock: FileLock

    private init(id: SceneID, lock: FileLock) {
        self.id = id
        self.lock = lock
        Self.leasesHere.insert(lock.path)
    }

    deinit { release() }

    /// The highest suffix tried for a derived ID before giving up.
    static let maximumNumber = 99

    /// Takes the scene named by `identity`.
    ///
    /// An explicit ID that is held elsewhere fails; a derived one moves on to `ID-2`, `ID-3`, ….
    ///
    /// - Throws: ``QuakeScenesError`` `sceneInUse` ("scene X is open in process PID") for an
    ///   explicit ID, `noFreeSceneID` if `ID-2`…`ID-99` are all taken too, or a file error.
    public static func acquire(_ identity: SceneIdentity, in state: StateDirectory) throws -> SceneLease {
        if let lease = try tryAcquire(identity.id, in: state) { return lease }
        if identity.isExplicit {
            throw QuakeScenesError(.sceneInUse, path: state.sceneLockPath(identity.id),
                                   sceneID: identity.id.rawValue, pid: holderPID(of: identity.id, in: state))
        }
        for n in 2...maximumNumber {
            if let lease = try tryAcquire(identity.id.numbered(n), in: state) { return lease }
        }
        throw QuakeScenesError(.noFreeSceneID, sceneID: identity.id.rawValue)
    }

    /// Takes exactly `id`, or returns nil if a live process (or another lease in this process) holds it.
    ///
    /// A lock held by no live process is only a passing probe (`scenes list` or `scenes rm`
    /// checking the scene for a moment, or a holder that has not written its PID yet), so
    /// that case is retried (every 10 ms, for up to 2 s on a loaded machine) before the scene
    /// counts as taken. So is a lock that names this process but no lease of it: a child being
    /// spawned by another thread holds a copy of the released descriptor until its `exec`
    /// closes it. A live holder's lock is refused at once.
    public static func tryAcquire(_ id: SceneID, in state: StateDirectory) throws -> SceneLease? {
        try state.prepared()
        let path = state.sceneLockPath(id)
        for attempt in 0..<200 {
            if let lock = try FileLock.acquire(path, wait: false) {
                lock.writeContents("\(getpid())\n")
                return SceneLease(id: id, lock: lock)
            }
            if let pid = holderPID(of: id, in: state), ProcessLiveness.isAlive(pid),
               pid != getpid() || leasesHere.contains(path) { return nil }
            if attempt < 199 { usleep(10_000) }
        }
        return nil
    }

    /// The lock paths this process holds leases on.
    private static let leasesHere = LeasePaths()

    /// The PID written in `ID.lock` by its current holder, or nil if unknown.
    public static func holderPID(of id: SceneID, in state: StateDirectory) -> Int32? {
        guard let data = try? AtomicFile.read(state.sceneLockPath(id), limit: 64) else { return nil }
        return Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether some open file description holds `ID.lock` right now (probing with `LOCK_NB`).
    /// Returns the holder's PID (0 if unreadable) or nil if the scene is free.
    static func holder(of id: SceneID, in state: StateDirectory) -> Int32? {
        let path = state.sceneLockPath(id)
        guard let fd = try? AtomicFile.openStateFile(path, O_RDONLY) else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil
        }
        return holderPID(of: id, in: state) ?? 0
    }

    /// Gives the scene up (the process keeps running); also happens on `deinit` and process exit.
    public func release() {
        if lock.unlock() { Self.leasesHere.remove(lock.path) }
    }
}

/// A set of paths shared by the threads of this process.
private final class LeasePaths: @unchecked Sendable {
    // @unchecked: `paths` is only touched under `mutex`.
    private let mutex = NSLock()
    private var paths: Set<String> = []

    func insert(_ path: String) { mutex.withLock { _ = paths.insert(path) } }
    func remove(_ path: String) { mutex.withLock { _ = paths.remove(path) } }
    func contains(_ path: String) -> Bool { mutex.withLock { paths.contains(path) } }
}
