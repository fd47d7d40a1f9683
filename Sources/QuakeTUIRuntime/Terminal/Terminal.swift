import CNcursesw
import Foundation
import QuakeTUI
import Glibc

/// The curses screen: scoped set-up and tear-down, diffed frames, decoded keys.
///
/// The only type that talks to ncurses. Use it through `run`, which restores the terminal on
/// every exit path (return, thrown error, SIGINT/SIGTERM/SIGHUP):
///
/// ```swift
/// try Terminal.run { terminal in
///     while true {
///         var buffer = CellBuffer(size: terminal.size)
///         Screen.render(model, into: &buffer)
///         terminal.present(buffer)
///         if let key = terminal.readKey(timeoutMilliseconds: 250) { … }
///     }
/// }
/// ```
@MainActor
public final class Terminal {
    /// The terminal's size in columns and rows, updated on resize.
    public private(set) var size: Size
    /// The colour depth styles are mapped to (decided once at start-up).
    public let colorDepth: ColorDepth
    private let screen: OpaquePointer
    private var previous: CellBuffer?
    private var colors: ColorPairs
    /// Escape sequences and pastes, decoded from what was read (`readInput`).
    var decoder = InputDecoder()
    /// Keys decoded but not yet returned by `readKey`, oldest first.
    var queued: [Key] = []
    /// When the terminal last sent anything (uptime ns), for a paste that stopped arriving.
    var lastInputAt: UInt64 = 0
    /// Since when the key `readKey` returned last can have waited for the browser
    /// (CLOCK_MONOTONIC ns, the trace's clock, issue 57): the last moment before its final bytes
    /// were read at which the terminal was found with nothing to read, or, for bytes that ended a
    /// wait, when they ended it. What the terminal took to deliver a paste piece by piece is its
    /// own time; what the loop did while the key sat there unread is the browser's.
    public internal(set) var keyWaitingSince: Int64 = 0
    /// When the terminal was last found with nothing to read (or a wait for it ended with bytes).
    var lastFoundEmptyAt: Int64 = 0
    /// `keyWaitingSince` for the keys in `queued`: that of the read that brought the first of
    /// them (the later ones can only have come later).
    var queuedSince: Int64 = 0

    let streams: (input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>)

    private init(screen: OpaquePointer, streams: (UnsafeMutablePointer<FILE>, UnsafeMutablePointer<FILE>),
                 colorDepth: ColorDepth) {
        self.screen = screen
        self.streams = streams
        self.colorDepth = colorDepth
        colors = ColorPairs(depth: colorDepth)
        var rows: Int32 = 0
        var columns: Int32 = 0
        quaketui_getmaxyx(quaketui_stdscr(), &rows, &columns)
        size = Size(columns: Int(columns), rows: Int(rows))
    }

    /// Sets up the terminal, runs `body`, and restores the terminal however `body` ends.
    ///
    /// Calls `setlocale`, `newterm`, `raw` (so ctrl-s, ctrl-c and ctrl-z reach the app),
    /// `noecho`, `keypad(false)` (escape sequences are decoded by `InputDecoder`, so an Esc
    /// waits for no `ESCDELAY`), `meta(true)` (all 8 bits of each byte: `InputDecoder` decodes
    /// the UTF-8), `mousemask` (plus SGR mouse mode 1006), bracketed paste (mode
    /// 2004) and the colour set-up; `endwin` and `delscreen` on the way out.
    public static func run<T>(_ body: (Terminal) throws -> T) throws -> T {
        let (terminal, signals) = try open()
        defer { terminal.close(signals) }
        return try body(terminal)
    }

