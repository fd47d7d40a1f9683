import Foundation

/// The executables SwiftPM built beside the running test bundle.
public enum BuildProducts {
    /// The build folder (e.g. `.build/x86_64-unknown-linux-gnu/debug`).
    public static let directory: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // On Linux the test runner is `…/debug/quaketuiPackageTests.xctest`; elsewhere it may sit in a bundle.
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("quaketui").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }()

    public static func executable(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// A child process with captured output, for multi-process and command-line tests.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: `output` is appended by the pipe's reader thread under `lock`.
    public let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                currentDirectory: URL? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        stdoutPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            lock.lock(); out.append(data); lock.unlock()
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            lock.lock(); err.append(data); lock.unlock()
        }
        try process.run()
    }

    public var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    public var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }
    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    public func write(_ text: String) { stdinPipe.fileHandleForWriting.write(Data(text.utf8)) }
    public func closeInput() { try? stdinPipe.fileHandleForWriting.close() }

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

    /// Waits for the process to exit and returns its status (drains the pipes first).
    @discardableResult
    public func wait() -> Int32 {
        process.waitUntilExit()
        // Let the readability handlers catch up with what is left in the pipes.
        stdoutPipe.fileHandleForReading.readabilityHandler = nil
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        let restOut = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
        let restErr = stderrPipe.fileHandleForReading.readDataToEndOfFile()
        lock.lock(); out.append(restOut); err.append(restErr); lock.unlock()
        return process.terminationStatus
    }

    public func kill(_ signal: Int32 = SIGKILL) { Foundation.kill(process.processIdentifier, signal) }

    /// Runs to completion and returns (status, stdout, stderr).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                           stdin: String? = nil, currentDirectory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, currentDirectory: currentDirectory)
        if let stdin { child.write(stdin) }
        child.closeInput()
        let status = child.wait()
        return (status, child.stdout, child.stderr)
    }
}
