import Foundation

/// The fault injector of issue 29: `tools/faults/faultshim.c`, an `LD_PRELOAD` library that fails
/// the Nth eligible system call with EIO, ENOSPC or EINTR (see the C file for its variables).
///
/// ```swift
/// let env = try FaultShim.environment(calls: ["read"], path: "defaults.plist", nth: 1)
/// let result = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
/// ```
public enum FaultShim {
    /// Builds the library beside the test products (once per process) and returns its path.
    public static func library() throws -> String {
        try built.get()
    }

    private static let built: Result<String, Error> = Result {
        let script = SharedData.repositoryRoot.appendingPathComponent("tools/faults/build.sh").path
        let output = BuildProducts.directory.appendingPathComponent("faultshim.so").path
        let (status, out, err) = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), [script, output])
        guard status == 0 else { throw ChildProcess.ChildError("tools/faults/build.sh failed: \(err)") }
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The environment that runs a child under the shim. `nth` 0 fails nothing (counts only).
    public static func environment(calls: [String] = [], path: String? = nil, nth: Int, times: Int = 1,
                                   errno: String = "EIO", count: String? = nil, log: String? = nil) throws -> [String: String] {
        var env = ["LD_PRELOAD": try library(), "FAULT_NTH": "\(nth)", "FAULT_TIMES": "\(times)", "FAULT_ERRNO": errno]
        if !calls.isEmpty { env["FAULT_CALLS"] = calls.joined(separator: ",") }
        if let path { env["FAULT_PATH"] = path }
        if let count { env["FAULT_COUNT"] = count }
        if let log { env["FAULT_LOG"] = log }
        return env
    }

    /// How many eligible calls `run` makes under the shim (the range of a sweep).
    public static func countCalls(calls: [String] = [], path: String? = nil, in directory: URL,
                                  _ run: ([String: String]) throws -> Void) throws -> Int {
        let file = directory.appendingPathComponent("fault-count-\(UInt32.random(in: 0 ... .max))").path
        defer { unlink(file) }
        try run(try environment(calls: calls, path: path, nth: 0, count: file))
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? "0"
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
