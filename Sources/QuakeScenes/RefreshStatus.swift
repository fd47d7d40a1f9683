import Foundation

/// What the automatic refresh last did and when it runs next, in `refresh.plist`, so that every
/// pane's status line can say it, whichever process refreshes.
///
/// Keys: `feed` (String), `lastAttempt`, `lastSuccess`, `nextDue` (Date), `failures` (Int),
/// `lastError` (String), `lastErrorKind` (String: its kind, a `FailureKind` token such as
/// `timedOut` or `http 503`, for the status line's words), `etag`, `lastModified` (String: the validators of the last response,
/// sent back as `If-None-Match` / `If-Modified-Since`), `pid` (Int: the refreshing process),
/// `attemptStarted` (Date: an attempt of `pid`'s is running since then; gone once it ends).
public struct RefreshStatus: Equatable, Sendable {
    public var feed: String?
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    public var nextDue: Date?
    public var failures = 0
    public var lastError: String?
    /// The kind of `lastError` as `FailureKind.token` (QuakeModel's); nil when none is known.
    public var lastErrorKind: String?
    /// What the last import said besides its counts, when it withdrew reports (issue 53: reports
    /// deleted by their agency, or no longer in the feed): its summary, for the message log (`L`).
    public var lastNotice: String?
    public var etag: String?
    public var lastModified: String?
    public var pid: Int32?
    /// When the attempt running now began; nil between attempts.
    public var attemptStarted: Date?

    public init() {}

    /// Whether an attempt is running now: begun, not ended, by a process that still runs (one
    /// killed mid-download leaves `attemptStarted` behind).
    public var isAttemptRunning: Bool {
        attemptStarted != nil && pid.map(ProcessLiveness.isAlive) == true
    }

    init(_ root: [String: PropertyListItem]) {
        func string(_ key: String) -> String? { if case .string(let v)? = root[key] { v } else { nil } }
        func date(_ key: String) -> Date? { if case .date(let v)? = root[key] { v } else { nil } }
        feed = string("feed")
        lastAttempt = date("lastAttempt")
        lastSuccess = date("lastSuccess")
        nextDue = date("nextDue")
        if case .int(let n)? = root["failures"] { failures = max(0, n) }
        lastError = string("lastError")
        lastErrorKind = string("lastErrorKind")
        lastNotice = string("lastNotice")
        etag = string("etag")
        lastModified = string("lastModified")
        if case .int(let n)? = root["pid"] { pid = Int32(truncatingIfNeeded: n) }
        attemptStarted = date("attemptStarted")
    }

    var root: [String: PropertyListItem] {
        var root: [String: PropertyListItem] = ["failures": .int(failures)]
        root["feed"] = feed.map(PropertyListItem.string)
        root["lastAttempt"] = lastAttempt.map(PropertyListItem.date)
        root["lastSuccess"] = lastSuccess.map(PropertyListItem.date)
        root["nextDue"] = nextDue.map(PropertyListItem.date)
        root["lastError"] = lastError.map(PropertyListItem.string)
        root["lastErrorKind"] = lastErrorKind.map(PropertyListItem.string)
        root["lastNotice"] = lastNotice.map(PropertyListItem.string)
        root["etag"] = etag.map(PropertyListItem.string)
        root["lastModified"] = lastModified.map(PropertyListItem.string)
        root["pid"] = pid.map { PropertyListItem.int(Int($0)) }
        root["attemptStarted"] = attemptStarted.map(PropertyListItem.date)
        return root
    }
}

/// Reads and writes `refresh.plist` (atomically; a bad file reads as "never refreshed").
public struct RefreshStatusFile: Sendable {
    public let state: StateDirectory
    static let maximumFileSize = 64 << 10

    public init(state: StateDirectory) { self.state = state }

    public func load() -> RefreshStatus {
        RefreshStatus(PropertyListFile.load(state.refreshStatusPath, limit: Self.maximumFileSize, checks: [],
                                            what: "refresh.plist").root)
    }

    public func save(_ status: RefreshStatus) throws {
        try AtomicFile.write(try PropertyListItem.xmlData(for: status.root), to: state.refreshStatusPath)
    }
}

/// The right to run the automatic refresh: an flock on `refresh.lock`, so that of all the panes
/// and processes on one state directory exactly one polls the feed and the others see its
/// imports live. The kernel drops the lock when the holder exits or is killed, and another
/// process takes over at its next try.
public final class RefreshLease: @unchecked Sendable {
    // @unchecked: the only state is the FileLock, which locks.
    private let lock: FileLock

    private init(lock: FileLock) { self.lock = lock }

    /// Takes the lease, or returns nil when another process (or lease) holds it
    /// (`FileLock.acquireUnlessHeld`).
    public static func tryAcquire(in state: StateDirectory) throws -> RefreshLease? {
        try state.prepared()
        return try FileLock.acquireUnlessHeld(state.refreshLockPath).map(RefreshLease.init)
    }

    public func release() { lock.unlock() }
}
