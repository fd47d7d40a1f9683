import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

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

    /// What follows an ESC, as the terminal reads it: SGR presses and wheel notches at any
    /// column, and releases, drags and unknown reports are nothing at all — never Esc.
    @Test func sgrReportsAfterEscapeAreKeysOrNothingButNeverEscape() {
        #expect(Key.decodeAfterEscape("[<0;240;5M") == .click(x: 239, y: 4))
        #expect(Key.decodeAfterEscape("[<0;1000;300M") == .click(x: 999, y: 299))
        #expect(Key.decodeAfterEscape("[<0;240;5m") == nil)      // the release of that click
        #expect(Key.decodeAfterEscape("[<3;20;5M") == nil)       // an X10-style release
        #expect(Key.decodeAfterEscape("[<32;20;5M") == nil)      // a drag
        #expect(Key.decodeAfterEscape("[<64;250;1M") == .wheelUp(x: 249, y: 0))
        #expect(Key.decodeAfterEscape("[<65;3;40M") == .wheelDown(x: 2, y: 39))
        #expect(Key.decodeAfterEscape("[<69;3;40M") == .wheelDown(x: 2, y: 39))  // shift-wheel
        #expect(Key.decodeAfterEscape("[<65;3;40m") == nil)
        #expect(Key.decodeAfterEscape("[<0;;5M") == nil && Key.decodeAfterEscape("[<0;0;5M") == nil)
        #expect(Key.decodeAfterEscape("[I") == .focusIn)         // focus reports (mode 1004), issue 55
        #expect(Key.decodeAfterEscape("[O") == .focusOut)
        #expect(Key.decodeAfterEscape("[1I") == nil && Key.decodeAfterEscape("[2O") == nil)  // nothing else ending so
        #expect(Key.decodeAfterEscape("") == .escape)
        #expect(Key.decodeAfterEscape("[6~") == .pageDown)
        #expect(Key.decodeAfterEscape("[<0;24") == nil)          // a report cut short is dropped too
    }

    @Test(arguments: [("[", false), ("[<", false), ("[<0;240;5", false), ("[<0;240;5M", true), ("[<0;2;5m", true),
                      ("[5", false), ("[5~", true), ("[A", true), ("[1;5", false), ("O", false), ("OP", true)])
    func escapeSequencesAreCompleteAtTheirFinalByte(sequence: String, complete: Bool) {
        #expect(Key.isCompleteEscapeSequence(sequence) == complete)
    }

    @Test func keysDescribeThemselvesAsHelpNamesThem() {
        #expect(Key.control("s").description == "ctrl-s")
        #expect(Key.backTab.description == "shift-Tab")
        #expect(Key.character(" ").description == "space")
    }
}
