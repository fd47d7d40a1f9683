import Foundation
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeModel
import QuakeStore
import Testing

@Suite struct SafeTextTests {
    @Test(arguments: [
        ("10 km N of Höfn, Iceland", "10 km N of Höfn, Iceland"),
        ("Evil\u{1B}]0;pwned\u{07} Place", "Evil Place"),
        ("Evil\u{1B}]2;title\u{1B}\\ Place", "Evil Place"),
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("\u{1B}[2J\u{1B}[1;1Hcleared", "cleared"),
        ("a\u{9B}31mb", "ab"),
        ("a\u{1B}Pdcs\u{1B}\\b", "ab"),
        ("reset\u{1B}c!", "reset!"),
        ("tab\there\nnewline\r", "tab here newline "),
        ("bell\u{07}nul\u{0}del\u{7F}", "bellnuldel"),
        ("bidi \u{202E}desrever", "bidi desrever"),
        ("trailing escape \u{1B}", "trailing escape "),
        ("unterminated \u{1B}]0;title", "unterminated "),
        ("wide 東京 and emoji 🌋", "wide 東京 and emoji 🌋"),
    ])
    func controlAndEscapeSequencesNeverReachTheTerminal(input: String, expected: String) {
        let output = SafeText.sanitize(input)
        #expect(output == expected)
        #expect(!output.unicodeScalars.contains { SafeText.isUnsafe($0) })
    }
}

@Suite struct SafeTextOutputTests {
    @Test func linesKeepTheirBreaks() {
        #expect(SafeText.sanitizeLines("a\u{1B}]0;x\u{07}b\nc\u{9B}2Jd\n") == "ab\ncd\n")
        #expect(SafeText.sanitizeLines("plain\ntext") == "plain\ntext")
    }

    @Test func jsonEscapesWhatTheEncoderLeavesRaw() throws {
        let value = ["place": "a\u{9B}b\u{202E}c\u{7F}d\u{1B}e\nf"]
        let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        let escaped = SafeText.escapingJSON(encoded + "\n")
        #expect(!escaped.dropLast().unicodeScalars.contains { SafeText.isUnsafe($0) })
        #expect(escaped.contains("\\u009b") && escaped.contains("\\u202e") && escaped.contains("\\u007f"))
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(escaped.utf8))
        #expect(decoded == value)
    }

    /// Every scalar up to U+2FFF, alone between letters: each function drops or escapes exactly
    /// what `isUnsafe` calls unsafe (their fast path reads bytes, not scalars).
    @Test func everyUnsafeScalarIsCaughtWhateverItsBytes() {
        for value in 0 ... 0x2FFF as ClosedRange<UInt32> {
            guard let scalar = Unicode.Scalar(value), scalar != "\u{1B}", scalar != "\u{9B}",
                  ![0x90, 0x98, 0x9D, 0x9E, 0x9F].contains(value) else { continue }  // escapes swallow what follows
            let text = "a" + String(Character(scalar)) + "b"
            let whitespace = scalar == "\n" || scalar == "\r" || scalar == "\t"
            let sanitized = SafeText.sanitize(text)
            #expect(sanitized == (whitespace ? "a b" : SafeText.isUnsafe(scalar) ? "ab" : text), "U+\(String(value, radix: 16))")
            let escaped = SafeText.escapingJSON(text)
            #expect((escaped == text) == (whitespace || !SafeText.isUnsafe(scalar)), "U+\(String(value, radix: 16))")
        }
    }
}
