import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The executables SwiftPM built beside the running test bundle.
public enum BuildProducts {
    /// The build folder (e.g. `.build/x86_64-unknown-linux-gnu/debug`).
    public static let directory: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("quaketui").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }()

    public static func executable(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// A child process with captured output, for multi-process and command-line tests.
///
/// Built on `posix_spawn` and `waitpid` rather than Foundation's `Process`, which on Linux
/// sometimes never reports a child's exit when tests spawn many processes in parallel. Pipes
/// are close-on-exec, so concurrently spawned children never hold each other's pipe ends.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: `out`, `err` and `exitStatus` are only touched under `lock`.
    public let pid: pid_t
    private let stdinFD: Int32
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private var exitStatus: Int32?
    private let readers = DispatchGroup()
    private var inputClosed = false
    private static let spawnLock = NSLock()

    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                currentDirectory: URL? = nil, stdoutPath: String? = nil) throws {
        // pipe2(O_CLOEXEC) is not imported; pipe + FD_CLOEXEC under one process-wide lock that
        // also covers the spawn, so no concurrent spawn here inherits these pipes unmarked.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0], error: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&error) == 0 else {
            throw ChildError("pipe failed: \(String(cString: strerror(errno)))")
        }
        for fd in input + output + error { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, output[1], 1)
            posix_spawn_file_actions_adddup2(&actions, error[1], 2)
        }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment ?? [:] { env[key] = value }
        // posix_spawn_file_actions_addchdir_np is not imported: change directory through sh.
        var command = [executable.path] + arguments
        if let currentDirectory {
            command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", currentDirectory.path] + command
        }
        let path = command[0]
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The child starts with no blocked signals and default handlers. posix_spawn otherwise
        // copies the calling thread's signal mask, and Dispatch and Swift Testing worker
        // threads block most signals: a child spawned there ignored SIGTERM (LocalHTTPServer.stop
        // waited forever), and a tmux server passed a blocked SIGWINCH on to the browser.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, &argv, &envp)
        close(input[0]); close(output[1]); close(error[1])
        guard rc == 0 else {
            close(input[1]); close(output[0]); close(error[0])
            throw ChildError("cannot start \(executable.path): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        stdinFD = input[1]
        startReading(output[0]) { [unowned self] data in out.append(data) }
        startReading(error[0]) { [unowned self] data in err.append(data) }
    }

    deinit {
        if exitStatus == nil {
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        if !inputClosed { close(stdinFD) }
    }

    private func startReading(_ fd: Int32, _ append: @escaping @Sendable (Data) -> Void) {
        readers.enter()
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                lock.lock(); append(Data(buffer[0..<count])); lock.unlock()
            }
            close(fd)
            readers.leave()
        }
    }

    public var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    public var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }
    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(stdinFD, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Closes the child's standard input (it sees end of file).
    public func closeInput() {
        lock.lock()
        defer { lock.unlock() }
        guard !inputClosed else { return }
        inputClosed = true
        Glibc.close(stdinFD)
    }

    /// Whether the child is still running (reaps it if it has exited).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if exitStatus != nil { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        exitStatus = Self.decode(status)
        return false
    }

    /// Polls until `condition` holds on stdout or `timeout` passes; returns whether it held.
    @discardableResult
    public func waitForOutput(timeout: TimeInterval = 10, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(stdout) { return true }
            usleep(2_000)
        }
        return condition(stdout)
    }

    /// Waits for the child to exit and its output to be read; returns its exit status
    /// (128 + signal for a signalled child).
    @discardableResult
    public func wait() -> Int32 {
        lock.lock()
        var status = exitStatus
        lock.unlock()
        if status == nil {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = Self.decode(raw)
            lock.lock(); exitStatus = status; lock.unlock()
        }
        // A grandchild (a daemon) may keep the pipes open: don't wait for it forever.
        _ = readers.wait(timeout: .now() + 5)
        return status!
    }

    public func kill(_ signal: Int32 = SIGKILL) { Glibc.kill(pid, signal) }

    /// The children of every thread of process `pid` (`/proc/PID/task/TID/children`).
    public static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [pid_t] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { pid_t($0) }
        }
    }

    /// Whether process `pid` is gone: no `/proc` entry, or a zombie (exited, not yet reaped).
    public static func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    private static func decode(_ status: Int32) -> Int32 {
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Runs to completion and returns (status, stdout, stderr).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                           stdin: String? = nil, currentDirectory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, currentDirectory: currentDirectory)
        if let stdin { child.write(stdin) }
        child.closeInput()
        let status = child.wait()
        return (status, child.stdout, child.stderr)
    }

    /// A failure to start or manage a child process.
    public struct ChildError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }
}
