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

        /// stdout parsed as one JSON object.
        public func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            guard let dictionary = object as? [String: Any] else { throw CocoaError(.propertyListReadCorrupt) }
            return dictionary
        }
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
