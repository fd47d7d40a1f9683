import Foundation

/// What `quaketui open` did, for its `--json` output.
public struct OpenSummary: Sendable, Equatable, Codable {
    /// The quake code opened.
    public var code: String
    /// The scene it was sent to.
    public var scene: SceneID
    /// Whether a live process shows that scene now (it will show the quake within 1 s).
    public var isOpen: Bool
    /// That process's ID, if known.
    public var pid: Int32?
}
