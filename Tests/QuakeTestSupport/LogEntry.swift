import Foundation

/// One line of the file `QUAKETUI_LOG` names, as the error presenter writes it:
/// `TIME quaketui[PID] CONTEXT: MESSAGE | DETAIL` (the detail only when there is one).
///
/// ```swift
/// let entries = try LogEntry.read(log.path)
/// #expect(entries.map(\.context) == ["list"])
/// ```
public struct LogEntry: Equatable, Sendable {
    /// What was running: a command (`list`, `import`) or `browser`.
    public let context: String
    /// The sentence the user was shown, whole.
    public let message: String
    /// What lies behind it (causes, SQL), nil when the line has none.
    public let detail: String?

    public init(context: String, message: String, detail: String? = nil) {
        (self.context, self.message, self.detail) = (context, message, detail)
    }

    /// nil for a line of another shape.
    public init?(_ line: String) {
        guard let process = line.range(of: " quaketui["), let end = line[process.upperBound...].range(of: "] "),
              let colon = line[end.upperBound...].range(of: ": ") else { return nil }
        context = String(line[end.upperBound..<colon.lowerBound])
        let rest = line[colon.upperBound...]
        if let bar = rest.range(of: " | ") {
            message = String(rest[..<bar.lowerBound])
            detail = String(rest[bar.upperBound...])
        } else {
            (message, detail) = (String(rest), nil)
        }
    }

    /// The log's entries, oldest first.
    public static func read(_ path: String) throws -> [LogEntry] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { LogEntry(String($0)) }
    }
}
