import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The helper's URLSession, one for every download it makes: curl keeps a connection (and its
/// TLS session) open between the requests of a `--session`, so a fetch's windows to one service
/// share one connection when the service keeps it alive. Downloads run one at a time; `Relay`
/// hands each one's events to it.
final class Downloader {
    private let limits: Limits
    private let parent: pid_t
    /// The delegate queue: a few chunks of a body at most wait in it for the pipe.
    private let queue = BoundedDelegateQueue(bound: 8)
    private let relay = Relay()
    private let session: URLSession

    init(limits: Limits, parent: pid_t) {
        self.limits = limits
        self.parent = parent
        let configuration = URLSessionConfiguration.ephemeral
        // curl's own idle timer; the watchdog words it and adds the deadline.
        configuration.timeoutIntervalForRequest = limits.stall + 1
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: relay, delegateQueue: queue)
    }

    /// Downloads `url` to stdout; the exit status (0, or 1 for a failure).
    func download(_ url: URL, headers: [(String, String)]) -> Int32 {
        let download = Download(url: url, limits: limits, parent: parent, queue: queue)
        relay.current = download
        defer { relay.current = nil }
        return download.run(headers: headers, in: session)
    }

    /// Hands URLSession's delegate calls to the download in progress.
    private final class Relay: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked: `current` is under `lock`.
        private let lock = NSLock()
        private var _current: Download?
        var current: Download? {
            get { lock.withLock { _current } }
            set { lock.withLock { _current = newValue } }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            guard let current else { return completionHandler(.cancel) }
            current.received(response, completionHandler: completionHandler)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            current?.received(data, task: dataTask)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            current?.completed(error)
        }
    }
}

/// Streams one response to stdout from URLSession's delegate queue, within ``Limits``.
///
/// A watchdog on its own queue ends the process when the download stalls, runs past its
/// deadline, inflates like a bomb, or loses its reader: its parent died (`getppid` changed) or
/// the parent closed the pipe. A failure writes `{"error":"…"}` on stderr and exits 1.
final class Download: @unchecked Sendable {
    // @unchecked: the delegate queue is serial; the counters the watchdog reads are under `lock`.
    private let url: URL
    private let limits: Limits
    private let parent: pid_t
    private let done = DispatchSemaphore(value: 0)
    /// The session's delegate queue: chunks waiting on it wait for the reader.
    private let queue: OperationQueue
    private let meter = WireMeter()
    private let lock = NSLock()
    private let start = DispatchTime.now()
    private var wroteHead = false
    /// Body bytes handed to the delegate (after curl decoded any `Content-Encoding`).
    private var delivered: Int64 = 0
    /// The response's `Content-Encoding` when it is not `identity`.
    private var encoding: String?
    /// The body's `Content-Length` when it is not encoded (then it counts what is delivered).
    private var announced: Int64?
    private var lastProgress: (bytes: Int64, at: DispatchTime)
    /// Seconds the download waited for the reader (chunks waiting for the pipe), and when the
    /// watchdog last looked.
    private var readerWait: Double = 0
    private var lastCheck: DispatchTime
    private(set) var failed = false
    /// The most curl writes per callback (`CURL_MAX_WRITE_SIZE`): a bound on one queued chunk.
    private static let chunkBound: Int64 = 16 * 1024

    init(url: URL, limits: Limits, parent: pid_t, queue: OperationQueue) {
        self.url = url
        self.limits = limits
        self.parent = parent
        self.queue = queue
        lastProgress = (0, start)
        lastCheck = start
    }

