import Foundation

/// One scene in `quaketui scenes list --json`.
///
/// ```json
/// {"id":"tmux-work-0-1","lastUsed":"2026-11-22T07:48:29Z","selectedQuake":"us7000abcd",
///  "sortOrder":"magnitude","selectedTab":"detail","isOpen":true,"pid":4242}
/// ```
///
/// A scene `quaketui open CODE --scene ID` sent a quake to before it ever started is listed
/// too: no files yet, `pendingQuake` the code it shows when it starts (issue 56.13).
///
/// `lastUsed` is always encoded as an ISO 8601 string (whole seconds, UTC), whatever the
/// encoder's date strategy, because the JSON shape is a documented public format.
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
    /// The quake `quaketui open` sent the scene and it has not shown yet (it shows it within a
    /// second if open, else when it next starts); nil when none waits.
    public var pendingQuake: String?

    public init(id: SceneID, lastUsed: Date?, selectedQuake: String?, sortOrder: String, selectedTab: String,
                isOpen: Bool, pid: Int32?, pendingQuake: String? = nil) {
        self.id = id
        self.lastUsed = lastUsed
        self.selectedQuake = selectedQuake
        self.sortOrder = sortOrder
        self.selectedTab = selectedTab
        self.isOpen = isOpen
        self.pid = pid
        self.pendingQuake = pendingQuake
    }

    private enum CodingKeys: String, CodingKey {
        case id, lastUsed, selectedQuake, sortOrder, selectedTab, isOpen, pid, pendingQuake
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(SceneID.self, forKey: .id)
        if let text = try c.decodeIfPresent(String.self, forKey: .lastUsed) {
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw DecodingError.dataCorruptedError(forKey: .lastUsed, in: c, debugDescription: "not an ISO 8601 date")
            }
            lastUsed = date
        } else {
            lastUsed = nil
        }
        selectedQuake = try c.decodeIfPresent(String.self, forKey: .selectedQuake)
        sortOrder = try c.decode(String.self, forKey: .sortOrder)
        selectedTab = try c.decode(String.self, forKey: .selectedTab)
        isOpen = try c.decode(Bool.self, forKey: .isOpen)
        pid = try c.decodeIfPresent(Int32.self, forKey: .pid)
        pendingQuake = try c.decodeIfPresent(String.self, forKey: .pendingQuake)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(lastUsed.map { $0.formatted(.iso8601) }, forKey: .lastUsed)
        try c.encodeIfPresent(selectedQuake, forKey: .selectedQuake)
        try c.encode(sortOrder, forKey: .sortOrder)
        try c.encode(selectedTab, forKey: .selectedTab)
        try c.encode(isOpen, forKey: .isOpen)
        try c.encodeIfPresent(pid, forKey: .pid)
        try c.encodeIfPresent(pendingQuake, forKey: .pendingQuake)
    }
}
