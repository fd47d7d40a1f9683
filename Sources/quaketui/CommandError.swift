/// A runtime failure of a command, already worded for the user: printed as `Error: …`, exit 1.
struct CommandError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// How a command ended.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    /// `EX_USAGE` from sysexits.h, as swift-argument-parser uses.
    case usage = 64
}
