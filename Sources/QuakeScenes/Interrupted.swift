import Glibc

/// Makes a system call again while it fails with `EINTR`: a signal arrived before the call did
/// anything, so it may simply be made again (issue 57: one EINTR failed a whole `config`). Bounded,
/// so that a fault injector failing every call still ends (with the `EINTR`, named as such).
///
/// ```swift
/// let fd = retryingInterrupted { open(path, O_RDONLY | O_CLOEXEC) }
/// ```
/// Not for `close(2)`: on Linux the descriptor is gone even when `close` says `EINTR`.
/// - Parameter call: the call, returning -1 with `errno` set on failure (`open`, `fsync`, `rename` …).
/// - Returns: the call's last result, `errno` as it left it.
func retryingInterrupted<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    var result = call()
    var tries = 1
    while result < 0, errno == EINTR, tries < 100 {
        result = call()
        tries += 1
    }
    return result
}
