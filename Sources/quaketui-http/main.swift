// quaketui-http: the one process that links FoundationNetworking (libcurl and its TLS,
// Kerberos and LDAP libraries), so that the browser and every command start without loading
// them. `quaketui` starts it (one for a whole `fetch`, one per download otherwise) and reads its
// standard output:
//
//     quaketui-http [--timeout SECONDS] [--parent PID] [--max-inflation-ratio N] [--inflation-allowance BYTES]
//                   [--max-bytes BYTES] [--user-agent TEXT] [--header 'Name: value']... (URL | --session)
//
// `--timeout` is the stall limit (30 s): see `Limits` for it, the deadline, the inflation limit
// and the size limit (`--max-bytes`, 1 GiB). `--parent` is the process that reads the output
// (default: the one that started us); when it is gone, or it closed the pipe, the helper exits
// within a quarter of a second.
//
// stdout: one JSON line, then the body's bytes as they arrive (a pipe: the reader's pace is the
// backpressure). The line is either the response head,
//     {"status":200,"headers":{"etag":"…","last-modified":"…","retry-after":"…","content-length":"…"}}
// (header names lower-cased), or why no response came,
//     {"error":"cannot download: no network connection (offline?)","kind":"offline"}
// (`kind`, when known: offline, dns, refused, reset, timedOut, tls or badFeed; quaketui's
// status line words the failure from it, the sentence goes to its log).
// Exit status: 0 when the whole body was written, 1 when the download failed (before the head,
// or mid-body: then the error line goes to stderr, as it does for every limit the watchdog
// enforces), 64 for a bad command line.
//
// With `--session` instead of a URL it downloads one URL after another, so that a `fetch` of
// many windows starts (and links) one helper, not one per window, and keeps one connection to a
// service that allows it (one TCP and TLS handshake, not one per window). Each request is a JSON
// line on stdin, {"url":"…","headers":[["If-None-Match","…"]]}; each answer is the same head
// line followed by the body in frames, `<length in hex>\n<bytes>`, ended by `0\n`. A failure
// ends the process as above; so does the end of stdin.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum Standard {
    /// Bodies go out in frames (`--session`): set once, before the first download.
    nonisolated(unsafe) static var framed = false

    /// Writes a chunk of the body to stdout, as a frame in a session; false when the reader
    /// closed the pipe.
    static func body(_ data: Data) -> Bool {
        guard framed else { return write(data, to: STDOUT_FILENO) }
        guard !data.isEmpty else { return true }
        return write(Data((String(data.count, radix: 16) + "\n").utf8) + data, to: STDOUT_FILENO)
    }

    /// The frame that ends a body in a session.
    static func endBody() -> Bool { write(Data("0\n".utf8), to: STDOUT_FILENO) }

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
    Standard.write(Data(("quaketui-http: \(message)\nusage: quaketui-http [--timeout S] [--parent PID] [--max-inflation-ratio N] "
                         + "[--inflation-allowance BYTES] [--max-bytes BYTES] [--user-agent TEXT] [--header 'Name: value']... (URL | --session)\n").utf8),
                   to: STDERR_FILENO)
    exit(64)
}

// A reader that goes away must not kill us with SIGPIPE before we can stop cleanly.
signal(SIGPIPE, SIG_IGN)
// FoundationNetworking keeps a core busy while it waits on a server (its dispatch sources wake
// thousands of times a second, whether the response is slow to come or trickles in): at nice 10
// the browser it downloads for is scheduled before it on a busy machine. Only ever lowered.
Niceness.lower(to: Niceness.helper)
var arguments = Array(CommandLine.arguments.dropFirst())
var limits = Limits()
var parent = getppid()
var headers: [(String, String)] = [("User-Agent", "quaketui")]
var target: URL?
var session = false
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--timeout":
        guard let text = arguments.first, let value = TimeInterval(text), value > 0 else { usage("--timeout takes seconds") }
        limits.stall = value
        arguments.removeFirst()
    case "--parent":
        guard let text = arguments.first, let value = pid_t(text), value > 0 else { usage("--parent takes a process id") }
        parent = value
        arguments.removeFirst()
    case "--max-inflation-ratio", "--inflation-allowance":
        guard let text = arguments.first, let value = Int64(text), value >= 0 else { usage("\(argument) takes a number") }
        if argument == "--inflation-allowance" { limits.allowance = value } else { limits.maximumRatio = max(1, value) }
        arguments.removeFirst()
    case "--max-bytes":
        guard let text = arguments.first, let value = Int64(text), value > 0 else { usage("--max-bytes takes a number of bytes") }
        limits.maximumBytes = value
        arguments.removeFirst()
    case "--user-agent":
        guard let text = arguments.first else { usage("--user-agent takes a value") }
        headers[0].1 = text
        arguments.removeFirst()
    case "--session":
        session = true
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
// Started by a parent that has already died: nobody reads what we would download.
if getppid() != parent { exit(1) }
let downloader = Downloader(limits: limits, parent: parent)
guard session else {
    guard let target else { usage("no URL") }
    exit(downloader.download(target, headers: headers))
}
if target != nil { usage("--session reads its URLs from stdin, one JSON line each") }
Standard.framed = true
while let line = readLine() {
    guard let request = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let text = request["url"] as? String, let url = URL(string: text),
          ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
        Download.exit("quaketui-http: expected a request line with an http or https URL, got '\(line.prefix(200))'")
    }
    let extra = (request["headers"] as? [[String]] ?? []).compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    // Set in order: a request's own User-Agent replaces the command line's.
    let status = downloader.download(url, headers: headers + extra)
    guard status == 0 else { exit(status) }
    guard Standard.endBody() else { exit(1) }
}
exit(0)
