import Foundation

/// Everything a browser process needs to show one scene, opened in the order SPEC §3–4 asks:
/// state directory, scene identity, ownership lease, then scene storage with its crash guard.
///
/// ```swift
/// let session = try SceneSession.open(sceneOption: args.scene, stateDirectoryOption: args.stateDir,
///                                     environment: ProcessInfo.processInfo.environment,
///                                     currentDirectory: FileManager.default.currentDirectoryPath)
/// // restore from session.storage, draw the first frame, then:
/// session.storage.markFirstFrameDrawn()
/// // SIGTERM/SIGHUP handler: try? session.storage.flush(); exit(0)
/// // q: try session.close()      Q: session.closeAndDelete()
/// ```
///
/// - Throws: ``QuakeScenesError`` — `invalidSceneID` (usage error, exit 64), `sceneInUse`
///   ("scene X is open in process PID"), `stateDirectoryUnusable`, or a file error.
public final class SceneSession: Sendable {
    /// The state directory in use.
    public let state: StateDirectory
    /// The scene as requested (before any `-2`, `-3` renumbering).
    public let requested: SceneIdentity
    /// The ownership of the scene, held until ``close()`` or process exit.
    public let lease: SceneLease
    /// The scene's storage.
    public let storage: SceneStorage

    /// The scene actually shown (may be `ID-2` if the derived ID was taken).
    public var id: SceneID { lease.id }

    private init(state: StateDirectory, requested: SceneIdentity, lease: SceneLease, storage: SceneStorage) {
        self.state = state
        self.requested = requested
        self.lease = lease
        self.storage = storage
    }

    /// Resolves the state directory and the scene, takes the scene and opens its storage
    /// (marking it as restoring until `storage.markFirstFrameDrawn()`).
    public static func open(sceneOption: String?, stateDirectoryOption: String?, environment: [String: String],
                            currentDirectory: String, tmux: TmuxPaneQuery = .live) throws -> SceneSession
    {
        // Validate the scene before touching the disk, so a usage error has no side effects.
        let identity = try SceneIdentity.resolve(option: sceneOption, environment: environment, tmux: tmux)
        let state = try StateDirectory.resolve(option: stateDirectoryOption, environment: environment,
                                               currentDirectory: currentDirectory).prepared()
        let lease = try SceneLease.acquire(identity, in: state)
        let storage = try SceneStorage(state: state, scene: lease.id, restoring: true)
        return SceneSession(state: state, requested: identity, lease: lease, storage: storage)
    }

    /// Quits keeping the scene (`q`): writes pending changes, ends the restoring phase and
    /// gives up the lease.
    public func close() throws {
        defer { lease.release() }
        try storage.close()
    }

    /// Closes the scene and deletes its state (`Q`, like closing a window).
    public func closeAndDelete() {
        storage.destroy()
        _ = try? SceneCatalogue(state: state).remove([id.rawValue], force: true)
        lease.release()
    }
}
