import Foundation

/// What reads scene keys: a scene's open `SceneStorage`, or a `SavedScene` read from outside.
public protocol SceneValueReading {
    /// The stored value for `key`, or its default if missing, of the wrong type or invalid.
    func value<V>(for key: SceneKey<V>) -> V
}

extension SceneStorage: SceneValueReading {}

/// A scene's saved keys, read from outside without opening its storage: no crash marker is
/// written or taken, no file set aside or rewritten, no lock taken, so a pane showing the scene
/// is never disturbed (`quaketui list --scene ID`, issue 56.11).
///
/// ```swift
/// switch try SavedScene.read(id, in: state) {
/// case .saved(let scene): state.restore(from: scene, now: now)   // what the pane shows
/// case .pending: …        // a quake `quaketui open` sent waits: the scene starts with the defaults
/// case .unknown: …        // no such scene
/// }
/// ```
public struct SavedScene: SceneValueReading, Sendable {
    public let id: SceneID
    private let root: [String: PropertyListItem]

    /// What the state directory holds of a scene.
    public enum Lookup: Sendable {
        /// Its saved keys (all defaults for a scene with a lock or restoring marker but no file yet).
        case saved(SavedScene)
        /// No state yet, but `quaketui open` sent it a quake: it starts with the defaults.
        case pending(quake: String?)
        /// Nothing at all: `scenes` does not list it.
        case unknown
    }

    /// Reads scene `id`'s saved keys.
    /// - Throws: ``QuakeScenesError`` when the file cannot be read, or holds no property list
    ///   (the browser would set it aside and start the scene afresh).
    public static func read(_ id: SceneID, in state: StateDirectory) throws -> Lookup {
        let path = state.scenePlistPath(id)
        guard let data = try AtomicFile.read(path, limit: SceneStorage.maximumFileSize) else {
            if let activity = ActivityCenter.pending(in: state)[id] { return .pending(quake: activity.quakeCode) }
            let others = [state.sceneLockPath(id), state.sceneRestoringPath(id)]
            return others.contains(where: FileManager.default.fileExists) ? .saved(SavedScene(id: id, root: [:])) : .unknown
        }
        guard let root = PropertyListItem.rootDictionary(from: data) else {
            throw QuakeScenesError(.fileOperationFailed, path: path, sceneID: id.rawValue,
                                   detail: "the saved state of scene \(id) is not a property list; the browser sets it aside when it next shows the scene")
        }
        return .saved(SavedScene(id: id, root: root))
    }

    public func value<V>(for key: SceneKey<V>) -> V {
        root[key.name].flatMap(key.decode) ?? key.defaultValue
    }
}
