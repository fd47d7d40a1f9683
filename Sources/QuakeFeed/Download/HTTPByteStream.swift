import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams an HTTP(S) response body into a `FeedReader`: the download and the import run at
/// once, with at most `bufferLimit` bytes waiting between them (backpressure suspends the task).
///
/// ```swift
/// let stream = try HTTPByteStream(url: url, timeout: 30)
/// let reader = try FeedReader(source: .stream(stream), name: url.absoluteString)
/// ```
public final class HTTPByteStream: NSObject, FeedByteStream, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: every mutable member is guarded by `condition`.
    private let condition = NSCondition()
    private var buffer = Data()
    private var finished = false
    private var failure: Error?
    private var contentLength: Int64?
    private var session: URLSession!
    private var task: URLSessionDataTask!
    private var suspended = false
    /// Whether the session was invalidated (it then no longer retains this delegate).
    private var invalidated = false
    private let bufferLimit = 4 << 20
    /// The status and headers of a response that is not 2xx, while its body is collected.
    private var errorStatus: Int?
    private var errorRetryAfter: TimeInterval?
    private var errorBody = Data()
    public let url: URL
    /// The HTTP status of the response (200, 204, …), once the headers arrived.
    public private(set) var statusCode = 0

    /// Starts the request and waits for the response headers.
    /// - Throws: `FeedError` with `.cannotOpen` and a sentence for offline, DNS, TLS, timeouts
    ///   and HTTP status errors.
    public init(url: URL, timeout: TimeInterval = 30, userAgent: String = "quaketui") throws(FeedError) {
        self.url = url
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = 30 * 60
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        var request = URLRequest(url: url)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        task = session.dataTask(with: request)
        task.resume()
        condition.lock()
        while contentLength == nil && !finished && failure == nil { condition.wait() }
        let error = failure
        condition.unlock()
        if let error {
            close()
            throw FeedError(code: .cannotOpen, name: url.absoluteString, message: Self.describe(error, url: url),
                            hint: "nothing was changed", underlyingError: error)
        }
    }

    // The session retains its delegate until it is invalidated, so this runs only after
    // `close()` or the end of the body; invalidating again from here could run on the
    // session's own queue and deadlock (a trap in libdispatch).
    deinit {}

    /// Stops the download (if it still runs) and releases the session. Safe to call twice.
    public func close() {
        condition.lock()
        let first = !invalidated
        invalidated = true
        condition.unlock()
        if first { session?.invalidateAndCancel() }
    }

    public var totalBytes: Int64? {
        condition.lock()
        defer { condition.unlock() }
        return contentLength.flatMap { $0 > 0 ? $0 : nil }
    }

    public func read(into target: UnsafeMutableRawBufferPointer) throws -> Int {
        condition.lock()
        defer { condition.unlock() }
        while buffer.isEmpty && !finished && failure == nil { condition.wait() }
        if buffer.isEmpty, let failure {
            condition.unlock()
            close()
            condition.lock()
            throw DownloadFailure(message: Self.describe(failure, url: url))
        }
        if buffer.isEmpty, finished, !invalidated {
            invalidated = true
            session.finishTasksAndInvalidate()
            return 0
        }
        let count = min(target.count, buffer.count)
        buffer.copyBytes(to: target.bindMemory(to: UInt8.self), count: count)
        buffer.removeFirst(count)
        if suspended && buffer.count < bufferLimit / 2 {
            suspended = false
            task.resume()
        }
        return count
    }

    /// Stops the download; a blocked `read` returns an error.
    public func cancel() {
        task.cancel()
    }

    public func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {}

    // MARK: URLSessionDataDelegate

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        condition.lock()
        defer { condition.signal(); condition.unlock() }
        if let http = response as? HTTPURLResponse {
            statusCode = http.statusCode
            if !(200..<300).contains(http.statusCode) {
                // Keep the (short) body: FDSN services explain errors there.
                errorStatus = http.statusCode
                errorRetryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
                completionHandler(.allow)
                return
            }
        }
        contentLength = max(0, response.expectedContentLength)
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        condition.lock()
        if errorStatus != nil {
            if errorBody.count < 8192 { errorBody.append(data.prefix(8192 - errorBody.count)) }
            condition.unlock()
            return
        }
        buffer.append(data)
        if buffer.count > bufferLimit && !suspended {
            suspended = true
            dataTask.suspend()
        }
        condition.signal()
        condition.unlock()
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        condition.lock()
        if let status = errorStatus, failure == nil {
            failure = HTTPStatusError(status: status, body: String(decoding: errorBody, as: UTF8.self), retryAfter: errorRetryAfter)
        }
        if let error, failure == nil { failure = error }
        finished = true
        if contentLength == nil { contentLength = 0 }
        condition.broadcast()
        condition.unlock()
    }

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

    struct DownloadFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// One sentence for what went wrong with the download.
    static func describe(_ error: Error, url: URL) -> String {
        let host = url.host ?? url.absoluteString
        if let status = error as? HTTPStatusError {
            let reason = HTTPURLResponse.localizedString(forStatusCode: status.status)
            let because = status.explanation.map { ": \($0.hasSuffix(".") ? String($0.dropLast()) : $0)" } ?? ""
            return "the server answered HTTP \(status.status) (\(reason)) for \(url.absoluteString)\(because)"
        }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return "the download failed: \(error)" }
        switch nsError.code {
        case NSURLErrorNotConnectedToInternet, NSURLErrorNetworkConnectionLost:
            return "cannot download: no network connection (offline?)"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return "cannot download: the host \(host) could not be found (offline or DNS failure?)"
        case NSURLErrorCannotConnectToHost:
            return "cannot download: \(host) refused the connection"
        case NSURLErrorTimedOut:
            return "cannot download: \(host) did not answer in time"
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
             NSURLErrorServerCertificateNotYetValid, NSURLErrorServerCertificateHasUnknownRoot:
            return "cannot download: the secure (TLS) connection to \(host) failed"
        case NSURLErrorCancelled:
            return "the download was cancelled"
        default:
            return "cannot download from \(host): \(nsError.localizedDescription)"
        }
    }
}
