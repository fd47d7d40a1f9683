import Foundation

/// One scene in `quaketui scenes list --json`.
public struct SceneSummary: Sendable, Equatable, Codable {
    /// The scene ID.
    public var id: SceneID
    /// When its state last changed or a process last took it; nil if it has no files.
    public var lastUsed: Date?
    /// `ContentView.selectedQuake`, if any.
    public var selectedQuake: String?
    /// `ContentView.sortOrder` (default `time`).
    public var sortOrder: String
    /// `DetailView.selectedTab` (default `detail`).
    public var selectedTab: String
    /// Whether a live process shows the scene now.
    public var isOpen: Bool
    /// That process's ID, if known.
    public var pid: Int32?
}
