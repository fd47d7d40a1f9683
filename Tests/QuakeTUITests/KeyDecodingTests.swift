import Testing
@testable import QuakeTUI

@Suite struct KeyDecodingTests {
    @Test(arguments: [
        ("\r", Key.enter), ("\n", .enter), ("\t", .tab), ("\u{7F}", .backspace), ("\u{8}", .backspace),
        ("\u{1B}", .escape), ("\u{13}", .control("s")), ("\u{0C}", .control("l")), ("\u{15}", .control("u")),
        ("\u{04}", .control("d")), ("j", .character("j")), (" ", .character(" ")), ("東", .character("東")),
    ] as [(String, Key)])
    func singleCharacters(text: String, key: Key) {
        #expect(Key.decode(scalar: text.unicodeScalars.first!) == key)
    }

    @Test(arguments: [
        ("[A", Key.up), ("[B", .down), ("[C", .right), ("[D", .left), ("OA", .up), ("[H", .home), ("[F", .end),
        ("[1~", .home), ("[4~", .end), ("[5~", .pageUp), ("[6~", .pageDown), ("[3~", .delete), ("[Z", .backTab),
        ("[1;5A", .up), ("OP", .function(1)), ("[15~", .function(5)), ("[24~", .function(12)),
    ] as [(String, Key)])
    func escapeSequences(sequence: String, key: Key) {
        #expect(Key.decodeEscapeSequence(sequence) == key)
    }

    @Test(arguments: ["", "x", "[", "[99~", "[Q"])
    func unknownEscapeSequencesAreNil(sequence: String) {
        #expect(Key.decodeEscapeSequence(sequence) == nil)
    }

    @Test func sgrMouseReports() {
        #expect(Key.decodeSGRMouse("<0;12;5M") == .click(x: 11, y: 4))
        #expect(Key.decodeSGRMouse("<64;1;1M") == .wheelUp(x: 0, y: 0))
        #expect(Key.decodeSGRMouse("<65;3;2M") == .wheelDown(x: 2, y: 1))
        #expect(Key.decodeSGRMouse("<0;12;5m") == nil)
        #expect(Key.decodeSGRMouse("<2;12;5M") == nil)
    }

    @Test func keysDescribeThemselvesAsHelpNamesThem() {
        #expect(Key.control("s").description == "ctrl-s")
        #expect(Key.backTab.description == "shift-Tab")
        #expect(Key.character(" ").description == "space")
    }
}
