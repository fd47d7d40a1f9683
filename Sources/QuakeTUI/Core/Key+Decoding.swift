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

    /// Decodes what followed an ESC that ncurses left undecoded (`[A`, `OB`, `[5~`, `[Z`,
    /// `[1;5A`); nil when the bytes are not a known sequence.
    ///
    /// `Esc` on its own (nothing followed within `ESCDELAY`) is `.escape`; alt-x arrives as
    /// ESC `x` and decodes to nil, which the caller reports as `.escape` then `x`.
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
    /// 1-based coordinates converted to 0-based; nil for releases, drags and unknown buttons.
    public static func decodeSGRMouse(_ body: String) -> Key? {
        guard body.first == "<", let final = body.last, final == "M" || final == "m" else { return nil }
        let fields = body.dropFirst().dropLast().split(separator: ";").compactMap { Int($0) }
        guard fields.count == 3, final == "M" else { return nil }
        let (button, x, y) = (fields[0], fields[1] - 1, fields[2] - 1)
        switch button {
        case 0: return .click(x: x, y: y)
        case 64: return .wheelUp(x: x, y: y)
        case 65: return .wheelDown(x: x, y: y)
        default: return nil
        }
    }
}
