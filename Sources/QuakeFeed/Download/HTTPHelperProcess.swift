import Foundation
import QuakeModel
#if canImport(Glibc)
import Glibc
#endif

/// A `quaketui-http --session` process: the only executable that links FoundationNetworking.
/// It downloads one URL after another, each request a JSON line on its stdin, each answer the
/// response head as a JSON line on its stdout followed by the body in frames (see the helper's
/// `main.swift`). Starting and linking it costs ~20 ms of CPU, so a `fetch` keeps one for all its
/// windows (`DownloadSession`); a single download ends its stdin with the request (`last`) and
/// the helper exits after the answer. Not thread-safe: one reader at a time.
///
/// The helper is found beside the running executable (`quaketui-http` in the same folder, as
/// SwiftPM and an install put it), or at `$QUAKETUI_HTTP_HELPER`. It enforces the download's
/// limits (see its `Limits`): `timeout` is the stall limit (`$QUAKETUI_HTTP_STALL_TIMEOUT`
/// seconds replaces it, for tests), the deadline follows from it, and a `Content-Encoding` gets
/// ``FeedReader``'s inflation limit. It exits by itself when this process dies, and on any
/// failure (with its reason on stderr): then this object is `dead`.
final class HTTPHelperProcess {
    /// The response head: status and lower-cased header names.
    struct Head: Sendable {
        var status: Int
        var headers: [String: String]
    }

    /// Why no response came, in the helper's words ("cannot download: no network connection (offline?)").
    struct Failure: Error, CustomStringConvertible {
        let message: String
        /// The kind the helper named (`"kind"` in its line): `.timedOut` for a stalled or too slow server.
        var kind: FailureKind?
        /// The helper ended without a word (killed, or gone before the request).
        var helperGone = false
        var description: String { message }
    }

    enum State: Equatable {
        /// Waiting for a request.
        case idle
        /// A body is being read.
        case body
        /// Exited (or killed) and reaped.
        case dead
    }

    private(set) var state = State.idle
    /// The helper executable, for the message when it gives no answer.
    private let path: String
    private let pid: pid_t
    /// The helper's process id (tests find their own helper by it, not among every child).
    var processID: pid_t { pid }
    /// The request socket (its stdin), -1 once closed: no more requests.
    private var input: Int32
    private let output: Int32
    private let errors: Int32
    /// Bytes read from `output` and not handed out yet: `buffer[position...]`.
    private var buffer: [UInt8] = []
    private var position = 0
    /// Body bytes left in the current frame.
    private var frameLeft = 0
    /// Reaped by `isRunning` already.
    private var exited = false

    /// Starts a helper that waits for its first request.
    /// - Throws: `Failure` when it cannot be started.
    init(timeout: TimeInterval, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        path = Self.helperPath(environment: environment)
        let stall = environment["QUAKETUI_HTTP_STALL_TIMEOUT"].flatMap { TimeInterval($0) }.flatMap { $0 > 0 ? $0 : nil } ?? timeout
        (pid, input, output, errors) = try Self.spawn([
            path, "--timeout", String(stall), "--parent", String(getpid()),
            "--max-inflation-ratio", String(FeedReader.maximumInflationRatio),
            "--inflation-allowance", String(FeedReader.inflationAllowance),
            "--max-bytes", String(Self.maximumBytes(environment: environment)), "--session",
        ])
    }

