@testable import QuakeTUI
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
