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

    /// Linear in the text, one pass over its UTF-8: runs of bytes that stay are copied whole,
    /// and each scalar changed or dropped is replaced in place. (Appending each line break
    /// to a `String.UnicodeScalarView` copied the whole text so far, the standard library's
    /// `append(contentsOf:)` building a new string: a megabyte pasted with 2,048 line breaks took
    /// a second in the `:` line, and one of line breaks alone would have taken hours, issue 57.)
    private static func clean(_ text: String, lineBreak: String, tab: String) -> String {
        let keepsLineFeeds = lineBreak == "\n"
        let lineBreak = Array(lineBreak.utf8), tab = Array(tab.utf8)
        var text = text
        let cleaned: String? = text.withUTF8 { bytes in
            var result: [UInt8] = []
            // The bytes before `copied` are in `result` (or were dropped).
            var copied = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let length: Int, replacement: [UInt8]
                if byte == 0x0D {
                    // CR LF is one line break.
                    (length, replacement) = (index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1, lineBreak)
                } else if byte == 0x0A, !keepsLineFeeds {
                    (length, replacement) = (1, lineBreak)
                } else if byte == 0x09 {
                    (length, replacement) = (1, tab)
                } else if (byte < 0x20 && byte != 0x0A) || byte == 0x7F {
                    (length, replacement) = (1, [])  // C0 controls and DEL (ESC …)
                } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                    // C1 controls (CSI …), NEL a line break.
                    (length, replacement) = (2, bytes[index + 1] == 0x85 ? lineBreak : [])
                } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                          bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                    (length, replacement) = (3, lineBreak)  // the line and paragraph separators
                } else {
                    index += 1
                    continue
                }
                if copied == 0 { result.reserveCapacity(bytes.count) }
                if copied < index { result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index])) }
                // A byte at a time: a megabyte of line breaks is a million replacements, and the
                // generic `append(contentsOf:)` costs a microsecond each in a debug build.
                var next = 0
                while next < replacement.count {
                    result.append(replacement[next])
                    next += 1
                }
                index += length
                copied = index
            }
            // Most pastes have nothing to change: the text is kept as it is.
            guard copied > 0 else { return nil }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: result, as: UTF8.self)
        }
        return cleaned ?? text
    }
}
