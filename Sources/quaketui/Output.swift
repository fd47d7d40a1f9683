import Foundation
import QuakeModel
import QuakeStore
#if canImport(Glibc)
import Glibc
#endif

// Everything the command line prints goes through these functions, and they send it through
// the project's one sanitizer, `SafeText` (shared with the browser): text is stripped of control
// characters and escape sequences line by line; JSON keeps the data, with unsafe scalars written
// as `\u00XX`. A feed id holding OSC 52, a hostile file name in an error, a bidi override in a
// place: none reaches the terminal raw. `.ci/run` checks that no other file writes to stdout or
// stderr directly.

/// Prints text on stdout, sanitized line by line. Shadows `Swift.print` inside this module, so a
/// plain `print("…")` anywhere in the command line is safe by construction.
func print(_ text: String, terminator: String = "\n") {
    Output.write(SafeText.sanitizeLines(text) + terminator, to: .standardOutput)
}

/// Any other `print(a, b, …)` in this module lands here, sanitized the same way.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Output.write(SafeText.sanitizeLines(items.map { "\($0)" }.joined(separator: separator)) + terminator, to: .standardOutput)
}

/// Prints a message on stderr, sanitized line by line.
func printError(_ text: String) {
    Output.write(SafeText.sanitizeLines(text) + "\n", to: .standardError)
}

/// Asks a question on stderr, sanitized, with no line break: the answer is typed after it.
func printPrompt(_ text: String) {
    Output.write(SafeText.sanitize(text), to: .standardError)
}

/// Redraws the one-line progress bar on stderr (`\r`, erase line, then `line` sanitized), or
/// erases it when `line` is nil. The only escape sequence the command line writes itself.
/// Rings the terminal bell on stderr (an alert of `watch --refresh`): the one control byte
/// quaketui writes on purpose, which `printError`'s sanitizer would strip.
func ringBell() {
    Output.write("\u{07}", to: .standardError)
}

func printProgressLine(_ line: String?) {
    Output.write("\r\u{1B}[K" + (line.map(SafeText.sanitize) ?? ""), to: .standardError)
}

/// Prints `value` as one JSON object on stdout (sorted keys, ISO-8601 dates), unsafe scalars escaped.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    Output.write(SafeText.escapingJSON(String(decoding: try encoder.encode(value), as: UTF8.self)) + "\n", to: .standardOutput)
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
        Output.write(buffer, to: .standardOutput)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The one writer to file descriptors 1 and 2 (issue 29): every `write(2)` is checked.
///
/// `FileHandle.write` traps on a failed write (`quaketui list > /dev/full` died with SIGILL and a
/// backtrace), and `Swift.print` buffers in stdio, whose failed flush at exit goes unnoticed
/// (`info > /dev/full` exited 0 with its output lost). Here a write is retried after `EINTR` and
/// continued after a short count; any other failure (`ENOSPC`, `EIO`, `EPIPE`…) ends the process
/// at once with exit 1 and one sentence on stderr, if stderr can still take it. Output is the
/// last thing a command does, or its progress: a command stopped there has either done its work
/// (whose report is lost: exit 1 says so) or is rolled back with the process, like a kill.
enum Output {
    enum Stream: Int32 {
        case standardOutput = 1, standardError = 2

        var name: String { self == .standardOutput ? "standard output" : "standard error" }
    }

    static func write(_ text: String, to stream: Stream) {
        var text = text
        let failure = text.withUTF8 { writeAll(stream.rawValue, $0) }
        if let failure { fail(stream, errno: failure) }
    }

    static func write(_ data: Data, to stream: Stream) {
        let failure = data.withUnsafeBytes { writeAll(stream.rawValue, $0.bindMemory(to: UInt8.self)) }
        if let failure { fail(stream, errno: failure) }
    }

    /// Writes every byte to `fd`; the `errno` of the first failure that is not `EINTR`, or nil.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard var next = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            let written = Glibc.write(fd, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            // write(2) returns 0 only for a zero-length request; treat it as "no space" rather than spin.
            if written == 0 { return ENOSPC }
            next += written
            left -= written
        }
        return nil
    }

    /// The failure's one sentence, on stderr if it still writes, then exit 1.
    private static func fail(_ stream: Stream, errno code: Int32) -> Never {
        let message = "Error: Cannot write to \(stream.name): \(String(cString: strerror(code))); the output is incomplete."
        if stream == .standardOutput {
            var line = message + "\n"
            _ = line.withUTF8 { writeAll(Stream.standardError.rawValue, $0) }
        }
        ErrorPresenter.log(ErrorPresenter.notice(message), context: "output")
        exit(ExitCode.failure.rawValue)
    }
}

/// An optional field of a `--json` object written as `null` when it has no value: synthesized
/// `Encodable` leaves a nil out, and every key of `stats` and `sequence`'s objects is always there.
///
/// ```swift
/// struct Fit: Encodable { @NullIfNone var b: Double? }   // {"b":null}
/// ```
@propertyWrapper
struct NullIfNone<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
