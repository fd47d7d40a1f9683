import QuakeTUI
import CNcursesw

extension Terminal {
    /// Maps a curses `KEY_*` code; mouse and resize events are read and converted here. With
    /// keypad mode off only `KEY_RESIZE` arrives in practice; the rest is kept for terminals
    /// whose curses still decodes a key.
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

    /// Characters read before the decoder looks at them, at most (a flood is decoded in pieces).
    static let readLimit = 1 << 16

    /// Reads what the terminal has sent into `queued`: waits up to `timeoutMilliseconds` for the
    /// first character, then takes everything else that is there without waiting, and decodes
    /// it. An Esc that ends what was read is Esc; only a sequence begun and not ended (a write
    /// split across reads, a paste still arriving) waits up to
    /// `InputDecoder.sequenceWaitMilliseconds` for each next piece.
    /// The corresponding C functions are `wtimeout` and `wget_wch`.
    func readInput(timeoutMilliseconds: Int) {
        guard readAvailable(firstWait: timeoutMilliseconds) else { return }
        while decoder.needsMore {
            guard readAvailable(firstWait: InputDecoder.sequenceWaitMilliseconds) else {
                queued += decoder.flush()
                return
            }
        }
    }

    /// Reads one byte (waiting up to `firstWait` ms) and then all that follows at once, and
    /// decodes it into `queued`; false when nothing came.
    ///
    /// Bytes, not characters: `wget_wch` loses what follows an invalid UTF-8 byte (it fails, and
    /// the bytes it had taken are gone), so the decoder does the UTF-8 (issue 57).
    /// The corresponding C function is `wgetch`.
    private func readAvailable(firstWait: Int) -> Bool {
        let window = quaketui_stdscr()
        wtimeout(window, Int32(clamping: firstWait))
        var read = 0
        var bytes: [UInt8] = []
        while read < Self.readLimit {
            let result = wgetch(window)
            if read == 0 { wtimeout(window, 0) }
            if result == ERR { break }
            if (0...0xFF).contains(result) {
                bytes.append(UInt8(result))
            } else {
                // A resize (or a key curses decoded itself): after the keys read before it.
                decoder.feed(bytes: bytes)
                bytes = []
                queued += decoder.decode()
                if let key = decodeKeyCode(result) { queued.append(key) }
            }
            read += 1
        }
        guard read > 0 else { return false }
        decoder.feed(bytes: bytes)
        queued += decoder.decode(moreAvailable: read == Self.readLimit)
        return true
    }

    /// Reads the window size again (after `KEY_RESIZE`).
    func updateSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        quaketui_getmaxyx(quaketui_stdscr(), &rows, &columns)
        setSize(Size(columns: Int(columns), rows: Int(rows)))
    }
}