    /// The most one download may bring, decoded: 1 GiB, or `QUAKETUI_MAX_DOWNLOAD_MIB=N` MiB. A
    /// server that sends forever fails the download there instead of filling the disk; no real
    /// feed or FDSN answer comes near it (a month of the world from USGS is about 10 MB).
    static func maximumBytes(environment: [String: String]) -> Int64 {
        let mebibytes = environment["QUAKETUI_MAX_DOWNLOAD_MIB"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 1024
        let (bytes, overflow) = mebibytes.multipliedReportingOverflow(by: 1 << 20)
        return overflow ? .max : bytes
    }

    deinit {
        if state == .body { kill() } else if state == .idle { finish() }
    }

    /// Asks for `url` and waits for the response head; `last`: no request follows, the helper
    /// exits after this answer.
    /// - Throws: `Failure` for a transport error (offline, DNS, refused, timeout, TLS) or a helper
    ///   that is gone; the helper is then `dead`.
    func begin(url: URL, headers: [(String, String)], last: Bool = false) throws -> Head {
        precondition(state == .idle, "a request while a body is being read")
        let request: [String: Any] = ["url": url.absoluteString, "headers": headers.map { [$0.0, $0.1] }]
        let line = ((try? JSONSerialization.data(withJSONObject: request)) ?? Data()) + Data("\n".utf8)
        let sent = line.withUnsafeBytes { Self.send(input, $0) }
        if last { closeInput() }
        guard sent, let headLine = readLine(limit: 1 << 20),
              let object = try? JSONSerialization.jsonObject(with: Data(headLine)) as? [String: Any] else {
            throw failAfterExit(orElse: "the download helper \(path) gave no answer")
        }
        if let failure = Self.failure(object) {
            reap()
            throw failure
        }
        state = .body
        frameLeft = 0
        return Head(status: object["status"] as? Int ?? 0, headers: object["headers"] as? [String: String] ?? [:])
    }

    /// Reads body bytes; 0 at the end. Throws when the download broke off mid-body.
    func read(into target: UnsafeMutableRawBufferPointer) throws -> Int {
        guard state == .body else { return 0 }
        while frameLeft == 0 {
            guard let header = readLine(limit: 32) else { throw failAfterExit(orElse: "the download broke off before the end") }
            guard let length = Int(String(decoding: header, as: UTF8.self), radix: 16), length >= 0 else {
                kill()
                throw Failure(message: "the download helper sent a frame that is not one ('\(String(decoding: header.prefix(32), as: UTF8.self))')")
            }
            if length == 0 {
                state = .idle
                if input < 0 { finish() }
                return 0
            }
            frameLeft = length
        }
        let wanted = min(target.count, frameLeft)
        if position < buffer.count {
            let count = min(wanted, buffer.count - position)
            buffer.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[position..<(position + count)])) }
            position += count
            frameLeft -= count
            return count
        }
        // Straight into the reader's buffer: the body is most of what comes through.
        let n = readOutput(into: UnsafeMutableRawBufferPointer(rebasing: target[0..<wanted]))
        guard n > 0 else { throw failAfterExit(orElse: "the download broke off before the end") }
        frameLeft -= n
        return n
    }

    /// Everything the body still has, up to `limit` bytes (error bodies are short).
    func readAll(limit: Int) throws -> [UInt8] {
        var body: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while body.count < limit {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { break }
            body += chunk[0..<n]
        }
        return Array(body.prefix(limit))
    }

    /// Whether the helper still runs (false once it exited, which reaps it).
    var isRunning: Bool {
        guard state != .dead else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        exited = true
        reap()
        return false
    }

    /// Kills the helper from any thread, without touching what the reading thread uses: a read
    /// waiting for it then ends (the pipe closes), and that thread reaps it. For a download that
    /// must stop now (quitting while a server trickles).
    func terminate() { Glibc.kill(pid, SIGKILL) }

    /// Stops the helper now (a body left unread), and reaps it. Safe to call twice.
    func kill() {
        guard state != .dead else { return }
        Glibc.kill(pid, SIGKILL)
        reap()
    }

    /// No more requests: the helper exits once its stdin ends; reaps it.
    private func finish() {
        closeInput()
        reap()
    }

    // MARK: Reading the helper's output

    /// The next line of the output (without its newline), nil at its end; a line longer than
    /// `limit` is no line of the helper's: it is stopped, and the answer is nil as at the end.
    private func readLine(limit: Int) -> ArraySlice<UInt8>? {
        var searched = position
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[position..<newline]
                position = newline + 1
                return line
            }
            searched = buffer.count
            guard buffer.count - position <= limit else {
                Glibc.kill(pid, SIGKILL)
                return nil
            }
            if position > 0 && position == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                position = 0
                searched = 0
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { readOutput(into: $0) }
            if n == 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    private func readOutput(into target: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = Glibc.read(output, target.baseAddress!, target.count)
            if n >= 0 { return n }
            if errno != EINTR { return 0 }
        }
    }

    /// The helper ended early: its reason (from stderr) as a failure, once it is reaped.
    private func failAfterExit(orElse fallback: String) -> Failure {
        closeInput()
        let detail = Self.drain(errors)
        reap()
        return Self.failure(detail) ?? Failure(message: detail.isEmpty ? fallback : detail, helperGone: detail.isEmpty)
    }

    private func closeInput() {
        guard input >= 0 else { return }
        Glibc.close(input)
        input = -1
    }

    private func reap() {
        guard state != .dead else { return }
        state = .dead
        closeInput()
        Glibc.close(output)
        Glibc.close(errors)
        guard !exited else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Writes all of `bytes` to the request socket; false when the helper is gone (no SIGPIPE:
    /// a socket, sent with MSG_NOSIGNAL).
    private static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    static func helperPath(environment: [String: String]) -> String {
        if let path = environment["QUAKETUI_HTTP_HELPER"], !path.isEmpty { return path }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("quaketui-http").path
    }

    /// Starts the helper with a socket for its stdin (requests), pipes for stdout and stderr, and
    /// no other descriptor of this process's.
    /// - Returns: its pid, the request socket, its stdout and its stderr.
    private static func spawn(_ arguments: [String]) throws -> (pid_t, Int32, Int32, Int32) {
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0], requests: [Int32] = [0, 0]
        func cannotStart() -> Failure { Failure(message: "cannot start a download: \(String(cString: strerror(errno)))") }
        guard pipe(&out) == 0 else { throw cannotStart() }
        guard pipe(&err) == 0 else {
            let failure = cannotStart()
            Glibc.close(out[0]); Glibc.close(out[1])
            throw failure
        }
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &requests) == 0 else {
            let failure = cannotStart()
            for fd in out + err { Glibc.close(fd) }
            throw failure
        }
        for fd in out + err + requests { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, requests[1], 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        // Nothing else: descriptors this process opened without close-on-exec (the browser's
        // terminal, /dev/pts/N) must not reach the helper. `posix_spawn_file_actions_addclosefrom_np`
        // does not import into Swift, so each open one is closed; a close of a descriptor that is
        // closed by then is no error to posix_spawn (glibc fails only for one out of range).
        for fd in Self.openDescriptors() where fd > 2 && !(out + err + requests).contains(fd) {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        // No blocked signals and default handlers in the child, whatever thread starts it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
        Glibc.close(out[1])
        Glibc.close(err[1])
        Glibc.close(requests[1])
        guard rc == 0 else {
            Glibc.close(out[0]); Glibc.close(err[0]); Glibc.close(requests[0])
            throw Failure(message: "cannot start the download helper \(arguments[0]): \(String(cString: strerror(rc))); "
                          + "reinstall quaketui so that quaketui-http sits beside it, or set QUAKETUI_HTTP_HELPER")
        }
        return (pid, requests[0], out[0], err[0])
    }

    /// This process's open file descriptors (`/proc/self/fd`).
    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }

    /// The helper's `{"error":"…"}` line (from stderr) as a failure; nil for anything else.
    private static func failure(_ detail: String) -> Failure? {
        (try? JSONSerialization.jsonObject(with: Data(detail.utf8)) as? [String: Any]).flatMap(failure)
    }

    private static func failure(_ line: [String: Any]) -> Failure? {
        guard let message = line["error"] as? String else { return nil }
        return Failure(message: message, kind: (line["kind"] as? String).flatMap(FailureKind.init(token:)))
    }

    /// What the helper wrote on stderr (one short line at most).
    private static func drain(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while bytes.count < 16_384 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
