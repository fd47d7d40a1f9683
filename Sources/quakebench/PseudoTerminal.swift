import Foundation
import Glibc

/// A program running on a pseudo-terminal of a given size, as if in a terminal emulator:
/// the benchmark drives the real `quaketui` browser with it. Output is drained on a thread
/// (and thrown away) so the program never blocks on a full terminal.
final class PseudoTerminal: @unchecked Sendable {
    let pid: pid_t
    /// CLOCK_MONOTONIC at the spawn, in nanoseconds.
    let startedAt: UInt64
    private let master: Int32
    private let drained = DispatchSemaphore(value: 0)

    // Linux values the Glibc module does not import (asm-generic/ioctls.h, spawn.h).
    private static let setLock: UInt = 0x4004_5431    // TIOCSPTLCK
    private static let getNumber: UInt = 0x8004_5430  // TIOCGPTN
    private static let spawnSetSID: Int16 = 0x80      // POSIX_SPAWN_SETSID

    init(_ arguments: [String], columns: Int, rows: Int, environment: [String: String]) throws {
        // posix_openpt/grantpt/unlockpt/ptsname are not imported into Swift; on Linux they are
        // /dev/ptmx plus two ioctls (devpts needs no grantpt).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.setLock, &unlock) == 0, ioctl(master, Self.getNumber, &number) == 0
        else {
            throw BenchError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slavePath = "/dev/pts/\(number)"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, slavePath, O_RDWR, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own, so the terminal is the program's controlling terminal.
        posix_spawnattr_setflags(&attributes, Self.spawnSetSID)
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm-256color"
        for (key, value) in environment { env[key] = value }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        startedAt = monotonicNanoseconds()
        let rc = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        guard rc == 0 else {
            close(master)
            throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        let master = master, drained = drained
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while buffer.withUnsafeMutableBytes({ read(master, $0.baseAddress, $0.count) }) > 0 {}
            drained.signal()
        }
    }

    /// Types `text` as keys.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits for the program to exit and returns its exit status (128 + N for signal N).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(master)
        drained.wait()
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// The program's resident set size high-water mark (VmHWM) while it runs, in bytes.
    var peakRSSBytes: Int64? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int64(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// CPU time the program has used so far (user + system, all threads), in seconds, from
    /// `/proc/PID/stat` (fields 14 and 15, in clock ticks).
    func cpuSeconds() throws -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { throw BenchError("cannot read /proc/\(pid)/stat") }
        // Fields after the command name (which may hold spaces), starting at field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("unexpected /proc/\(pid)/stat: \(stat)")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
