// quaketui-http: the one process that links FoundationNetworking (libcurl and its TLS,
// Kerberos and LDAP libraries), so that the browser and every command start without loading
// them. `quaketui` starts it for each download and reads its standard output:
//
//     quaketui-http [--timeout SECONDS] [--user-agent TEXT] [--header 'Name: value']... URL
//
// stdout: one JSON line, then the body's bytes as they arrive (a pipe: the reader's pace is the
// backpressure). The line is either the response head,
//     {"status":200,"headers":{"etag":"…","last-modified":"…","retry-after":"…","content-length":"…"}}
// (header names lower-cased), or why no response came,
//     {"error":"cannot download: no network connection (offline?)"}
// Exit status: 0 when the whole body was written, 1 when the download failed (before the head,
// or mid-body: then the error line goes to stderr), 64 for a bad command line.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams one response to stdout from URLSession's delegate queue.
final class Download: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the delegate queue is serial; `done` is signalled once.
    private let url: URL
    private let done = DispatchSemaphore(value: 0)
    private var wroteHead = false
    private(set) var failed = false

    init(url: URL) { self.url = url }

    func run(timeout: TimeInterval, headers: [(String, String)]) -> Int32 {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = 30 * 60
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        session.dataTask(with: request).resume()
        done.wait()
        session.invalidateAndCancel()
        return failed ? 1 : 0
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        var head: [String: Any] = ["status": 200]
        if let http = response as? HTTPURLResponse {
            head["status"] = http.statusCode
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            head["headers"] = headers
        }
        if response.expectedContentLength >= 0, head["headers"] == nil {
            head["headers"] = ["content-length": String(response.expectedContentLength)]
        }
        writeLine(head)
        wroteHead = true
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if !Standard.write(data, to: STDOUT_FILENO) {
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
        // The chunks wait for this serial queue instead, in this process: one response at most.
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error, !failed {
            failed = true
            let line: [String: Any] = ["error": Self.describe(error, url: url)]
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

    /// One sentence for what went wrong, in the words `quaketui` shows.
    static func describe(_ error: Error, url: URL) -> String {
        let host = url.host ?? url.absoluteString
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

enum Standard {
    /// Writes all of `data`; false when the reader closed the pipe.
    @discardableResult
    static func write(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}

func usage(_ message: String) -> Never {
    Standard.write(Data("quaketui-http: \(message)\nusage: quaketui-http [--timeout S] [--user-agent TEXT] [--header 'Name: value']... URL\n".utf8),
                   to: STDERR_FILENO)
    exit(64)
}

// A reader that goes away must not kill us with SIGPIPE before we can stop cleanly.
signal(SIGPIPE, SIG_IGN)
var arguments = Array(CommandLine.arguments.dropFirst())
var timeout: TimeInterval = 30
var headers: [(String, String)] = [("User-Agent", "quaketui")]
var target: URL?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--timeout":
        guard let text = arguments.first, let value = TimeInterval(text), value > 0 else { usage("--timeout takes seconds") }
        timeout = value
        arguments.removeFirst()
    case "--user-agent":
        guard let text = arguments.first else { usage("--user-agent takes a value") }
        headers[0].1 = text
        arguments.removeFirst()
    case "--header":
        guard let text = arguments.first, let colon = text.firstIndex(of: ":") else { usage("--header takes 'Name: value'") }
        headers.append((String(text[..<colon]), text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        arguments.removeFirst()
    default:
        guard target == nil, let url = URL(string: argument), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            usage("expected one http or https URL, got '\(argument)'")
        }
        target = url
    }
}
guard let target else { usage("no URL") }
exit(Download(url: target).run(timeout: timeout, headers: headers))
