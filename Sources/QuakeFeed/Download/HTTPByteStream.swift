import Foundation
import QuakeModel

/// Streams an HTTP(S) response body into a `FeedReader`: the download and the import run at
/// once. The download itself runs in the `quaketui-http` helper (see `HTTPHelperProcess`), the
/// one executable that links FoundationNetworking, so no other process loads libcurl and its
/// TLS libraries; what the import has not read yet waits in the helper (a few chunks, then the
/// server waits on TCP), not here.
///
/// ```swift
/// let stream = try HTTPByteStream(url: url, timeout: 30)
/// let reader = try FeedReader(source: .stream(stream), name: url.absoluteString)
/// ```
public final class HTTPByteStream: FeedByteStream, @unchecked Sendable {
    // @unchecked: one reader at a time uses it (FeedByteStream's contract); `lock` guards `helper`.
    private let lock = NSLock()
    private let helper: HTTPHelperProcess
    public let url: URL
    /// The process id of the helper that downloads it (tests).
    var helperProcessID: pid_t { helper.processID }
    /// The HTTP status of the response (200, 204, 304, …).
    public let statusCode: Int
    /// The response headers, names lower-cased (`etag`, `last-modified`, `retry-after`, …).
    public let responseHeaders: [String: String]

    /// Starts the request and waits for the response head. `headers` are sent as given (for
    /// example `If-None-Match` for a conditional request; a 304 answer is then no error).
    /// - Throws: `FeedError` with `.cannotOpen` and a sentence for offline, DNS, TLS, timeouts
    ///   and HTTP status errors (the `underlyingError` is an `HTTPStatusError` for those).
    /// `abort` stops it from another thread, even while the head is awaited.
    public convenience init(url: URL, timeout: TimeInterval = 30, userAgent: String = "quaketui",
                            headers: [(String, String)] = [], abort: DownloadAbort? = nil) throws(FeedError) {
        try self.init(url: url, userAgent: userAgent, headers: headers, session: nil, timeout: timeout, abort: abort)
    }

    /// A download through `session`'s helper (one helper for many downloads), or through a
    /// helper of its own that exits after it (`session` nil).
    init(url: URL, userAgent: String = "quaketui", headers: [(String, String)] = [], session: DownloadSession?,
         timeout: TimeInterval = 30, abort: DownloadAbort? = nil) throws(FeedError) {
        self.url = url
        let helper: HTTPHelperProcess
        let head: HTTPHelperProcess.Head
        do {
            let all = [("User-Agent", userAgent)] + headers
            if let session {
                (helper, head) = try session.begin(url: url, headers: all)
            } else {
                helper = try HTTPHelperProcess(timeout: timeout)
                // Before the head: a server that trickles it must not hold up the abort.
                abort?.attach(helper)
                head = try helper.begin(url: url, headers: all, last: true)
            }
        } catch {
            throw FeedError(code: .cannotOpen, name: url.absoluteString, message: "\(error)", hint: "nothing was changed",
                            underlyingError: error)
        }
        self.helper = helper
        statusCode = head.status
        responseHeaders = head.headers
        guard (200..<300).contains(statusCode) || statusCode == 304 else {
            // Keep the (short) body: FDSN services explain errors there.
            let body = (try? helper.readAll(limit: 8192)) ?? []
            close()
            let retryAfter = responseHeaders["retry-after"].flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
            let status = HTTPStatusError(status: statusCode, body: String(decoding: body, as: UTF8.self), retryAfter: retryAfter)
            throw FeedError(code: .cannotOpen, name: url.absoluteString, message: Self.describe(status, url: url),
                            hint: "nothing was changed", underlyingError: status)
        }
    }

    /// Stops the download (if it still runs). Safe to call twice.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        // 204 and 304 have no body: its end is already on its way, and the helper stays for a
        // session's next download. Any other body left unread stops the helper (a session
        // starts another for its next).
        if helper.state == .body, statusCode == 204 || statusCode == 304 { _ = try? helper.readAll(limit: 4096) }
        if helper.state == .body { helper.kill() }
    }

    public var totalBytes: Int64? {
        responseHeaders["content-length"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    public func read(into target: UnsafeMutableRawBufferPointer) throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try helper.read(into: target)
        } catch {
            throw DownloadFailure(message: "\(error)", kind: (error as? HTTPHelperProcess.Failure)?.kind)
        }
    }

    /// Stops the download; a later `read` returns the end or an error.
    public func cancel() { close() }

    /// Stops the download from another thread at once, even while a `read` waits for a server
    /// that trickles: that read ends with an error (issue 57: `q` waited for the server's limit).
    /// Unlike ``cancel()`` it does not wait for the reading thread.
    public func abort() { helper.terminate() }

    /// A response that is not 2xx: its status, its body (FDSN services explain errors there)
    /// and its `Retry-After` in seconds, if any.
    public struct HTTPStatusError: Error, Sendable {
        public let status: Int
        public var body: String = ""
        public var retryAfter: TimeInterval?

        /// The one sentence of the body that explains the error: FDSN bodies start with
        /// `Error 400: Bad Request` and give the detail on the next non-empty line.
        public var explanation: String? {
            let lines = body.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("<") }
            let detail = lines.first { !$0.lowercased().hasPrefix("error \(status)") } ?? lines.first
            guard var detail, !detail.isEmpty else { return nil }
            if detail.count > 200 { detail = String(detail.prefix(200)) + "…" }
            return detail
        }
    }

    /// A download that broke off mid-body, in the helper's words and of the kind it named.
    struct DownloadFailure: Error, CustomStringConvertible {
        let message: String
        var kind: FailureKind?
        var description: String { message }
    }

    /// Whether `error` (from opening or reading a download) is the helper giving up on a
    /// stalled or too slow server, rather than a refusal or a broken connection.
    public static func isTimeout(_ error: FeedError) -> Bool { error.kind == .timedOut }

    /// One sentence for what went wrong with the download.
    static func describe(_ error: Error, url: URL) -> String {
        guard let status = error as? HTTPStatusError else {
            // Transport failures arrive already worded by quaketui-http.
            return "\(error)"
        }
        let reason = reasons[status.status].map { " (\($0))" } ?? ""
        let because = status.explanation.map { ": \($0.hasSuffix(".") ? String($0.dropLast()) : $0)" } ?? ""
        return "the server answered HTTP \(status.status)\(reason) for \(url.absoluteString)\(because)"
    }

    /// `HTTP 400 (Bad Request): the explanation`: the answer an error page gives, in `describe`'s
    /// words (an imported error page says it without a URL).
    static func answer(_ status: HTTPStatusError) -> String {
        let reason = reasons[status.status].map { " (\($0))" } ?? ""
        let because = status.explanation.map { ": \($0.hasSuffix(".") ? String($0.dropLast()) : $0)" } ?? ""
        return "HTTP \(status.status)\(reason)\(because)"
    }

    /// The reason phrases of the statuses a feed or FDSN service answers with (RFC 9110).
    static let reasons: [Int: String] = [
        204: "No Content", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout", 410: "Gone",
        413: "Content Too Large", 414: "URI Too Long", 429: "Too Many Requests", 500: "Internal Server Error",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]
}