    func run(headers: [(String, String)], in session: URLSession) -> Int32 {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let watchdog = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "quaketui-http.watchdog"))
        let tick = min(0.25, limits.stall / 4)
        watchdog.schedule(deadline: .now() + tick, repeating: tick)
        watchdog.setEventHandler { [self] in check() }
        watchdog.resume()
        session.dataTask(with: request).resume()
        done.wait()
        watchdog.cancel()
        return failed ? 1 : 0
    }

    // MARK: - The watchdog

    private var host: String { url.host ?? url.absoluteString }

    /// One tick: the parent, the pipe, the stall, the deadline, the inflation.
    private func check() {
        if getppid() != parent { Self.exit(nil) }
        var output = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        if poll(&output, 1, 0) == 1, output.revents & Int16(POLLERR | POLLHUP) != 0 { Self.exit(nil) }

        meter.scan()
        let wire = meter.totals
        // Chunks waiting for the pipe: the reader is the bottleneck, not the server, so neither
        // the stall nor the deadline runs (and the deadline does not count that time).
        let queued = Int64(queue.operationCount)
        lock.lock()
        let decoded = delivered, encoding = encoding, head = wroteHead
        // What came over the network (decoded bytes only until the connection is found).
        let progress = wire.received > 0 ? wire.received : decoded
        let now = DispatchTime.now()
        if progress != lastProgress.bytes || queued > 0 { lastProgress = (progress, now) }
        let idle = Double(now.uptimeNanoseconds - lastProgress.at.uptimeNanoseconds) / 1e9
        // The network waits for the reader while chunks wait (curl reads no more than the
        // delegate queue holds): that time is the reader's, not the server's.
        if queued > 0 { readerWait += Double(now.uptimeNanoseconds - lastCheck.uptimeNanoseconds) / 1e9 }
        lastCheck = now
        lock.unlock()
        let elapsed = Double(now.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 - readerWait
        let stall = Limits.seconds(limits.stall)
        if idle > limits.stall {
            Self.exit(head ? "cannot download: \(host) sent nothing for \(stall) (timed out)"
                           : "cannot download: \(host) did not answer within \(stall) (timed out)", kind: .timedOut)
        }
        if queued == 0, elapsed > limits.deadline(after: progress) {
            Self.exit("cannot download: \(host) is too slow: \(Self.size(progress)) in \(Limits.seconds(elapsed.rounded())), "
                      + "under the \(Int(limits.minimumRate) / 1024) KiB/s a download must average after its first "
                      + "\(Limits.seconds(limits.deadline(after: 0))) (timed out)", kind: .timedOut)
        }
        if let encoding {
            // Chunks curl decoded that still wait on the delegate queue count too: a slow reader
            // must not let a bomb inflate into this process's memory.
            checkInflation(decoded: decoded + queued * Self.chunkBound, wire: wire.consumed, encoding: encoding)
        }
    }

    private func checkInflation(decoded: Int64, wire: Int64, encoding: String) {
        guard limits.isBomb(decoded: decoded, wire: wire) else { return }
        Self.exit("the answer from \(host) (Content-Encoding: \(encoding)) inflates to more than \(limits.maximumRatio)× "
                  + "its size plus \(limits.allowance >> 20) MiB (\(decoded >> 20) MiB from \(wire >> 10) KiB so far): "
                  + "a decompression bomb, not a feed; QUAKETUI_MAX_INFLATION_RATIO=N raises the ratio", kind: .badFeed)
    }

    /// Ends the process: with a message, `{"error":…,"kind":…}` on stderr and status 1.
    static func exit(_ message: String?, kind: FailureKind? = nil) -> Never {
        if let message { Standard.write(Data((json(errorLine(message, kind: kind)) + "\n").utf8), to: STDERR_FILENO) }
        _exit(1)
    }

    /// `{"error":"…","kind":"timedOut"}`: the sentence, and its kind when one is known.
    static func errorLine(_ message: String, kind: FailureKind?) -> [String: Any] {
        kind.map { ["error": message, "kind": $0.rawValue] } ?? ["error": message]
    }

    private static func size(_ bytes: Int64) -> String {
        bytes < 1024 ? "\(bytes) bytes" : bytes < 1 << 20 ? "\(bytes >> 10) KiB" : "\(bytes >> 20) MiB"
    }

    // MARK: - URLSession's events (through `Downloader.Relay`)

    func received(_ response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        var head: [String: Any] = ["status": 200]
        var coding: String?
        if let http = response as? HTTPURLResponse {
            head["status"] = http.statusCode
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            if let value = headers["content-encoding"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
               value.lowercased() != "identity" {
                coding = value
                // It counts the encoded bytes; the reader sees decoded ones, of a size nobody knows yet.
                headers["content-length"] = nil
            }
            head["headers"] = headers
        }
        if response.expectedContentLength >= 0, head["headers"] == nil {
            head["headers"] = ["content-length": String(response.expectedContentLength)]
        }
        // Find the connection now, while it is surely open.
        meter.scan()
        lock.lock()
        encoding = coding
        announced = coding == nil && response.expectedContentLength > 0 ? response.expectedContentLength : nil
        lock.unlock()
        writeLine(head)
        lock.lock()
        wroteHead = true
        lock.unlock()
        completionHandler(.allow)
    }

    func received(_ data: Data, task dataTask: URLSessionDataTask) {
        lock.lock()
        let before = delivered
        delivered += Int64(data.count)
        let decoded = delivered, encoding = encoding
        lock.unlock()
        if decoded > limits.maximumBytes {
            Self.exit("the answer from \(host) is larger than \(Self.size(limits.maximumBytes)), the most a download may bring "
                      + "(stopped after \(Self.size(decoded))): QUAKETUI_MAX_DOWNLOAD_MIB=N raises it, or download the file "
                      + "and import it from disk", kind: .badFeed)
        }
        if let encoding {
            if before == 0, data.starts(with: [0x1F, 0x8B]) {
                // Two layers would multiply the two limits; one layer of compression is read.
                Self.exit("the answer from \(host) is compressed twice (gzip data sent with Content-Encoding: \(encoding)); "
                          + "quaketui reads one layer of compression", kind: .badFeed)
            }
            if decoded > limits.allowance {
                if !meter.isMeasuring { meter.scan() }
                checkInflation(decoded: decoded, wire: meter.totals.consumed, encoding: encoding)
            }
        }
        if !Standard.body(data) {
            // The reader went away (the import failed or was cancelled): stop downloading.
            failed = true
            dataTask.cancel()
            return
        }
        // No pausing of the transfer while the reader is slower than the network. In
        // swift-corelibs-foundation, `suspend()` on a running data task moves it to
        // `.transferReady`, which takes its curl handle off the multi handle, and `resume()` adds
        // the handle back: curl starts the transfer again, and the body on stdout was no longer
        // the server's (a refresh under load failed to parse it mid-file, in the stress run).
        // The chunks wait for this serial queue instead, a few at most (`BoundedDelegateQueue`
        // holds curl's write callback while it is full): the server waits on TCP, not in memory.
    }

    func completed(_ error: Error?) {
        if let error, !failed {
            failed = true
            let (message, kind) = describe(error)
            let line = Self.errorLine(message, kind: kind)
            if wroteHead {
                Standard.write(Data((Self.json(line) + "\n").utf8), to: STDERR_FILENO)
            } else {
                writeLine(line)
            }
        } else if !wroteHead {
            writeLine(["status": 200, "headers": [String: String]()])
        }
        done.signal()
    }

    private func writeLine(_ object: [String: Any]) {
        _ = Standard.write(Data((Self.json(object) + "\n").utf8), to: STDOUT_FILENO)
    }

    static func json(_ object: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{\"error\":\"the download failed\"}"
    }

    /// One sentence for what went wrong, in the words `quaketui` shows, and its kind.
    func describe(_ error: Error) -> (String, FailureKind?) {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return ("the download failed: \(error)", nil) }
        lock.lock()
        let got = delivered, length = announced
        lock.unlock()
        // curl's "transfer closed with N bytes remaining" comes as an unknown error: a body shorter
        // than its Content-Length is a truncated answer, whatever the code.
        if let length, got < length, ![NSURLErrorTimedOut, NSURLErrorNetworkConnectionLost, NSURLErrorCancelled].contains(nsError.code) {
            return ("cannot download: \(host) ended its answer after \(Self.size(got)) of the \(Self.size(length)) it announced "
                    + "(truncated); try again", .badFeed)
        }
        switch nsError.code {
        case NSURLErrorNotConnectedToInternet:
            return ("cannot download: no network connection (offline?)", .offline)
        case NSURLErrorNetworkConnectionLost:
            // curl's "recv failure" (a TCP reset, a dropped connection): the network was there (issue 57).
            return ("cannot download: the connection to \(host) was reset before the whole response came; try again", .reset)
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return ("cannot download: the host \(host) could not be found (offline or DNS failure?)", .dns)
        case NSURLErrorCannotConnectToHost:
            return ("cannot download: \(host) refused the connection", .refused)
        case NSURLErrorTimedOut:
            return ("cannot download: \(host) sent nothing for \(Limits.seconds(limits.stall)) (timed out)", .timedOut)
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
             NSURLErrorServerCertificateNotYetValid, NSURLErrorServerCertificateHasUnknownRoot:
            return ("cannot download: the secure (TLS) connection to \(host) failed", .tls)
        case NSURLErrorCancelled:
            return ("the download was cancelled", nil)
        default:
            return ("cannot download from \(host): \(nsError.localizedDescription)", nil)
        }
    }
}

/// The kinds of failure the helper names in its error line (`"kind"`): `quaketui` reads them as
/// its `FailureKind` (the same tokens), so the status line's words never depend on the sentence.
enum FailureKind: String {
    case offline, dns, refused, reset, timedOut, tls, badFeed
}
