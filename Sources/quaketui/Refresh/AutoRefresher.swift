import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore

/// The automatic refresh (app storage `autoRefreshFeed` every `autoRefreshInterval` seconds),
/// run by exactly one process per state directory: whoever holds `refresh.lock`. The others see
/// its imports live and its timetable in `refresh.plist`, and take over when it goes away.
///
/// Conditional requests: the validators of the last response (`ETag`, `Last-Modified`) are sent
/// back, and a 304 imports nothing and writes no history. Failures back off (see
/// `RefreshSchedule`); 429 and 503 wait at least for `Retry-After`.
///
/// ```swift
/// let refresher = AutoRefresher(state: state, container: container, settings: settings)
/// refresher.start { status in … show "refreshed 2m ago · next in 3m" … }
/// defer { refresher.stop() }
/// ```
final class AutoRefresher: @unchecked Sendable {
    // @unchecked: every mutable member is touched only on `queue`.
    private let queue = DispatchQueue(label: "quaketui.auto-refresh")
    private let state: StateDirectory
    private let container: PersistentContainer
    private let settings: AppStorage
    private let environment: [String: String]
    private let statusFile: RefreshStatusFile
    private var lease: RefreshLease?
    private var timer: DispatchSourceTimer?
    private var onStatus: (@Sendable (RefreshStatus) -> Void)?
    private var stopped = false
    private let now: @Sendable () -> Date
    /// Ends the download in progress at once from ``stop()``'s thread, even while its head is awaited.
    private let inFlight = DownloadAbort()

    init(state: StateDirectory, container: PersistentContainer, settings: AppStorage,
         environment: [String: String] = ProcessInfo.processInfo.environment,
         now: @escaping @Sendable () -> Date = { Date() }) {
        self.state = state
        self.container = container
        self.settings = settings
        self.environment = environment
        self.statusFile = RefreshStatusFile(state: state)
        self.now = now
    }

