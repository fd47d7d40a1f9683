import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process's wall time and peak resident set size (from `wait4`'s rusage).
struct Measurement {
    var seconds: Double
    var peakRSSBytes: Int64
    var status: Int32
    var stdout: String
}

enum Measured {
    /// Runs `arguments[0]` (a path) with `arguments`, stdin from `stdinPath`, and measures it.
    /// posix_spawn + wait4 gives this child's own maximum RSS, not all children's.
    static func run(_ arguments: [String], environment: [String: String] = [:], stdinPath: String? = nil) throws -> Measurement {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("quakebench-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: out) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let stdinPath { posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0) }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let envStrings = env.map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = envStrings.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now()
        let rc = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
        guard rc == 0 else { throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return Measurement(seconds: seconds, peakRSSBytes: Int64(usage.ru_maxrss) * 1024, status: exitCode, stdout: output)
    }

    /// Times an in-process block: (result, seconds).
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now()
        let result = try body()
        return (result, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
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
    func percentile(_ p: Double) -> Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}
