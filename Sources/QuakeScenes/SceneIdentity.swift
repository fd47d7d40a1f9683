import Foundation

/// Which scene a process shows and how that was decided (SPEC §4).
///
/// ```swift
/// let identity = try SceneIdentity.resolve(option: parsed.scene,
///                                          environment: ProcessInfo.processInfo.environment)
/// let lease = try SceneLease.acquire(identity, in: state)   // may move on to "ID-2"
/// ```
public struct SceneIdentity: Sendable, Equatable, Codable {
    /// Where the ID came from, in resolution order.
    public enum Source: String, Sendable, Codable {
        /// `--scene ID`.
        case option
        /// `$QUAKETUI_SCENE`.
        case environment
        /// `tmux-SESSION-WINDOWINDEX-PANEINDEX` of the current tmux pane.
        case tmux
        /// Nothing named a scene: `main`.
        case fallback
    }

    /// The scene ID.
    public var id: SceneID
    /// Where it came from.
    public var source: Source

    public init(id: SceneID, source: Source) {
        self.id = id
        self.source = source
    }

    /// Whether the user named the scene (`--scene` or `$QUAKETUI_SCENE`). An explicit ID is
    /// validated strictly and never renumbered; a derived one is sanitized and moves on to
    /// `ID-2`, `ID-3`, … when taken.
    public var isExplicit: Bool { source == .option || source == .environment }

    /// Picks the scene ID: `--scene`, `$QUAKETUI_SCENE`, the tmux pane (when `$TMUX` is set), `main`.
    ///
    /// - Parameters:
    ///   - option: the value of `--scene`, if given (an empty string is given, and invalid).
    ///   - environment: the process environment (`QUAKETUI_SCENE`, `TMUX`, `TMUX_PANE`).
    ///   - tmux: how to ask tmux for the pane; injectable for tests.
    /// - Throws: ``QuakeScenesError`` `invalidSceneID` (a usage error) for a bad explicit ID.
    public static func resolve(option: String?, environment: [String: String],
                               tmux: TmuxPaneQuery = .live) throws -> SceneIdentity
    {
        if let option {
            return SceneIdentity(id: try SceneID(validating: option), source: .option)
        }
        if let env = environment["QUAKETUI_SCENE"], !env.isEmpty {
            return SceneIdentity(id: try SceneID(validating: env), source: .environment)
        }
        if let socket = environment["TMUX"], !socket.isEmpty,
           let pane = tmux.query(environment["TMUX_PANE"], socket.split(separator: ",").first.map(String.init)),
           let id = tmuxSceneID(from: pane)
        {
            return SceneIdentity(id: id, source: .tmux)
        }
        return SceneIdentity(id: .main, source: .fallback)
    }

    /// Turns tmux's `#{session_name} #{window_index} #{pane_index}` line into
    /// `tmux-SESSION-WINDOW-PANE`, sanitized. Session names may contain spaces, so the last two
    /// fields are the indexes and everything before them is the session name. An ID longer than
    /// 61 characters keeps `-WINDOW-PANE` whole and shortens the session part to its start plus
    /// `_` and an 8-digit hash of the whole name (`tmux-very-long-na…_9c2e41f0-3-1`).
    static func tmuxSceneID(from line: String) -> SceneID? {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        var fields = trimmed.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 3 else { return nil }
        let pane = fields.removeLast()
        let window = fields.removeLast()
        guard Int(pane) != nil, Int(window) != nil else { return nil }
        let session = fields.joined(separator: " ")
        let suffix = "-\(window)-\(pane)"
        let whole = SceneID(sanitizing: "tmux-\(session)\(suffix)")
        // Room for `-99` (SceneLease's numbered alternatives), so neither cut drops the pane part.
        let limit = SceneID.maximumLength - 3
        if "tmux-\(session)\(suffix)".unicodeScalars.count <= limit { return whole }
        // A long session name keeps its start and gains a short stable hash of the whole name, so
        // two panes never share an ID and the same pane gets the same one at every launch.
        let hash = "_" + String(fnv1a(session), radix: 16)
        let room = limit - "tmux-".count - hash.count - suffix.count
        let start = SceneID(sanitizing: session).rawValue.prefix(max(1, room))
        return SceneID(sanitizing: "tmux-\(start)\(hash)\(suffix)")
    }

    /// 32-bit FNV-1a of the UTF-8 bytes with the top nibble set, so it always prints as 8 hex
    /// digits: stable across processes and launches, unlike `Hasher`.
    private static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash | 0x1000_0000   // always 8 hex digits
    }
}
