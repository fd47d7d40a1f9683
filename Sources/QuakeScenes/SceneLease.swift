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
    }

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

    /// Takes exactly `id`, or returns nil if a live process (or another lease in this process)
    /// holds it. A passing holder (a `scenes list` probe, a holder that has not written its PID
    /// yet, a child being spawned with a copy of a released descriptor) is waited out
    /// (`FileLock.acquireUnlessHeld`).
    public static func tryAcquire(_ id: SceneID, in state: StateDirectory) throws -> SceneLease? {
        try state.prepared()
        return try FileLock.acquireUnlessHeld(state.sceneLockPath(id)).map { SceneLease(id: id, lock: $0) }
    }

    /// The PID written in `ID.lock` by its current holder, or nil if unknown.
    public static func holderPID(of id: SceneID, in state: StateDirectory) -> Int32? {
        FileLock.holderPID(state.sceneLockPath(id))
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
    public func release() { lock.unlock() }
}
