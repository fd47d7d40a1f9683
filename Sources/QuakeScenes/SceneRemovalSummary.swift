import Foundation

/// What `quaketui scenes rm` or `prune` did, for `--json`.
public struct SceneRemovalSummary: Sendable, Equatable, Codable {
    /// A scene left alone because a live process shows it.
    public struct Refusal: Sendable, Equatable, Codable {
        public var id: SceneID
        public var pid: Int32?
    }

    /// Scenes whose state was deleted.
    public var removed: [SceneID] = []
    /// Scenes not deleted because they are open (use force, or close them there).
    public var refused: [Refusal] = []

    public init(removed: [SceneID] = [], refused: [Refusal] = []) {
        self.removed = removed
        self.refused = refused
    }
}
