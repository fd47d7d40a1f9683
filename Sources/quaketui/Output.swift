import Foundation
import QuakeStore

// Everything the command line prints goes through these functions, and they send it through
// the project's one sanitizer, `SafeText` (shared with the browser): text is stripped of control
// characters and escape sequences line by line; JSON keeps the data, with unsafe scalars written
// as `\u00XX`. A feed id holding OSC 52, a hostile file name in an error, a bidi override in a
// place: none reaches the terminal raw. `.ci/run` checks that no other file writes to stdout or
// stderr directly.

/// Prints text on stdout, sanitized line by line. Shadows `Swift.print` inside this module, so a
/// plain `print("…")` anywhere in the command line is safe by construction.
func print(_ text: String, terminator: String = "\n") {
    Swift.print(SafeText.sanitizeLines(text), terminator: terminator)
}

/// Any other `print(a, b, …)` in this module lands here, sanitized the same way.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(SafeText.sanitizeLines(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}

/// Prints a message on stderr, sanitized line by line.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((SafeText.sanitizeLines(text) + "\n").utf8))
}

/// Redraws the one-line progress bar on stderr (`\r`, erase line, then `line` sanitized), or
/// erases it when `line` is nil. The only escape sequence the command line writes itself.
/// Rings the terminal bell on stderr (an alert of `watch --refresh`): the one control byte
/// quaketui writes on purpose, which `printError`'s sanitizer would strip.
func ringBell() {
    FileHandle.standardError.write(Data([0x07]))
}

func printProgressLine(_ line: String?) {
    FileHandle.standardError.write(Data(("\r\u{1B}[K" + (line.map(SafeText.sanitize) ?? "")).utf8))
}

/// Prints `value` as one JSON object on stdout (sorted keys, ISO-8601 dates), unsafe scalars escaped.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    Swift.print(SafeText.escapingJSON(String(decoding: try encoder.encode(value), as: UTF8.self)))
}

/// stdout through a 64 KiB buffer: printing a million rows one `print` at a time is slow.
/// `write` sanitizes text; `writeJSON` escapes encoded JSON.
final class BufferedOutput {
    private var buffer = Data()

    func write(_ text: String) {
        append(SafeText.sanitizeLines(text))
    }

    /// Appends already-encoded JSON (a fragment is fine: escaping is per scalar).
    func writeJSON(_ json: String) {
        append(SafeText.escapingJSON(json))
    }

    private func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 65_536 { flush() }
    }

    func flush() {
        FileHandle.standardOutput.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
