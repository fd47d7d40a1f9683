import Foundation

/// A trace for the benchmark, off unless `QUAKETUI_TRACE=FILE` is set: one line per frame
/// presented, `frame <CLOCK_MONOTONIC ns> <rows materialized so far>`, so a driver on a
/// pseudo-terminal can time launch → first frame and key → frame on the same clock. Tests also
/// read `key` (a key or mouse event was handled) and `idle` (nothing pending, every scene
/// change on disk) lines, to wait on conditions rather than sleep.
final class FrameTrace {
    private let handle: FileHandle

    init?(environment: [String: String]) {
        guard let path = environment["QUAKETUI_TRACE"], !path.isEmpty,
              FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { return nil }
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Best effort: a line that cannot be written (a full disk) is lost, never fatal (the
    /// legacy `write(_:)` traps on an error).
    func event(_ name: String) {
        try? handle.write(contentsOf: Data("\(name)\n".utf8))
    }

    func frame(rows: Int) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        try? handle.write(contentsOf: Data("frame \(nanoseconds) \(rows)\n".utf8))
    }
}
