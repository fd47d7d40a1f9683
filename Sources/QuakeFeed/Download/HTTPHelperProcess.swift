import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One download by the `quaketui-http` helper (the only executable that links
/// FoundationNetworking): starts it, reads the response head it prints as a JSON line, then
/// hands out the body from its stdout. Not thread-safe: one reader.
///
/// The helper is found beside the running executable (`quaketui-http` in the same folder, as
/// SwiftPM and an install put it), or at `$QUAKETUI_HTTP_HELPER`. It enforces the download's
/// limits (see its `Limits`): `timeout` is the stall limit (`$QUAKETUI_HTTP_STALL_TIMEOUT`
/// seconds replaces it, for tests), the deadline follows from it, and a `Content-Encoding` gets
/// ``FeedReader``'s inflation limit. It exits by itself when this process dies.
final class HTTPHelperProcess {
    /// The response head: status and lower-cased header names.
    struct Head: Sendable {
        var status: Int
        var headers: [String: String]
    }

    /// Why no response came, in the helper's words ("cannot download: no network connection (offline?)").
    struct Failure: Error, CustomStringConvertible {
        let message: String
        /// The helper gave up on a stalled or too slow server (`"timedOut":true` in its line).
        var timedOut = false
        var description: String { message }
    }

    let head: Head
    private let pid: pid_t
    private let output: Int32
    private let errors: Int32
    private var pending: [UInt8]
    private var finished = false

    /// Starts the download and waits for the response head.
    /// - Throws: `Failure` for a transport error (offline, DNS, refused, timeout, TLS) or a helper
    ///   that cannot be started.
    init(url: URL, timeout: TimeInterval, headers: [(String, String)],
         environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let helper = Self.helperPath(environment: environment)
        let stall = environment["QUAKETUI_HTTP_STALL_TIMEOUT"].flatMap { TimeInterval($0) }.flatMap { $0 > 0 ? $0 : nil } ?? timeout
        var arguments = [helper, "--timeout", String(stall), "--parent", String(getpid()),
                         "--max-inflation-ratio", String(FeedReader.maximumInflationRatio),
                         "--inflation-allowance", String(FeedReader.inflationAllowance)]
        for (name, value) in headers { arguments += ["--header", "\(name): \(value)"] }
        arguments.append(url.absoluteString)
        let (pid, output, errors) = try Self.spawn(arguments)
        self.pid = pid
        self.output = output
        self.errors = errors
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var newline: Int?
        while newline == nil {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
            newline = bytes.firstIndex(of: UInt8(ascii: "\n"))
            if bytes.count > 1 << 20 { break }
        }
        guard let newline,
              let object = try? JSONSerialization.jsonObject(with: Data(bytes[..<newline])) as? [String: Any] else {
            let detail = Self.drain(errors)
            Self.reap(pid, output: output, errors: errors)
            throw Self.failure(detail) ?? Failure(message: detail.isEmpty ? "the download helper \(helper) gave no answer" : detail)
        }
        if let failure = Self.failure(object) {
            Self.reap(pid, output: output, errors: errors)
            throw failure
        }
        head = Head(status: object["status"] as? Int ?? 0, headers: object["headers"] as? [String: String] ?? [:])
        pending = Array(bytes[(newline + 1)...])
    }

    deinit { close() }

    /// Reads body bytes; 0 at the end. Throws when the download broke off mid-body.
    func read(into target: UnsafeMutableRawBufferPointer) throws -> Int {
        if !pending.isEmpty {
            let count = min(target.count, pending.count)
            pending.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            pending.removeFirst(count)
            return count
        }
        guard !finished else { return 0 }
        while true {
            let n = Glibc.read(output, target.baseAddress!, target.count)
            if n < 0, errno == EINTR { continue }
            if n > 0 { return n }
            // End of the body: the helper's exit status says whether it was all of it.
            let detail = Self.drain(errors)
            let status = Self.reap(pid, output: output, errors: errors)
            finished = true
            if status != 0 {
                throw Self.failure(detail) ?? Failure(message: "the download broke off before the end")
            }
            return 0
        }
    }

    /// Stops the download (the helper is killed) and releases its pipes. Safe to call twice.
    func close() {
        guard !finished else { return }
        finished = true
        kill(pid, SIGKILL)
        Self.reap(pid, output: output, errors: errors)
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

    static func helperPath(environment: [String: String]) -> String {
        if let path = environment["QUAKETUI_HTTP_HELPER"], !path.isEmpty { return path }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("quaketui-http").path
    }

    private static func spawn(_ arguments: [String]) throws -> (pid_t, Int32, Int32) {
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard pipe(&out) == 0 else { throw Failure(message: "cannot start a download: \(String(cString: strerror(errno)))") }
        guard pipe(&err) == 0 else {
            Glibc.close(out[0]); Glibc.close(out[1])
            throw Failure(message: "cannot start a download: \(String(cString: strerror(errno)))")
        }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
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
        guard rc == 0 else {
            Glibc.close(out[0]); Glibc.close(err[0])
            throw Failure(message: "cannot start the download helper \(arguments[0]): \(String(cString: strerror(rc))); "
                          + "reinstall quaketui so that quaketui-http sits beside it, or set QUAKETUI_HTTP_HELPER")
        }
        return (pid, out[0], err[0])
    }

    /// The helper's `{"error":"…"}` line (from stderr) as a failure; nil for anything else.
    private static func failure(_ detail: String) -> Failure? {
        (try? JSONSerialization.jsonObject(with: Data(detail.utf8)) as? [String: Any]).flatMap(failure)
    }

    private static func failure(_ line: [String: Any]) -> Failure? {
        guard let message = line["error"] as? String else { return nil }
        return Failure(message: message, timedOut: (line["timedOut"] as? NSNumber)?.boolValue ?? false)
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

    @discardableResult
    private static func reap(_ pid: pid_t, output: Int32, errors: Int32) -> Int32 {
        Glibc.close(output)
        Glibc.close(errors)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
