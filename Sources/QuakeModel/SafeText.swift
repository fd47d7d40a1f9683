/// Text from feeds, the store, state files and file names made safe for a terminal: no control
/// characters and no escape sequences, so a place name, a quake code or a file name can never
/// retitle the pane, write the clipboard (OSC 52), move the cursor or reorder text.
///
/// The one sanitizer of the project: the browser's `CellBuffer` and every line the command line
/// prints (tables, errors, `--json`) use it. It lives in QuakeStore because both QuakeTUI and the
/// `quaketui` executable depend on that module already. ``isUnsafe(_:)`` decides what is unsafe;
/// ``sanitize(_:)`` strips it for display, ``sanitizeLines(_:)`` keeps line breaks, and
/// ``escapingJSON(_:)`` writes it as `\u00XX` inside JSON strings instead of dropping data.
///
/// ```swift
/// SafeText.sanitize("Evil\u{1B}]0;pwned\u{07} Place")  // "Evil Place"
/// SafeText.escapingJSON("{\"id\":\"a\u{9B}b\"}")        // {"id":"a\u009bb"}
/// ```
public enum SafeText {
    /// Removes CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), DCS/SOS/PM/APC (`ESC P|X|^|_ … ST`)
    /// and two-byte escapes whole; drops other C0 and C1 controls and DEL; turns tabs and line
    /// breaks into spaces; drops bidirectional overrides, which can reorder what follows.
    public static func sanitize(_ text: String) -> String {
        // Fast path: most feed text is printable already.
        if !mayHoldUnsafe(text, butWhitespace: false) || !text.unicodeScalars.contains(where: isUnsafe) { return text }
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:  // ESC
                skipEscape(after: &scalars)
            case 0x9B:  // C1 CSI
                skipCSI(&scalars)
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F:  // C1 OSC, DCS, SOS, PM, APC
                skipString(&scalars)
            case 0x09, 0x0A, 0x0D:
                output.append(" ")
            default:
                if !isUnsafe(scalar) { output.append(scalar) }
            }
        }
        return String(output)
    }

    /// ``sanitize(_:)`` line by line: line breaks stay, for multi-line messages and tables.
    public static func sanitizeLines(_ text: String) -> String {
        if !mayHoldUnsafe(text, butWhitespace: false) || !text.unicodeScalars.contains(where: isUnsafe) { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { sanitize(String($0)) }.joined(separator: "\n")
    }

    /// Encoded JSON with every unsafe scalar written as a `\uXXXX` escape: C1 controls, DEL and
    /// bidirectional overrides, which `JSONEncoder` leaves raw (it escapes only C0). Line breaks
    /// and tabs are left alone: in encoded JSON they can only be whitespace between tokens.
    public static func escapingJSON(_ json: String) -> String {
        if !mayHoldUnsafe(json, butWhitespace: true) || !json.unicodeScalars.contains(where: { isUnsafe($0) && !isJSONWhitespace($0) }) {
            return json
        }
        var output = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isUnsafe(scalar) && !isJSONWhitespace(scalar) {
                let hex = String(scalar.value, radix: 16)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// False when no scalar of `text` can be unsafe, read off its UTF-8 bytes (a list's whole
    /// JSON at once): every unsafe scalar is a byte below 0x20, DEL, or starts with 0xC2 (C1
    /// controls) or 0xE2 (the bidirectional ones). True means "look scalar by scalar" (`°` and
    /// `–` start with those bytes too). With `butWhitespace`, line breaks and tabs are safe.
    private static func mayHoldUnsafe(_ text: String, butWhitespace: Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 {
                if butWhitespace && (byte == 0x0A || byte == 0x0D || byte == 0x09) { continue }
                return true
            }
            return false
        } ?? true
    }

    private static func isJSONWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar == "\t"
    }

    /// Whether a scalar must never reach a terminal raw: C0 and C1 controls, DEL, and the
    /// bidirectional embeddings, overrides and isolates.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidi embeddings, overrides, isolates
        default: false
        }
    }

    private static func skipEscape(after scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[": skipCSI(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        default: break  // a two-character escape such as ESC c (reset) or ESC 7
        }
    }

    /// CSI: parameter and intermediate bytes, then one final byte in `@`…`~`.
    private static func skipCSI(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) { return }
        }
    }

    /// A string command ends with BEL or ST (`ESC \` or C1 0x9C).
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }
}
