import Foundation

/// A static file server on 127.0.0.1 (Python's `http.server`), for tests that download;
/// or an FDSN event service over a catalogue file (see `LocalHTTPServer+FDSN.swift`).
/// Never reaches beyond the loopback interface.
public final class LocalHTTPServer {
    public let port: Int
    public let directory: URL
    private let process: ChildProcess

    /// Serves `directory`; with `log`, each request is logged there (`"GET /all_day.geojson HTTP/1.1" 304 -`).
    /// Python's server honours `If-Modified-Since` (a 304 when the file is not newer).
    public convenience init(serving directory: URL, log: String = "/dev/null") throws {
        try self.init(directory: directory, output: log) { port in
            ["python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory.path]
        }
    }

    /// Starts `python3 ARGUMENTS(port)` on a free port and waits until it answers.
    init(directory: URL, output: String, arguments: (Int) -> [String]) throws {
        self.directory = directory
        var lastError: Error?
        for _ in 0..<20 {
            // A port no live socket holds: a random one could be another test's server, which
            // then "answers" for this one until that test stops it (a refused connection later).
            let port = Self.unusedPort() ?? Int.random(in: 20_000..<60_000)
            let process: ChildProcess
            do {
                process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments(port),
                                           stdoutPath: output)
            } catch {
                lastError = error
                continue
            }
            // Ready when it answers; gone when the port was taken.
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline && process.isRunning {
                if Self.answers(port: port) {
                    self.port = port
                    self.process = process
                    return
                }
                usleep(20_000)
            }
            process.kill(SIGTERM)
            process.wait()
        }
        throw lastError ?? ChildProcess.ChildError("could not start a local HTTP server")
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public func stop() {
        guard process.isRunning else { return }
        process.kill(SIGTERM)
        process.wait()
    }

    deinit { stop() }

    /// A port the kernel picks for `bind` to port 0 on 127.0.0.1, so free right now.
    private static func unusedPort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    private static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
