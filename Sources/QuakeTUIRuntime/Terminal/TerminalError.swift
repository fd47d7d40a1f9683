import QuakeTUI
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

    /// TERM names no terminal the browser can draw on (unset, `dumb`, or unknown to terminfo).
    public static func unsupportedType(_ term: String) -> TerminalError {
        TerminalError(call: "TERM", code: -1, context: term)
    }

    public var description: String {
        if call == "TERM" {
            let what = context.isEmpty ? "TERM is not set" : "TERM=\(context) is not a terminal the browser can draw on"
            return "\(what): it needs cursor addressing from terminfo. Run it in a terminal emulator or tmux with "
                + "TERM set to a type this system knows, such as xterm-256color, tmux-256color or screen-256color "
                + "('toe -a' lists them); for scripts use 'quaketui list'."
        }
        let sentence = "Could not \(context): \(call) returned \(code)."
        guard call == "newterm" || call == "fdopen" else { return sentence }
        return sentence + " Check that standard input and output are a terminal and that TERM names one this system knows (try TERM=xterm-256color)."
    }
}
