/// A curses call that failed: which call, its return code, and what it was doing.
public struct TerminalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed, e.g. `newterm`.
    public var call: String
    /// The value it returned (`ERR` is -1).
    public var code: Int32
    /// What the app was trying to do, as a phrase: "open the terminal".
    public var context: String

    public init(call: String, code: Int32, context: String) {
        self.call = call
        self.code = code
        self.context = context
    }

    public var description: String {
        let sentence = "Could not \(context): \(call) returned \(code)."
        guard call == "newterm" || call == "fdopen" else { return sentence }
        return sentence + " Check that standard input and output are a terminal and that TERM names one this system knows (try TERM=xterm-256color)."
    }
}
