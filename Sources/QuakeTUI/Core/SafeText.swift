/// Text from feeds and the store made safe for a terminal: no control characters and no
/// escape sequences, so a place name can never retitle the pane, move the cursor or change
/// colours.
///
/// ```swift
/// SafeText.sanitize("Evil\u{1B}]0;pwned\u{07} Place")  // "Evil Place"
/// ```
public enum SafeText {
    /// Removes CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), DCS/SOS/PM/APC (`ESC P|X|^|_ … ST`)
    /// and two-byte escapes whole; drops other C0 and C1 controls and DEL; turns tabs and line
    /// breaks into spaces; drops bidirectional overrides, which can reorder what follows.
    public static func sanitize(_ text: String) -> String {
        // Fast path: most feed text is printable already.
        if !text.unicodeScalars.contains(where: isUnsafe) { return text }
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

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
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
