import Foundation

/// The scheduling priority of this process (`nice`, -20 … 19: higher runs later).
enum Niceness {
    /// The helper's: below the browser and the commands it serves.
    static let helper: Int32 = 10

    /// This process's niceness now; nil where it cannot be read.
    static var current: Int32? {
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return value == -1 && errno != 0 ? nil : value
    }

    /// Raises this process's niceness to `floor` where it is lower (never lowers it: an
    /// unprivileged process cannot win it back, and a user who started us at nice 15 meant it).
    static func lower(to floor: Int32) {
        guard let now = current, now < floor else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, floor)
    }
}
