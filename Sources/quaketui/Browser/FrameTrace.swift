import Foundation
import QuakeTUI

/// A trace for the benchmark, off unless `QUAKETUI_TRACE=FILE` is set: one line per frame
/// presented, `frame <CLOCK_MONOTONIC ns> <rows materialized so far> <the header row>`, so a
/// driver on a pseudo-terminal can time launch → first frame and key → frame on the same clock,
/// and check what the frame says it shows (the header row as drawn, trailing spaces trimmed:
/// `quaketui │ 1,234 quakes │ sort intensity ↓ │ … scene main`). Tests also
/// read `key` (a key or mouse event was handled) and `idle` (nothing pending, every scene
/// change on disk) lines, to wait on conditions rather than sleep.
///
/// A key's line is `key <read ns> <waiting since ns>`: when the loop took it, and the earliest
/// it can have been waiting for the browser, on the same clock as the frames
/// (`Terminal.keyWaitingSince`): when the terminal was last found empty before its final bytes
/// were read, or when they ended a wait for them (a paste arrives over many reads: the terminal's
/// time to deliver it is not the browser's; a key that sat unread while the loop was busy is).
/// From it to the next `frame` is the browser's own time for the key, whatever the terminal
/// (tmux) took to deliver it (issue 57).
/// A `merge <ns>` line says how long merging other processes' commits took, frame included;
/// `quit <ns>` is written when the browser has ended (the terminal restored); `exit <ns>` just
/// before the process exits, everything released (`appendExit`), last.
final class FrameTrace {
    private let handle: FileHandle

    init?(environment: [String: String]) {
        guard let path = environment["QUAKETUI_TRACE"], !path.isEmpty,
              FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { return nil }
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Appends `exit <ns>` to the trace of `environment` (`QUAKETUI_TRACE`), if there is one.
    static func appendExit(environment: [String: String]) {
        guard let path = environment["QUAKETUI_TRACE"], !path.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let line = Array("exit \(now())\n".utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Best effort: a line that cannot be written (a full disk) is lost, never fatal (the
    /// legacy `write(_:)` traps on an error).
    func event(_ name: String) {
        try? handle.write(contentsOf: Data("\(name)\n".utf8))
    }

    /// The time is taken first: reading the header row is not part of the frame's time.
    func frame(rows: Int, drawn: CellBuffer) {
        let now = Self.now()
        try? handle.write(contentsOf: Data("frame \(now) \(rows) \(Self.firstRow(drawn))\n".utf8))
    }

    /// Row 0 of the frame as text (the header), without the trailing spaces of its bar.
    private static func firstRow(_ drawn: CellBuffer) -> String {
        var text = ""
        for x in 0..<(drawn.height > 0 ? drawn.width : 0) where !drawn[x, 0].isContinuation { text += drawn[x, 0].grapheme }
        while text.last == " " { text.removeLast() }
        return text
    }

    func key(read: Int64, waitingSince: Int64) {
        try? handle.write(contentsOf: Data("key \(read) \(waitingSince)\n".utf8))
    }

    /// CLOCK_MONOTONIC in nanoseconds: one clock for every process on the machine.
    static func now() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
