import Foundation
import QuakeTUI
import Glibc

extension Terminal {
    /// Puts `text` on the clipboard through the terminal: OSC 52 (`ESC ] 52 ; c ; base64 BEL`),
    /// which xterm, kitty, WezTerm, iTerm2, foot and Windows Terminal honour, and tmux passes on
    /// (and keeps as a paste buffer) with `set-clipboard on`. Nothing comes back to say whether
    /// the terminal took it. The corresponding C functions are `fputs` and `fflush`.
    public func copyToClipboard(_ text: String) {
        Self.write("\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}", to: streams.output)
    }
}

extension Terminal {
    /// Asks the terminal for its own notification (`TerminalNotification`), through tmux's
    /// passthrough when `insideTmux`. Nothing comes back to say whether it showed one. The
    /// corresponding C functions are `fputs` and `fflush`.
    public func notify(_ kind: TerminalNotification.Kind, title: String, body: String, insideTmux: Bool) {
        Self.write(TerminalNotification.sequence(kind, title: title, body: body, insideTmux: insideTmux), to: streams.output)
    }
}
