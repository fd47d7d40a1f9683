import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process's wall time and peak resident set size.
struct Measurement {
    var seconds: Double
    /// The child's own peak RSS, or nil when it could not be measured fairly (see `Measured.run`).
    var peakRSSBytes: Int64?
    var status: Int32
    var stdout: String
    /// The monotonic clock (ns) just before the child was started, to compare with times it prints.
    var startedAt: UInt64
    /// User + system CPU time of the child and its children (`wait4`'s rusage): what the work
    /// cost whatever else the machine ran, where `seconds` includes waiting for a core.
    var cpuSeconds: Double = 0
}

enum Measured {
    /// GNU time, used as a small intermediate process when a figure needs the child's peak RSS.
    ///
    /// Why not `wait4` on our own child: glibc's `posix_spawn` shares our address space until the
    /// child execs (CLONE_VFORK), and Linux charges the replaced address space's high-water mark
    /// to the new program's `ru_maxrss` (`exec_mmap` → `setmax_mm_hiwater_rss`). quakebench holds
    /// ~110 MB of feed templates, so every child "peaked" at 114 MB. GNU time's own footprint is
    /// ~1 MB, so its child's `ru_maxrss` is the child's own.
    static let timeTool: String? = Peers.find("time", preferring: "/usr/bin/time")

    /// Runs `arguments[0]` (a path) with `arguments`, stdin from `stdinPath`, and measures it.
    static func run(_ arguments: [String], environment: [String: String] = [:], stdinPath: String? = nil,
                    measureRSS: Bool = false, discardsErrors: Bool = false) throws -> Measurement {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quakebench-\(UUID().uuidString)")
        let out = scratch.appendingPathExtension("out"), rssFile = scratch.appendingPathExtension("rss")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: rssFile)
        }
        var command = arguments
        if measureRSS, let timeTool { command = [timeTool, "-f", "%M", "-o", rssFile.path] + arguments }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
        if discardsErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let envStrings = env.map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = envStrings.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = monotonicNanoseconds()
        let rc = posix_spawn(&pid, command[0], &actions, nil, &argv, &envp)
        guard rc == 0 else { throw BenchError("cannot start \(command[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        var rss: Int64?
        if measureRSS, timeTool != nil, let text = try? String(contentsOf: rssFile, encoding: .utf8),
           let kilobytes = text.split(separator: "\n").last.flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }) {
            rss = kilobytes * 1024
        }
        return Measurement(seconds: seconds, peakRSSBytes: rss, status: exitCode, stdout: output, startedAt: start,
                           cpuSeconds: cpu)
    }

    /// Times an in-process block: (result, seconds).
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = monotonicNanoseconds()
        let result = try body()
        return (result, Double(monotonicNanoseconds() - start) / 1e9)
    }
}

/// Reads a store's files once from start to end, so that the browser figures are taken with the
/// page cache warm, as after an import, whatever ran before them: this machine's kernel pages
/// out file pages left unread for a few seconds (DAMON), and at 5,000,000 quakes a store that
/// has sat since its import is partly on disk, which would time the disk, not the browser.
func warmPageCache(_ store: URL) {
    readThrough(["quakes.sqlite", "quakes.sqlite-wal"].map { store.appendingPathComponent($0).path })
}

/// Reads the files an import is about to read, so that it is timed parsing and storing, not
/// reading the disk: the feeds of a whole run were written hours before (329 MB of QuakeML at
/// 200,000 quakes), and the kernel pages them out while other figures run, more of a larger file
/// (a first QuakeML import of the day took 11.1 s, the next 3.8 s).
func warmInputs(_ files: [URL]) {
    readThrough(files.map(\.path))
}

/// Reads an executable and the shared libraries it loads (the paths `ldd` prints), so that a
/// launch is timed as a relaunch after a pane was killed is, with the program in the page cache.
/// The kernel pages them out too while the in-process figures run (see `warmPageCache`), and a
/// first launch then reads ~80 MB of code from disk: 213–278 ms by hand at 5M, against 25–35 ms
/// warm. (A launch after a reboot is that cold one; no row times it.)
func warmExecutable(_ path: String) {
    var files = [path]
    if let ldd = try? Measured.run(["/usr/bin/ldd", path]), ldd.status == 0 {
        for line in ldd.stdout.split(separator: "\n") {
            // "libX.so.1 => /path/libX.so.1 (0x…)" or "/lib64/ld-linux-x86-64.so.2 (0x…)"
            let fields = line.split(separator: " ")
            if let library = fields.first(where: { $0.hasPrefix("/") }) { files.append(String(library)) }
        }
    }
    readThrough(files)
}

/// Reads each file from start to end (one that cannot be opened is skipped): its pages are then
/// in the page cache.
private func readThrough(_ paths: [String]) {
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    for path in paths {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { continue }
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
    }
}

/// CLOCK_MONOTONIC in nanoseconds: one clock for every process on the machine, so a time printed
/// by a child can be compared with one taken by its parent.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The peer programs, found on PATH; a missing one is reported, never a crash.
enum Peers {
    static let sqlite3 = find("sqlite3", preferring: "/usr/bin/sqlite3")
    static let python3 = find("python3", preferring: nil)

    static func find(_ name: String, preferring preferred: String?) -> String? {
        if let preferred, access(preferred, X_OK) == 0 { return preferred }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where access("\(directory)/\(name)", X_OK) == 0 {
            return "\(directory)/\(name)"
        }
        return nil
    }

    static func versionLine(_ arguments: [String]) -> String? {
        guard let m = try? Measured.run(arguments), m.status == 0 else { return nil }
        return m.stdout.split(separator: "\n").first.map(String.init)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Array where Element == Double {
    var median: Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    var maximum: Double { self.max() ?? .nan }
    func percentile(_ p: Double) -> Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

/// Progress on stderr, so stdout stays the table (or JSON).
func log(_ message: String) {
    FileHandle.standardError.write(Data("quakebench: \(message)\n".utf8))
}
