import Foundation

/// The quakes that have alerted, in `alerts.plist` (`{CODE: Date}`), so that a quake alerts once
/// across every pane and process on the state directory: the first to `claim` it runs the alert
/// command and rings the bell, the others only show it.
///
/// ```swift
/// if try ledger.claim("us7000abcd") { runAlertCommand(…) }
/// ```
public struct AlertLedger: Sendable {
    public let state: StateDirectory
    /// Claims older than this are forgotten (no feed re-sends a quake that old as new).
    public static let retention: TimeInterval = 30 * 86_400
    static let maximumFileSize = 1 << 20

    public init(state: StateDirectory) {
        self.state = state
    }

    /// Claims `code` for this process; true if no process had claimed it before.
    /// The read-modify-write runs under `.alerts.lock`, and the file is replaced atomically.
    /// - Throws: ``QuakeScenesError`` when the lock or the file cannot be written.
    /// A quake ComCat merged into another event (`aliases`: the codes it lists for it) has
    /// alerted when any of them has: a network's quake that USGS publishes again under its own
    /// code does not alert twice.
    public func claim(_ code: String, aliases: [String] = [], now: Date = Date()) throws -> Bool {
        let lock = try FileLock.acquire(state.alertsLockPath)
        defer { lock.unlock() }
        var claims = load()
        guard claims[code] == nil, !aliases.contains(where: { claims[$0] != nil }) else { return false }
        claims = claims.filter { now.timeIntervalSince($0.value) < Self.retention }
        claims[code] = now
        let root = claims.mapValues { PropertyListItem.date($0) }
        let data = try PropertyListItem.xmlData(for: root)
        guard data.count < Self.maximumFileSize else {
            throw QuakeScenesError(.valueTooLarge, path: state.alertsPath, key: code,
                                   detail: "the file would be \(data.count) bytes")
        }
        try AtomicFile.write(data, to: state.alertsPath)
        return true
    }

    /// Whether `code` has alerted already.
    public func hasClaimed(_ code: String) -> Bool { load()[code] != nil }

    private func load() -> [String: Date] {
        let loaded = PropertyListFile.load(state.alertsPath, limit: Self.maximumFileSize, checks: [], what: "alerts.plist")
        return loaded.root.compactMapValues { item in
            if case .date(let date) = item { return date }
            return nil
        }
    }
}
