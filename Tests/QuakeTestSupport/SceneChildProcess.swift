import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A copy of the running test binary re-launched to play one role in a multi-process test
/// (a scene writer to `kill -9`, a second app-storage writer, a second scene owner).
///
/// ```swift
/// let child = try SceneChildProcess.launch(role: "setKeys", suite: "SceneChildRole",
///                                         environment: ["SCENE_STATE": dir.path])
/// try child.waitForFile(readyPath, timeout: 30)
/// child.kill()
/// ```
///
/// The test binary is `/proc/self/exe`; it is run with Swift Testing's `--filter` for the one
/// test that acts as the child, and the role and its parameters travel in the environment
/// (`QUAKETUI_TEST_CHILD_ROLE` plus whatever the test passes). No compiler and no extra
/// executable target are needed.
public final class SceneChildProcess: @unchecked Sendable {
    /// The environment variable naming the role; the child test does nothing without it.
    public static let roleVariable = "QUAKETUI_TEST_CHILD_ROLE"

    /// The role of this process if it was launched as a child, else nil.
    public static var currentRole: String? { ProcessInfo.processInfo.environment[roleVariable] }

    private let process: ChildProcess
    /// Where the child's stdout and stderr go, for failure messages.
    public let logPath: String

    private init(process: ChildProcess, logPath: String) {
        self.process = process
        self.logPath = logPath
    }

    /// Starts the test binary running only `filter` (a Swift Testing test ID or suite name).
    public static func launch(role: String, filter: String, environment: [String: String],
                              logDirectory: String) throws -> SceneChildProcess {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var env = environment
        env[roleVariable] = role
        let logPath = logDirectory + "/child-\(role)-\(UUID().uuidString.prefix(8)).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let process = try ChildProcess(URL(fileURLWithPath: executable), ["--testing-library", "swift-testing", "--filter", filter],
                                       environment: env, stdoutPath: logPath)
        process.closeInput()
        return SceneChildProcess(process: process, logPath: logPath)
    }

    /// The child's process ID.
    public var pid: Int32 { process.pid }

    /// Waits until `path` exists (the child creates it when ready), or throws after `timeout`.
    public func waitForFile(_ path: String, timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: path) {
            if !process.isRunning {
                throw ChildError("child exited with status \(process.wait()) before \(path) appeared; log:\n\(log())")
            }
            if Date() > deadline { throw ChildError("timed out waiting for \(path); log:\n\(log())") }
            usleep(5_000)
        }
    }

    /// Sends SIGKILL and reaps the child.
    public func kill() {
        if process.isRunning { process.kill(SIGKILL) }
        process.wait()
    }

    /// Waits for the child to exit by itself; returns its status.
    @discardableResult
    public func wait(timeout: TimeInterval) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                kill()
                throw ChildError("child did not exit within \(timeout) s; log:\n\(log())")
            }
            usleep(5_000)
        }
        return process.wait()
    }

    /// The child's output so far.
    public func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    public typealias ChildError = ChildProcess.ChildError
}
