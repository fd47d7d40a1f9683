extension Key {
    /// The key for one character code that ncurses returned as text (not a `KEY_*` code):
    /// control codes become `.control`, `.enter`, `.tab`, `.backspace`, `.escape`.
    public static func decode(scalar: Unicode.Scalar) -> Key {
        switch scalar.value {
        case 0x0D, 0x0A: .enter
        case 0x09: .tab
        case 0x08, 0x7F: .backspace
        case 0x1B: .escape
        case 0x00: .control("@")
        case 0x01...0x1A: .control(Character(Unicode.Scalar(scalar.value + 0x60)!))
        case 0x1C...0x1F: .control(Character(Unicode.Scalar(scalar.value + 0x40)!))
        default: .character(Character(scalar))
        }
    }

    /// Decodes what followed an ESC (`[A`, `OB`, `[5~`, `[Z`, `[1;5A`); nil when the bytes are
    /// not a known sequence.
    ///
    /// `InputDecoder` decides where a sequence ends: an Esc alone in what was read is `.escape`;
    /// alt-x arrives as ESC `x` and decodes to nil, which it reports as `.escape` then `x`.
    public static func decodeEscapeSequence(_ sequence: String) -> Key? {
        let scalars = Array(sequence.unicodeScalars)
        guard scalars.count >= 2, scalars[0] == "[" || scalars[0] == "O" else { return nil }
        let final = scalars[scalars.count - 1]
        let parameters = String(String.UnicodeScalarView(scalars[1..<(scalars.count - 1)]))
        switch final {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "Z": return .backTab
        // Focus reports (mode 1004): exactly `ESC [I` and `ESC [O` (SS3 `ESC O O` is no key).
        case "I" where scalars == ["[", "I"]: return .focusIn
        case "O" where scalars == ["[", "O"]: return .focusOut
        case "P" where scalars[0] == "O": return .function(1)
        case "Q" where scalars[0] == "O": return .function(2)
        case "R" where scalars[0] == "O": return .function(3)
        case "S" where scalars[0] == "O": return .function(4)
        case "~":
            let first = parameters.split(separator: ";").first.flatMap { Int($0) }
            switch first {
            case 1, 7: return .home
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            case 15: return .function(5)
            case 17, 18, 19, 20, 21: return .function(first! - 11)
            case 23, 24: return .function(first! - 12)
            default: return nil
            }
        default: return nil
        }
    }

    /// Decodes an SGR mouse report body (`<0;12;5M`, without the leading `ESC [`), with
    /// 1-based coordinates converted to 0-based (any column: SGR has no 223-column limit);
    /// nil for releases, drags, motion and other buttons. Shift, alt and ctrl are ignored.
    public static func decodeSGRMouse(_ body: String) -> Key? {
        guard body.first == "<", let final = body.last, final == "M" || final == "m" else { return nil }
        let fields = body.dropFirst().dropLast().split(separator: ";", omittingEmptySubsequences: false)
            .map { Int($0) }
        guard fields.count == 3, let code = fields[0], let column = fields[1], let row = fields[2],
              column >= 1, row >= 1, final == "M" else { return nil }
        let (x, y) = (column - 1, row - 1)
        switch code & ~(4 | 8 | 16) {  // without the modifier bits
        case 0: return .click(x: x, y: y)
        case 64: return .wheelUp(x: x, y: y)
        case 65: return .wheelDown(x: x, y: y)
        default: return nil  // 3 release (X10 style), 32+ motion and drags, 1 2 other buttons
        }
    }

    /// Whether the bytes read after an ESC so far (`[`, `[<0;1`, `[5~`) form a whole sequence:
    /// a CSI ends with a byte in `@`…`~`, an SGR mouse report (`[<`) only with `M` or `m`.
    public static func isCompleteEscapeSequence(_ sequence: String) -> Bool {
        let scalars = Array(sequence.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return false }
        if first == "O" { return scalars.count >= 2 }
        guard first == "[", scalars.count >= 2 else { return first != "[" }
        if scalars[1] == "<" { return scalars.count > 2 && (last == "M" || last == "m") }
        return (0x40...0x7E).contains(last.value)
    }

    /// What an ESC followed by `sequence` means (the bytes read after it without waiting):
    /// `.escape` when nothing followed, a key for a known sequence, and nil — nothing at all —
    /// for a mouse report that is not a press or wheel (a release must never read as Esc) or
    /// for an unknown CSI sequence (a terminal's report is not a key press).
    public static func decodeAfterEscape(_ sequence: String) -> Key? {
        guard !sequence.isEmpty else { return .escape }
        if sequence.hasPrefix("[<") { return decodeSGRMouse(String(sequence.dropFirst())) }
        if let key = decodeEscapeSequence(sequence) { return key }
        return sequence.hasPrefix("[") && isCompleteEscapeSequence(sequence) ? nil : .escape
    }
}
