import QuakeModel

/// The terminal's own notification (a desktop notification, outside the pane) for an alert,
/// opted into with app storage's `alertNotification` (issue 55):
///
/// - `osc777`: `ESC ] 777 ; notify ; TITLE ; BODY ESC \` (urxvt's, also foot, Ghostty, WezTerm…);
/// - `osc9`: `ESC ] 9 ; BODY ESC \` (iTerm2's, also Windows Terminal, ConEmu, kitty…).
///
/// Inside tmux the sequence goes in a passthrough (`ESC P tmux ; … ESC \`, every ESC in it
/// doubled), which tmux hands to the terminal outside only with `set -g allow-passthrough on`.
/// Every byte of the title and body is sanitised as everything printed is (`SafeText`): no control
/// character from a quake's data reaches the terminal, so a place name can never end the sequence
/// and write another; `;` is kept out of the title (it separates the fields), and the text is cut
/// at `maximumCharacters`.
///
/// ```swift
/// TerminalNotification.sequence(.osc777, title: "quaketui", body: "ALERT M 5.6 …", insideTmux: false)
/// // "\u{1B}]777;notify;quaketui;ALERT M 5.6 …\u{1B}\\"
/// ```
public enum TerminalNotification {
    public enum Kind: String, Sendable, CaseIterable {
        case osc777, osc9
    }

    /// The longest title or body sent, in characters (terminals cut long notifications anyway).
    public static let maximumCharacters = 240

    /// The bytes that ask the terminal for a notification.
    public static func sequence(_ kind: Kind, title: String, body: String, insideTmux: Bool) -> String {
        let body = clean(body)
        let osc = switch kind {
        case .osc777: "\u{1B}]777;notify;" + clean(title).replacingOccurrences(of: ";", with: ",") + ";" + body + "\u{1B}\\"
        // A body that starts with a number and `;` would read as another OSC 9 command (ConEmu's
        // `9;4;…` progress): it starts with a space then.
        case .osc9: "\u{1B}]9;" + (body.first?.isNumber == true ? " " : "") + body + "\u{1B}\\"
        }
        guard insideTmux else { return osc }
        return "\u{1B}Ptmux;" + osc.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }

    /// `text` on one line with no control character (`SafeText.sanitize`), cut to `maximumCharacters`.
    static func clean(_ text: String) -> String {
        String(SafeText.sanitize(text).prefix(maximumCharacters))
    }
}
