import Foundation
import Glibc

/// A busy loop on every core, for tests that must hold under CPU load ("a number on screen is
/// exact or visibly provisional", checked with the real time budget, not a relaxed one).
///
/// ```swift
/// let load = try BusyCores()
/// defer { load.stop() }
/// ```
public final class BusyCores: @unchecked Sendable {
    private var children: [pid_t] = []

    /// Starts one spinning child process per online core (`count` to choose).
    public init(count: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        for _ in 0..<max(1, count) {
            var pid: pid_t = 0
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup("while :; do :; done"), nil]
            defer { for arg in argv { free(arg) } }
            let status = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
            guard status == 0 else {
                stop()
                throw ChildProcess.ChildError("could not start a busy loop: \(String(cString: strerror(status)))")
            }
            children.append(pid)
        }
    }

    /// Ends every busy loop (idempotent).
    public func stop() {
        for pid in children {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        children = []
    }

    deinit { stop() }
}
