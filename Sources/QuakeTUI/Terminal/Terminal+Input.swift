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

    /// After an ESC that curses did not decode: reads what follows. A lone ESC is `.escape`; a
    /// CSI/SS3 sequence is decoded (an SGR mouse release or an unknown report is nil, never
    /// Esc); anything else is pushed back for the next read. The rest of a sequence already
    /// begun is waited for briefly, in case the terminal's write was split.
    func readEscapeSequence() -> Key? {
        let window = quaketui_stdscr()
        wtimeout(window, 0)
        var character: wint_t = 0
        let next = wget_wch(window, &character)
        if next == KEY_CODE_YES {
            // Esc then a key curses decoded at once (Esc, Up typed quickly): keep that key.
            ungetch(Int32(bitPattern: character))
            return .escape
        }
        guard next == OK, let first = Unicode.Scalar(character) else { return .escape }
        guard first == "[" || first == "O" else {
            unget_wch(wchar_t(bitPattern: character))
            return .escape
        }
        var sequence = String(first)
        wtimeout(window, 50)
        while sequence.unicodeScalars.count < 32, !Key.isCompleteEscapeSequence(sequence),
              wget_wch(window, &character) == OK, let scalar = Unicode.Scalar(character) {
            sequence.unicodeScalars.append(scalar)
        }
        return Key.decodeAfterEscape(sequence)
    }

    /// Reads the window size again (after `KEY_RESIZE`).
    func updateSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        quaketui_getmaxyx(quaketui_stdscr(), &rows, &columns)
        setSize(Size(columns: Int(columns), rows: Int(rows)))
    }
}
