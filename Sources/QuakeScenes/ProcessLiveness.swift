import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a process exists, via `kill(pid, 0)`.
enum ProcessLiveness {
    /// True unless `kill(pid, 0)` reports `ESRCH` (no such process).
    static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