    /// Starts the timetable; `onStatus` runs on a private queue after every attempt of this
    /// process (other processes' attempts show in `refresh.plist`).
    func start(_ onStatus: @escaping @Sendable (RefreshStatus) -> Void) {
        queue.async { [self] in
            self.onStatus = onStatus
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [unowned self] in tick() }
            self.timer = timer
            timer.schedule(deadline: .now())
            timer.resume()
        }
    }

    /// Refreshes now (the browser's `r`), if this process holds the lease or can take it.
    func refreshNow() {
        queue.async { [self] in
            guard !stopped else { return }
            if lease == nil { lease = try? RefreshLease.tryAcquire(in: state) }
            guard lease != nil else { return }
            attempt()
            scheduleNext()
        }
    }

    /// Stops; no `onStatus` runs after it returns. The lease goes to the next process. A download
    /// in progress is stopped first, so a server that trickles its head or body does not hold up
    /// the quit (issue 57).
    func stop() {
        inFlight.abort()
        queue.sync {
            stopped = true
            timer?.cancel()
            timer = nil
            lease?.release()
            lease = nil
        }
    }

    /// `autoRefreshInterval`, or `$QUAKETUI_AUTO_REFRESH_INTERVAL` (seconds, any positive value:
    /// for local mirrors and tests, which may poll faster than the USGS would like).
    private var schedule: RefreshSchedule {
        if let text = environment["QUAKETUI_AUTO_REFRESH_INTERVAL"], let seconds = TimeInterval(text), seconds > 0 {
            return RefreshSchedule(interval: seconds)
        }
        return RefreshSchedule(interval: settings.value(for: AppKeys.autoRefreshInterval))
    }

    private func tick() {
        guard !stopped else { return }
        _ = settings.reload()
        guard schedule.interval > 0 else {
            // Off: let another process (with other settings) have the lease; look again later.
            lease?.release()
            lease = nil
            return rearm(after: 60)
        }
        if lease == nil { lease = try? RefreshLease.tryAcquire(in: state) }
        if lease != nil, schedule.isDue(statusFile.load(), at: now()) { attempt() }
        scheduleNext()
    }

    /// Sleeps until the next attempt is due (holder), or until it is worth trying to take over.
    private func scheduleNext() {
        let interval = schedule.interval
        guard interval > 0 else { return rearm(after: 60) }
        guard lease != nil, let due = statusFile.load().nextDue else { return rearm(after: max(5, interval / 2)) }
        rearm(after: min(max(0.5, due.timeIntervalSince(now())), schedule.maximumBackOff))
    }

    private func rearm(after seconds: TimeInterval) {
        timer?.schedule(deadline: .now() + seconds)
    }

    /// One conditional download and import; records the outcome in `refresh.plist`.
    private func attempt() {
        let feed = settings.value(for: AppKeys.autoRefreshFeed)
        var status = statusFile.load()
        if status.feed != feed {
            status.etag = nil
            status.lastModified = nil
        }
        status.feed = feed
        status.pid = getpid()
        // Every pane's status line says a refresh is running (`refreshing`) until it ends.
        status.attemptStarted = now()
        try? statusFile.save(status)
        let url = FeedLocation.summaryFeedURL(feed, environment: environment)
        let outcome: RefreshSchedule.Outcome
        var reason: String?
        var kind: FailureKind?
        do {
            let result = try download(url, status: status)
            outcome = result.imported ? .imported : .notModified
            status.etag = result.etag
            status.lastModified = result.lastModified
            status.lastNotice = result.imported ? result.notice : nil
        } catch let failure as FeedError {
            if let http = failure.underlyingError as? HTTPByteStream.HTTPStatusError, [429, 503].contains(http.status) {
                outcome = .throttled(retryAfter: http.retryAfter)
            } else {
                outcome = .failed
            }
            reason = failure.message
            kind = failure.kind
        } catch {
            outcome = .failed
            reason = "\(error)"
        }
        // Stopped by a quit: no answer of the server's to record, and no attempt running.
        guard !inFlight.isAborted else {
            status.attemptStarted = nil
            try? statusFile.save(status)
            return
        }
        status = schedule.record(outcome, error: reason, errorKind: kind?.token, at: now(), in: status)
        try? statusFile.save(status)
        onStatus?(status)
    }

    private struct Download {
        var imported: Bool
        var etag: String?
        var lastModified: String?
        /// The import's summary when it withdrew reports (`RefreshStatus.lastNotice`).
        var notice: String?
    }

    private func download(_ url: URL, status: RefreshStatus) throws -> Download {
        let reader: FeedReader
        var result = Download(imported: true)
        // After the import, which reads the body: the download has ended.
        defer { inFlight.detach() }
        if url.isFileURL {
            // A mirror folder (tests, offline copies): its modification time is the validator.
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let stamp = (attributes?[.modificationDate] as? Date).map { "\($0.timeIntervalSince1970)" }
            result.lastModified = stamp
            if let stamp, stamp == status.lastModified { return Download(imported: false, lastModified: stamp) }
            reader = try FeedReader(path: url.path)
        } else {
            var headers: [(String, String)] = []
            if let etag = status.etag { headers.append(("If-None-Match", etag)) }
            if let lastModified = status.lastModified { headers.append(("If-Modified-Since", lastModified)) }
            let stream = try HTTPByteStream(url: url, timeout: 30, userAgent: "quaketui/\(Quaketui.version) (auto-refresh)",
                                            headers: headers, abort: inFlight)
            result.etag = stream.responseHeaders["etag"] ?? status.etag
            result.lastModified = stream.responseHeaders["last-modified"] ?? status.lastModified
            if stream.statusCode == 304 {
                stream.close()
                return Download(imported: false, etag: result.etag, lastModified: result.lastModified)
            }
            reader = try FeedReader(source: .stream(stream), name: url.absoluteString)
        }
        let importer = try FeedImporter(container: container, author: "refresh")
        let summary = try importer.run(reader, replacingSample: true, window: SummaryFeedWindow(url: url), progress: { _ in })
        if summary.withdrawn + summary.absent > 0 { result.notice = summary.sentence }
        return result
    }
}
