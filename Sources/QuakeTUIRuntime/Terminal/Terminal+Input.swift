import QuakeTUI
import CNcursesw
import Foundation

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
    ///
    /// A paste that pauses longer is not over: what came is handed over as a paste (the field
    /// draws it) and what follows, up to the end marker, is still its text, never keys (under
    /// load tmux wrote a megabyte with pauses, and the rest ran as a million key presses). Only
    /// after `InputDecoder.pasteStallMilliseconds` of silence is a paste taken as ended.
    func readInput(timeoutMilliseconds: Int) {
        let wait = decoder.isInPaste ? min(timeoutMilliseconds, InputDecoder.sequenceWaitMilliseconds) : timeoutMilliseconds
        guard readAvailable(firstWait: wait) else {
            // Handed over after a wait for more ran out: from then on, the browser's.
            if decoder.isInPaste { enqueue(pasteStalled ? decoder.flush() : decoder.takePasteSoFar(), since: lastFoundEmptyAt) }
            return
        }
        while decoder.needsMore {
            guard readAvailable(firstWait: InputDecoder.sequenceWaitMilliseconds) else {
                enqueue(decoder.isInPaste && !pasteStalled ? decoder.takePasteSoFar() : decoder.flush(), since: lastFoundEmptyAt)
                return
            }
        }
    }

    /// Queues decoded keys; `since`: when the last of their bytes can first have waited for the
    /// browser (`keyWaitingSince`).
    private func enqueue(_ keys: [Key], since: Int64) {
        if queued.isEmpty, !keys.isEmpty { queuedSince = since }
        queued += keys
    }

    static func monotonicNow() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Whether the terminal has sent nothing for `InputDecoder.pasteStallMilliseconds`.
    private var pasteStalled: Bool {
        DispatchTime.now().uptimeNanoseconds - lastInputAt > UInt64(InputDecoder.pasteStallMilliseconds) * 1_000_000
    }

    /// Reads one byte (waiting up to `firstWait` ms) and then all that follows at once, and
    /// decodes it into `queued`; false when nothing came.
    ///
    /// Bytes, not characters: `wget_wch` loses what follows an invalid UTF-8 byte (it fails, and
    /// the bytes it had taken are gone), so the decoder does the UTF-8 (issue 57).
    /// The first byte comes through curses, which waits for it and turns a resize into
    /// `KEY_RESIZE`; the rest is read from the descriptor in blocks: curses reads one byte a call,
    /// a `poll` and a `read` each, two million system calls for a 1 MB paste, seconds of the loop
    /// under load while the keys typed after it waited (issue 57). With keypad mode off curses
    /// holds no byte of its own between calls, so none is skipped.
    /// The corresponding C functions are `wgetch` and `read`.
    private func readAvailable(firstWait: Int) -> Bool {
        let window = quaketui_stdscr()
        let descriptor = fileno(streams.input)
        // Whether anything is there before waiting: bytes that come during the wait came after it.
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let waits = poll(&ready, 1, 0) == 0
        if waits { lastFoundEmptyAt = Self.monotonicNow() }
        wtimeout(window, Int32(clamping: firstWait))
        let first = wgetch(window)
        wtimeout(window, 0)
        guard first != ERR else {
            lastFoundEmptyAt = Self.monotonicNow()
            return false
        }
        // What this read brings can have waited since the terminal was last found empty, or,
        // having ended a wait, since it did.
        let since = waits ? Self.monotonicNow() : lastFoundEmptyAt
        lastInputAt = DispatchTime.now().uptimeNanoseconds
        guard (0...0xFF).contains(first) else {
            // A resize (or a key curses decoded itself): the bytes after it come with the next call.
            if let key = decodeKeyCode(first) { enqueue([key], since: since) }
            return true
        }
        var bytes: [UInt8] = [UInt8(first)]
        var block = [UInt8](repeating: 0, count: 4096)
        while bytes.count < Self.readLimit {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0, ready.revents & Int16(POLLIN) != 0 else {
                lastFoundEmptyAt = Self.monotonicNow()
                break
            }
            let count = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min($0.count, Self.readLimit - bytes.count)) }
            guard count > 0 else { break }
            bytes += block[..<count]
        }
        decoder.feed(bytes: bytes)
        enqueue(decoder.decode(moreAvailable: bytes.count >= Self.readLimit), since: since)
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
