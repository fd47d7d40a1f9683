import QuakeTUI
import CNcursesw
import Glibc
import Synchronization

// What the handlers touch, and all they do: lock-free atomics and write(2), tcsetattr(2),
// sigaction(2), raise(3) — async-signal-safe calls only (signal-safety(7)). Curses is never
// called from a handler: `endwin` runs in the loop, which the handlers wake. Every global
// here is first touched by `install`, so no handler runs a lazy initializer.

/// The signal that asked the app to stop, 0 while none did.
private let pendingSignal = Atomic<Int32>(0)
/// Set by SIGTSTP (stop) and SIGCONT (continued by someone else): the loop suspends or redraws.
private let pendingSuspend = Atomic<Bool>(false)
private let pendingContinue = Atomic<Bool>(false)
/// The wake-up pipe's write end the handlers write to (-1: none), so a loop blocked in
/// `poll(2)` sees the signal at once.
private let wakeDescriptor = Atomic<Int32>(-1)
/// The terminal's output descriptor and its modes from before curses changed them, for the
/// emergency restore of a second terminating signal.
private let outputDescriptor = Atomic<Int32>(-1)
private let inputDescriptor = Atomic<Int32>(-1)
/// (The address of a `termios` allocated once; 0 for none: pointers are not `Sendable`.)
private let shellModes = Atomic<Int>(0)
/// The SIGWINCH handler curses installed, called before waking the loop.
nonisolated(unsafe) private var cursesResizeHandler: (@convention(c) (Int32) -> Void)?

/// Async-signal-safe: one byte into the wake-up pipe, if there is one.
private func wakeFromSignal() {
    let fd = wakeDescriptor.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    var byte: UInt8 = 1
    _ = write(fd, &byte, 1)
}

/// Async-signal-safe: the terminal back as the shell had it (modes, cursor, mouse, main
/// screen) without curses, for a process about to die of a second signal.
private func emergencyRestore() {
    let output = outputDescriptor.load(ordering: .relaxed)
    if output >= 0 {
        let reset: StaticString = "\u{1B}[?1004l\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h\u{1B}[0m\u{1B}[?1049l\r\n"
        _ = write(output, reset.utf8Start, reset.utf8CodeUnitCount)
    }
    let input = inputDescriptor.load(ordering: .relaxed)
    if input >= 0, let modes = UnsafeMutablePointer<termios>(bitPattern: shellModes.load(ordering: .relaxed)) {
        _ = tcsetattr(input, TCSANOW, modes)
    }
}

/// Signal handling while curses owns the screen.
///
/// - SIGINT, SIGTERM, SIGHUP: the first is recorded and `Terminal.readKey` reports it as
///   `.terminate(signal:)` so the app can save and return (SPEC §4.1: SIGHUP/SIGTERM flush and
///   exit); a second one restores the terminal without curses and dies as the signal says.
/// - SIGTSTP (`kill -TSTP`; ctrl-z itself arrives as a key in raw mode): `readKey` suspends.
/// - SIGCONT: `readKey` redraws (a shell may have drawn over the screen meanwhile).
/// - SIGWINCH: curses's own handler, then a wake-up.
enum TerminalSignals {
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The signal received since `install`, if any.
    static var pending: Int32? {
        let signal = pendingSignal.load(ordering: .acquiring)
        return signal == 0 ? nil : signal
    }

    /// Whether SIGTSTP arrived since the last call (and clears it).
    static func takeSuspendRequest() -> Bool { pendingSuspend.exchange(false, ordering: .acquiringAndReleasing) }

    /// Whether SIGCONT arrived since the last call (and clears it).
    static func takeContinued() -> Bool { pendingContinue.exchange(false, ordering: .acquiringAndReleasing) }

    /// The pipe the handlers write a byte to; -1 for none.
    static func setWakeDescriptor(_ fd: Int32) { wakeDescriptor.store(fd, ordering: .releasing) }

    /// Installs the handlers; returns the previous actions for `restore`. `input` and `output`
    /// are the terminal's descriptors, read before curses changes any mode.
    /// The corresponding C functions are `sigaction` and `tcgetattr`.
    static func install(input: Int32, output: Int32) -> [Int32: sigaction] {
        pendingSignal.store(0, ordering: .releasing)
        pendingSuspend.store(false, ordering: .releasing)
        pendingContinue.store(false, ordering: .releasing)
        _ = wakeDescriptor.load(ordering: .relaxed)
        let modes = UnsafeMutablePointer<termios>(bitPattern: shellModes.load(ordering: .relaxed))
            ?? UnsafeMutablePointer<termios>.allocate(capacity: 1)
        let saved = tcgetattr(input, modes) == 0
        shellModes.store(Int(bitPattern: modes), ordering: .releasing)
        inputDescriptor.store(saved ? input : -1, ordering: .releasing)
        outputDescriptor.store(output, ordering: .releasing)

        var previous: [Int32: sigaction] = [:]
        func set(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocked read returns so the loop sees the signal
            var old = sigaction()
            if sigaction(signal, &action, &old) == 0 { previous[signal] = old }
        }
        for signal in handled {
            set(signal) { received in
                if pendingSignal.exchange(received, ordering: .acquiringAndReleasing) != 0 {
                    // Asked twice: the loop did not get to it. Put the terminal back and die.
                    emergencyRestore()
                    var action = sigaction()
                    action.__sigaction_handler.sa_handler = SIG_DFL
                    sigaction(received, &action, nil)
                    raise(received)
                    return
                }
                wakeFromSignal()
            }
        }
        set(SIGTSTP) { _ in
            pendingSuspend.store(true, ordering: .releasing)
            wakeFromSignal()
        }
        set(SIGCONT) { _ in
            pendingContinue.store(true, ordering: .releasing)
            wakeFromSignal()
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
        wakeDescriptor.store(-1, ordering: .releasing)
        outputDescriptor.store(-1, ordering: .releasing)
        inputDescriptor.store(-1, ordering: .releasing)
    }

    /// Stops the process group as SIGTSTP's default action would (the shell's job control then
    /// shows its prompt), and returns once continued (`fg`). Where no shell could continue it
    /// (an orphaned process group: a program tmux runs directly) the kernel discards the
    /// signal and this returns at once, rather than freezing the pane for good.
    /// The corresponding C functions are `sigaction` and `kill(0, SIGTSTP)`.
    static func stopProcessGroup() {
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&defaultAction.sa_mask)
        var ours = sigaction()
        guard sigaction(SIGTSTP, &defaultAction, &ours) == 0 else { return }
        kill(0, SIGTSTP)
        sigaction(SIGTSTP, &ours, nil)
        _ = takeContinued()  // our own continuation: the caller redraws anyway
    }
}
