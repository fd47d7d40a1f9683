import CNcursesw

extension Terminal {
    /// Maps a curses `KEY_*` code; mouse and resize events are read and converted here.
    func decodeKeyCode(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_RESIZE:
            updateSize()
            return .resize(columns: size.columns, rows: size.rows)
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            let (x, y) = (Int(event.x), Int(event.y))
            if event.bstate & quaketui_BUTTON4_PRESSED() != 0 { return .wheelUp(x: x, y: y) }
            if event.bstate & quaketui_BUTTON5_PRESSED() != 0 { return .wheelDown(x: x, y: y) }
            if event.bstate & (quaketui_BUTTON1_PRESSED() | quaketui_BUTTON1_CLICKED()) != 0 {
                return .click(x: x, y: y)
            }
            return nil
        default:
            for n in 1...12 where code == quaketui_KEY_F(Int32(n)) { return .function(n) }
            return nil
        }
    }

    /// After an ESC that curses did not decode: reads what follows without waiting. A lone ESC
    /// is `.escape`; a CSI/SS3 sequence is decoded; anything else is pushed back for the next read.
    func readEscapeSequence() -> Key {
        let window = quaketui_stdscr()
        wtimeout(window, 0)
        var character: wint_t = 0
        guard wget_wch(window, &character) == OK, let first = Unicode.Scalar(character) else { return .escape }
        guard first == "[" || first == "O" else {
            unget_wch(wchar_t(bitPattern: character))
            return .escape
        }
        var sequence = String(first)
        for _ in 0..<32 {
            guard wget_wch(window, &character) == OK, let scalar = Unicode.Scalar(character) else { break }
            sequence.unicodeScalars.append(scalar)
            let isFinal = (0x40...0x7E).contains(scalar.value) && !(sequence.count == 2 && scalar == "<")
            if isFinal, !(first == "[" && sequence.hasPrefix("[<") && scalar != "M" && scalar != "m") { break }
        }
        if sequence.hasPrefix("[<") {
            return Key.decodeSGRMouse(String(sequence.dropFirst())) ?? .escape
        }
        return Key.decodeEscapeSequence(sequence) ?? .escape
    }

    /// Reads the window size again (after `KEY_RESIZE`).
    func updateSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        quaketui_getmaxyx(quaketui_stdscr(), &rows, &columns)
        setSize(Size(columns: Int(columns), rows: Int(rows)))
    }
}
