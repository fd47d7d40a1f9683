import Foundation

/// One `quaketui-http` helper for a run of downloads (a `fetch`'s windows): started once, it
/// links FoundationNetworking once (~20 ms of CPU a start, 0.4 s over a 21-window fetch). A
/// helper that failed, or whose last body was left unread, is replaced at the next download.
/// One download at a time.
final class DownloadSession: @unchecked Sendable {
    // @unchecked: `helper` is only touched under `lock`.
    private let lock = NSLock()
    private let timeout: TimeInterval
    private var helper: HTTPHelperProcess?

    /// `timeout`: each download's stall limit.
    init(timeout: TimeInterval) {
        self.timeout = timeout
    }

    /// The running helper's process id, nil before the first download (tests).
    var helperProcessID: pid_t? { lock.withLock { helper?.processID } }

    /// Asks for `url` and waits for the response head; the body is read from the helper.
    /// - Throws: `HTTPHelperProcess.Failure` for a transport error or a helper that cannot start.
    func begin(url: URL, headers: [(String, String)]) throws -> (HTTPHelperProcess, HTTPHelperProcess.Head) {
        lock.lock()
        defer { lock.unlock() }
        // A helper that is busy (a body left unread) or has gone (killed from outside) is replaced.
        if let current = helper, current.state != .idle || !current.isRunning {
            current.kill()
            helper = nil
        }
        let reused = helper != nil
        let running = try helper ?? HTTPHelperProcess(timeout: timeout)
        helper = running
        do {
            return (running, try running.begin(url: url, headers: headers))
        } catch let failure as HTTPHelperProcess.Failure where reused && failure.helperGone {
            // It died as the request went out: the request is the fresh helper's.
            let fresh = try HTTPHelperProcess(timeout: timeout)
            helper = fresh
            return (fresh, try fresh.begin(url: url, headers: headers))
        }
    }
}
