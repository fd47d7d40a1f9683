import Foundation

/// Runs the built `quaketui` binary, for command-line tests.
public enum QuaketuiBinary {
    public static var url: URL { BuildProducts.executable("quaketui") }

    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }

        /// stdout's lines (without the final line feed's empty one).
        public var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast(stdout.hasSuffix("\n") ? 1 : 0).map(String.init) }

        /// stderr's lines.
        public var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

        /// What `import` notes about the file it read: each stdout line `  note: TEXT` as TEXT,
        /// in order (`SeisComP SC3ML 0.13: depths in kilometres, …`).
        public var notes: [String] {
            lines.filter { $0.hasPrefix("  note: ") }.map { String($0.dropFirst("  note: ".count)) }
        }

        /// The value of stdout's `label   value` line (`info`, `config`): what follows the label
        /// and its column of spaces; nil when no line has that label.
        public func field(_ label: String) -> String? {
            lines.first { $0.hasPrefix(label + "  ") }.map { String($0.dropFirst(label.count)).trimmingCharacters(in: .whitespaces) }
        }

        /// The codes `list --json` printed, in its order.
        public func listedCodes() throws -> [String] {
            let sections = try json()["sections"] as? [[String: Any]] ?? []
            return sections.flatMap { ($0["quakes"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } }
        }

        /// stdout parsed as one JSON object.
        public func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            guard let dictionary = object as? [String: Any] else { throw CocoaError(.propertyListReadCorrupt) }
            return dictionary
        }
    }

    /// `quaketui config ARGS` in `stateDirectory`; throws (with its stderr) when it fails.
    @discardableResult
    public static func config(_ arguments: String..., stateDirectory: URL) throws -> Result {
        let result = try run(["config"] + arguments, stateDirectory: stateDirectory)
        guard result.status == 0 else { throw ChildProcess.ChildError("config \(arguments) failed: \(result.stderr)") }
        return result
    }

    /// Starts `quaketui watch --state-dir DIR ARGS` and returns it once it watches: once its
    /// first stderr line is, whole, `Watching DIR/quakes.sqlite for new quakes; press ctrl-c to
    /// stop.` Throws (with what it said, the process killed) when another line comes first or
    /// none within `timeout`. The caller stops it: `defer { watch.kill(); watch.wait() }`.
    public static func startWatch(_ arguments: [String] = [], stateDirectory: URL, environment: [String: String] = [:],
                                  timeout: TimeInterval = 20) throws -> ChildProcess {
        let watch = try ChildProcess(url, ["watch", "--state-dir", stateDirectory.path] + arguments, environment: environment)
        let watching = "Watching \(stateDirectory.path)/quakes.sqlite for new quakes; press ctrl-c to stop."
        let firstLine = { watch.stderr.split(separator: "\n").first.map(String.init) }
        guard eventually(timeout: timeout, { firstLine() != nil }), firstLine() == watching else {
            watch.kill()
            watch.wait()
            throw ChildProcess.ChildError("watch \(arguments) did not say it watches: \(watch.stderr)")
        }
        return watch
    }

    /// Runs `quaketui ARGS` with `QUAKETUI_STATE_DIR` set to `stateDirectory` (when given).
    public static func run(_ arguments: [String], stateDirectory: URL? = nil, stdin: String? = nil,
                           environment: [String: String] = [:], currentDirectory: URL? = nil) throws -> Result {
        var env = environment
        if let stateDirectory { env["QUAKETUI_STATE_DIR"] = stateDirectory.path }
        let (status, out, err) = try ChildProcess.run(url, arguments, environment: env, stdin: stdin,
                                                      currentDirectory: currentDirectory)
        return Result(status: status, stdout: out, stderr: err)
    }
}
