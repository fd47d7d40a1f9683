import CNcursesw
import Glibc

/// The signal that asked the app to stop, 0 while none did. Written only by the handler.
nonisolated(unsafe) private var pendingSignal: Int32 = 0
/// The wake-up pipe's write end the handlers write to (-1: none), so a loop blocked in
/// `poll(2)` on another thread's behalf sees the signal at once.
nonisolated(unsafe) var signalWakeDescriptor: Int32 = -1
/// The SIGWINCH handler curses installed, called before waking the loop.
nonisolated(unsafe) private var cursesResizeHandler: (@convention(c) (Int32) -> Void)?

/// Async-signal-safe: one byte into the wake-up pipe, if there is one.
private func wakeFromSignal() {
    let fd = signalWakeDescriptor
    guard fd >= 0 else { return }
    var byte: UInt8 = 1
    _ = write(fd, &byte, 1)
}

/// SIGINT, SIGTERM and SIGHUP handling while curses owns the screen.
///
/// The first signal is recorded and `Terminal.readKey` reports it as `.terminate(signal:)` so
/// the app can save and return (SPEC §4.1: SIGHUP/SIGTERM flush and exit); a second one
/// restores the terminal at once and re-raises with the default action.
enum TerminalSignals {
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The signal received since `install`, if any.
    static var pending: Int32? { pendingSignal == 0 ? nil : pendingSignal }

    /// Installs the handlers; returns the previous actions for `restore`.
    /// The corresponding C function is `sigaction`.
    static func install() -> [Int32: sigaction] {
        pendingSignal = 0
        var previous: [Int32: sigaction] = [:]
        for signal in handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                if pendingSignal != 0 {
                    // Asked twice: restore the screen now and die as the signal says.
                    endwin()
                    Glibc.signal(received, SIG_DFL)
                    raise(received)
                    return
                }
                pendingSignal = received
                wakeFromSignal()
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocked read returns so the loop sees the signal
            var old = sigaction()
            if sigaction(signal, &action, &old) == 0 { previous[signal] = old }
        }
        // SIGWINCH: curses's own handler records the resize (KEY_RESIZE on the next read);
        // ours calls it and wakes the loop, which may be in poll(2) rather than in curses.
        var old = sigaction()
        if sigaction(SIGWINCH, nil, &old) == 0, old.sa_flags & SA_SIGINFO == 0 {
            let handler = old.__sigaction_handler.sa_handler
            let raw = handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
            cursesResizeHandler = raw > 1 ? handler : nil  // not SIG_DFL (0) or SIG_IGN (1)
            var action = old
            action.__sigaction_handler.sa_handler = { received in
                cursesResizeHandler?(received)
                wakeFromSignal()
            }
            if sigaction(SIGWINCH, &action, nil) == 0 { previous[SIGWINCH] = old }
        }
        return previous
    }

    /// Puts back the actions `install` replaced.
    static func restore(_ previous: [Int32: sigaction]) {
        for (signal, old) in previous {
            var action = old
            sigaction(signal, &action, nil)
        }
    }
}
