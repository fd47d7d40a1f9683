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
}