    private static func open() throws -> (Terminal, [Int32: sigaction]) {
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        // A dumb terminal has no cursor addressing: curses would garble the pane.
        guard !term.isEmpty, term != "dumb", term != "unknown" else { throw TerminalError.unsupportedType(term) }
        useUTF8CharacterType()
        // Own FILE streams on duplicates of fd 0 and 1 (the C globals are not concurrency-safe
        // in Swift 6); closed in `close`.
        guard let output = fdopen(dup(STDOUT_FILENO), "w"), let input = fdopen(dup(STDIN_FILENO), "r") else {
            throw TerminalError(call: "fdopen", code: errno, context: "open the terminal's input and output")
        }
        guard let screen = newterm(nil, output, input) else {
            fclose(output)
            fclose(input)
            throw TerminalError.unsupportedType(term)
        }
        let signals = TerminalSignals.install(input: fileno(input), output: fileno(output))
        // The modes the browser cannot work without: a failure ends the start-up cleanly.
        // (`curs_set` and `leaveok` may fail on terminals without the capability: harmless.)
        let window = quaketui_stdscr()
        for (call, result) in [("raw", raw()), ("noecho", noecho()), ("nonl", nonl()), ("keypad", keypad(window, false)),
                                    ("meta", meta(window, true))]
            where result == ERR {
            endwin()
            delscreen(screen)
            fclose(output)
            fclose(input)
            TerminalSignals.restore(signals)
            throw TerminalError(call: call, code: result, context: "set up the terminal's input modes")
        }
        curs_set(0)
        leaveok(window, true)
        let mask = quaketui_BUTTON1_PRESSED() | quaketui_BUTTON1_CLICKED() | quaketui_BUTTON4_PRESSED()
            | quaketui_BUTTON5_PRESSED()
        // SGR mouse reports (mode 1006) carry any column (X10 ones stop at 223) and say
        // which button was released. curses decodes them itself where the terminfo entry says
        // so (xterm's `kmous=\E[<`); elsewhere (tmux's `screen`) they reach `readEscapeSequence`.
        let mouse = mousemask(mask, nil) != 0
        if mouse { Self.write(Self.sgrMouseOn, to: output) }
        Self.write(Self.bracketedPasteOn + Self.focusReportsOn, to: output)
        mouseinterval(0)
        var hasColors = has_colors()
        if hasColors, start_color() == ERR { hasColors = false }
        if hasColors { use_default_colors() }
        let depth = ColorDepth.detect(colors: Int(quaketui_COLORS()), hasColors: hasColors,
                                      environment: ProcessInfo.processInfo.environment)
        return (Terminal(screen: screen, streams: (input, output), colorDepth: depth), signals)
    }

