/// Pasted text made fit for a field (issue 28): control characters dropped, so a paste can
/// never act as keys or reach the terminal as escape codes; line breaks become spaces in a
/// one-line field (search, the `:` line) and stay in the notes.
///
/// ```swift
/// PastedText.line("Tokyo\r\nJapan\u{1B}[A")   // "Tokyo Japan[A"
/// PastedText.lines("a\r\nb\tc")              // "a\nb    c"
/// ```
public enum PastedText {
    /// For a one-line field: every line break (CR LF, CR, LF) and tab is one space.
    public static func line(_ text: String) -> String { clean(text, lineBreak: " ", tab: " ") }

    /// For the notes editor: line breaks are `\n`, a tab is four spaces (as the Tab key types).
    public static func lines(_ text: String) -> String { clean(text, lineBreak: "\n", tab: "    ") }

    private static func clean(_ text: String, lineBreak: String, tab: String) -> String {
        // Most pastes have nothing to change: one pass over the bytes says so, and the text is
        // kept as it is (rebuilding a 1 MB paste a scalar at a time held the loop, issue 57).
        if !needsCleaning(text, keepingLineFeeds: lineBreak == "\n") { return text }
        var result = String.UnicodeScalarView()
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar.value {
            case 0x0A where afterCarriageReturn: continue  // the LF of a CR LF
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: result.append(contentsOf: lineBreak.unicodeScalars)
            case 0x09: result.append(contentsOf: tab.unicodeScalars)
            case 0x00...0x1F, 0x7F...0x9F: continue  // C0, DEL and C1 controls (ESC, CSI …)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `text` holds a scalar `clean` changes or drops: a C0 control (a line feed only
    /// when it is not kept), DEL, a C1 control or NEL (UTF-8 `C2 80`–`C2 9F`), or the line and
    /// paragraph separators (`E2 80 A8`, `E2 80 A9`).
    static func needsCleaning(_ text: String, keepingLineFeeds: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F {
                    if !(byte == 0x0A && keepingLineFeeds) { return true }
                } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                    return true
                } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                    return true
                }
                index += 1
            }
            return false
        }
    }
}
