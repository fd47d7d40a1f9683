import Foundation

/// Stops a download from another thread at once, whether it still waits for the response head
/// or reads the body: the download's helper is killed, and the thread waiting on it gets an
/// error at once (issue 57: `q` waited for a server that trickled its head until the helper's
/// deadline). A download begun after ``abort()`` is stopped as soon as its helper starts.
///
/// ```swift
/// let abort = DownloadAbort()
/// let stream = try HTTPByteStream(url: url, abort: abort)   // on a background thread
/// abort.abort()                                              // from the main thread, on quit
/// ```
public final class DownloadAbort: @unchecked Sendable {
    // @unchecked: `helper` and `aborted` are only touched while `lock` is held.
    private let lock = NSLock()
    private var helper: HTTPHelperProcess?
    private var aborted = false

    public init() {}

    /// Whether ``abort()`` was called: what the download then reports is no failure of the server.
    public var isAborted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return aborted
    }

    public func abort() {
        lock.lock()
        defer { lock.unlock() }
        aborted = true
        helper?.terminate()
    }

    /// Forgets the download that ended: a later ``abort()`` touches no process (its id may be
    /// another's by then).
    public func detach() { attach(nil) }

    /// The helper of the download under way (nil: it ended).
    func attach(_ helper: HTTPHelperProcess?) {
        lock.lock()
        defer { lock.unlock() }
        self.helper = helper
        if aborted { helper?.terminate() }
    }
}