    /// The user's locale, but always a UTF-8 character type: under `LANG=C` (containers, ssh)
    /// curses would otherwise drop every non-ASCII letter and cut pastes at the first one.
    /// Falls back to the C locale's ASCII only when the system has no UTF-8 locale at all.
    /// The corresponding C functions are `setlocale` and `nl_langinfo(nl_item(CODESET))`.
    private static func useUTF8CharacterType() {
        setlocale(LC_ALL, "")
        guard !isUTF8CharacterType else { return }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            if isUTF8CharacterType { return }
        }
    }

    static var isUTF8CharacterType: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    private func close(_ signals: [Int32: sigaction]) {
        Self.write(Self.sgrMouseOff + Self.bracketedPasteOff + Self.focusReportsOff, to: streams.output)
        mousemask(0, nil)
        // Without an alternate screen (TERM=vt100) the last frame would stay, and the shell
        // write over it (issue 56.7): it is cleared, the cursor at the top, as `clear` leaves it.
        if quaketui_has_rmcup() == 0 {
            let window = quaketui_stdscr()
            werase(window)
            leaveok(window, false)
            wmove(window, 0, 0)
            wnoutrefresh(window)
            doupdate()
        }
        curs_set(1)
        endwin()
        delscreen(screen)
        fclose(streams.output)
        fclose(streams.input)
        TerminalSignals.restore(signals)
    }

    /// Turns SGR mouse reporting (DECSET 1006) on, beside the button tracking curses enables.
    static let sgrMouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    static let sgrMouseOff = "\u{1B}[?1006l"
    /// Bracketed paste (DECSET 2004): the terminal wraps pasted text in `ESC [200~` … `ESC [201~`,
    /// so a paste is text for the field being edited, never keys (`Key.paste`).
    static let bracketedPasteOn = "\u{1B}[?2004h"
    static let bracketedPasteOff = "\u{1B}[?2004l"
    /// Focus reports (DECSET 1004): the terminal writes `ESC [I` when the window or pane gains
    /// focus and `ESC [O` when it loses it (`Key.focusIn`/`focusOut`); tmux passes them to the
    /// pane with `set -g focus-events on`.
    static let focusReportsOn = "\u{1B}[?1004h"
    static let focusReportsOff = "\u{1B}[?1004l"

    /// Writes a control sequence curses has no capability for straight to the terminal (not
    /// through `putp`, which writes to the C `stdout` when the screen came from `newterm`).
    /// The corresponding C functions are `fputs` and `fflush`.
    static func write(_ sequence: String, to stream: UnsafeMutablePointer<FILE>) {
        fputs(sequence, stream)
        fflush(stream)
    }

    /// Records a new size after a resize; the next frame is drawn in full.
    func setSize(_ newSize: Size) {
        size = newSize
        previous = nil
    }

    /// Hands the terminal back to the shell and stops (ctrl-z, which raw mode delivers as a
    /// key, or SIGTSTP from `kill`); on `fg` it takes the terminal back, and the next `present`
    /// redraws everything. `readKey` calls it and then reports a `.resize` to the current size.
    /// The corresponding C functions are `endwin`, `kill(0, SIGTSTP)` and `doupdate`.
    public func suspend() {
        Self.write(Self.sgrMouseOff + "\u{1B}[?1000l" + Self.bracketedPasteOff + Self.focusReportsOff, to: streams.output)
        endwin()
        TerminalSignals.stopProcessGroup()
        // Continued: curses restores its modes (raw, noecho, the alternate screen) on the next update.
        doupdate()
        Self.write(Self.sgrMouseOn + Self.bracketedPasteOn + Self.focusReportsOn, to: streams.output)
        redraw()
        var rows: Int32 = 0
        var columns: Int32 = 0
        quaketui_getmaxyx(quaketui_stdscr(), &rows, &columns)
        setSize(Size(columns: Int(columns), rows: Int(rows)))
    }

    /// ctrl-z, SIGTSTP or SIGCONT, handled here rather than by the app: suspend (or just take
    /// the screen back) and report the size, so the app draws a whole frame again.
    private func suspendOrRedraw(suspending: Bool) -> Key {
        if suspending { suspend() } else { redraw() }
        return .resize(columns: size.columns, rows: size.rows)
    }

    /// A stop or continue signal that arrived since the last read, if any.
    private func pendingJobControl() -> Key? {
        if TerminalSignals.takeSuspendRequest() { return suspendOrRedraw(suspending: true) }
        if TerminalSignals.takeContinued() { return suspendOrRedraw(suspending: false) }
        return nil
    }

    /// Forgets the previous frame and clears the physical screen on the next `present`
    /// (ctrl-l). The corresponding C function is `clearok`.
    public func redraw() {
        previous = nil
        clearok(quaketui_curscr(), true)
    }

    /// Rings the terminal bell (BEL, as curses' `beep` would), so tmux flags the window
    /// (`window_bell_flag`) and a terminal can notify. The corresponding C functions are `fputs`
    /// and `fflush`.
    public func bell() {
        Self.write("\u{07}", to: streams.output)
    }

    /// Draws a frame, writing only the cells that changed since the last one, then `doupdate`.
    ///
    /// Never ends the program (SPEC §8: nothing the terminal does may): a terminal resized
    /// under the frame (curses took the new size while reading a key, before the app heard of
    /// it) draws nothing now and reports a `.resize` to the real size on the next `readKey`,
    /// and a draw curses refuses mid-resize is dropped the same way; the next frame is drawn
    /// whole at the new size. Returns whether the frame reached the terminal.
    @discardableResult
    public func present(_ buffer: CellBuffer) -> Bool {
        let window = quaketui_stdscr()
        var rows: Int32 = 0
        var columns: Int32 = 0
        quaketui_getmaxyx(window, &rows, &columns)
        let actual = Size(columns: Int(columns), rows: Int(rows))
        guard actual == size, buffer.size == size else { return dropFrame(resizingTo: actual) }
        let full = previous == nil || previous?.size != buffer.size
        if full { werase(window) }
        var cchar = cchar_t()
        for y in 0..<size.rows {
            for x in 0..<size.columns {
                let cell = buffer[x, y]
                if cell.isContinuation { continue }
                if !full, let previous, previous[x, y] == cell { continue }
                let (attributes, pair) = colors.attributes(for: cell.style)
                var characters = cell.grapheme.unicodeScalars.prefix(4).map { wchar_t(bitPattern: $0.value) }
                characters.append(0)
                setcchar(&cchar, characters, attributes, pair, nil)
                let result = mvwadd_wch(window, Int32(y), Int32(x), &cchar)
                // Writing the bottom-right cell reports ERR because the cursor cannot advance.
                if result == ERR, !(y == size.rows - 1 && x + max(1, cell.width) >= size.columns) {
                    return dropFrame(resizingTo: currentWindowSize())
                }
            }
        }
        guard wnoutrefresh(window) != ERR, doupdate() != ERR else { return dropFrame(resizingTo: currentWindowSize()) }
        previous = buffer
        return true
    }

    /// A frame that could not be drawn: the next one is drawn whole, and when the window's
    /// size is not the one the app drew for, `readKey` reports the real one first.
    private func dropFrame(resizingTo actual: Size) -> Bool {
        previous = nil
        if actual != size {
            setSize(actual)
            queued.insert(.resize(columns: actual.columns, rows: actual.rows), at: 0)
        }
        return false
    }

    /// The window's size as curses has it now. The corresponding C macro is `getmaxyx`.
    func currentWindowSize() -> Size {
        var rows: Int32 = 0
        var columns: Int32 = 0
        quaketui_getmaxyx(quaketui_stdscr(), &rows, &columns)
        return Size(columns: Int(columns), rows: Int(rows))
    }

    /// Blocks in `poll(2)` on the terminal and `wakeUp` (nothing else wakes the process) for up
    /// to `timeoutMilliseconds` (negative: forever); returns a key, mouse event, resize or stop
    /// signal, or nil when woken (look at the inbox) or timed out. A terminal that hung up
    /// reads as SIGHUP. The corresponding C functions are `poll` and `wget_wch`.
    public func readKey(timeoutMilliseconds: Int, wakeUp: WakeUpPipe) -> Key? {
        TerminalSignals.setWakeDescriptor(wakeUp.writeDescriptor)
        // Keys curses already holds (typeahead, a pushed-back key) are never waited for.
        if let key = readKey(timeoutMilliseconds: 0) { return key }
        var fds = [pollfd(fd: fileno(streams.input), events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeUp.readDescriptor, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, Int32(clamping: timeoutMilliseconds))
        // The terminal had nothing until now: what woke the wait came just now.
        lastFoundEmptyAt = Self.monotonicNow()
        if fds[1].revents != 0 { wakeUp.drain() }
        if let signal = TerminalSignals.pending { return .terminate(signal: signal) }
        if let key = pendingJobControl() { return key }
        // A signal (EINTR) may be a resize curses recorded; input is read without waiting.
        guard ready != 0, fds[0].revents != 0 || ready < 0 else { return nil }
        if let key = readKey(timeoutMilliseconds: 0) { return key }
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .terminate(signal: SIGHUP) }
        return nil
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) for a key, mouse event, paste,
    /// resize or stop signal; nil on timeout. Everything the terminal has sent by then is read
    /// and decoded at once (`InputDecoder`); the keys after the first wait in `queued`.
    /// The corresponding C function is `wget_wch`.
    public func readKey(timeoutMilliseconds: Int) -> Key? {
        if let signal = TerminalSignals.pending { return .terminate(signal: signal) }
        if let key = pendingJobControl() { return key }
        if queued.isEmpty { readInput(timeoutMilliseconds: timeoutMilliseconds) }
        guard !queued.isEmpty else {
            if let signal = TerminalSignals.pending { return .terminate(signal: signal) }
            return nil
        }
        let key = queued.removeFirst()
        keyWaitingSince = queuedSince
        return key == .control("z") ? suspendOrRedraw(suspending: true) : key
    }

    /// The keys read and decoded with the last one `readKey` returned, taken out of `queued`:
    /// typed together, they go to the key table together (`KeyMap.action(for:in:)` joins a
    /// burst of search letters). Up to a ctrl-z, which `readKey` handles itself.
    public func takeTypedWithIt() -> [Key] {
        let end = queued.firstIndex(of: .control("z")) ?? queued.endIndex
        defer { queued.removeFirst(end) }
        return Array(queued[..<end])
    }

    /// Puts keys taken with `takeTypedWithIt` and not handled back in front of the queue: the
    /// next `readKey` returns them (a signal that came meanwhile first), as waiting since
    /// `waitingSince`.
    public func putBack(_ keys: ArraySlice<Key>, waitingSince: Int64) {
        guard !keys.isEmpty else { return }
        queued.insert(contentsOf: keys, at: 0)
        queuedSince = waitingSince
    }
}

// MARK: Reading input

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
            if decoder.isInPaste { enqueue(pasteOver ? decoder.flush() : decoder.takePasteSoFar(), since: lastFoundEmptyAt) }
            return
        }
        while decoder.needsMore {
            guard readAvailable(firstWait: InputDecoder.sequenceWaitMilliseconds) else {
                enqueue(decoder.isInPaste && !pasteOver ? decoder.takePasteSoFar() : decoder.flush(), since: lastFoundEmptyAt)
                return
            }
        }
    }

    /// Whether the paste in progress is over for want of input: it stalled, or an end marker it
    /// holds (`InputDecoder.holdsEndMarker`) was followed by nothing for
    /// `InputDecoder.heldMilliseconds`.
    private var pasteOver: Bool {
        pasteStalled || decoder.holdsEndMarker && silentFor(milliseconds: InputDecoder.heldMilliseconds)
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
    private var pasteStalled: Bool { silentFor(milliseconds: InputDecoder.pasteStallMilliseconds) }

    /// Whether the terminal has sent nothing for `milliseconds`.
    private func silentFor(milliseconds: Int) -> Bool {
        DispatchTime.now().uptimeNanoseconds - lastInputAt > UInt64(milliseconds) * 1_000_000
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
