import QuakeTUI
import Glibc

/// A self-pipe that wakes a loop blocked in `poll(2)`: background work, file watchers and
/// signal handlers write one byte; the loop drains it and looks at its inbox.
///
/// Both ends are non-blocking and close-on-exec, so a burst of wake-ups never blocks a writer
/// (a full pipe already means "wake up") and child processes do not inherit the descriptors.
///
/// ```swift
/// let wake = try WakeUpPipe()
/// DispatchQueue.global().async { inbox.post(action); wake.wake() }
/// let key = terminal.readKey(timeoutMilliseconds: 1000, wakeUp: wake)   // returns early
/// ```
public final class WakeUpPipe: Sendable {
    /// The end `poll(2)` watches.
    public let readDescriptor: Int32
    /// The end `wake()` writes to (async-signal-safe).
    public let writeDescriptor: Int32

    /// The corresponding C functions are `pipe` and `fcntl` (`O_NONBLOCK`, `FD_CLOEXEC`).
    public init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw TerminalError(call: "pipe", code: errno, context: "create the browser's wake-up pipe")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Wakes the loop; safe from any thread and from a signal handler.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe after a wake-up (the loop then drains its inbox once for all of them).
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
