import QuakeModel
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// Issue 55.5: the terminal's own notification for an alert (`alertNotification`): OSC 777 and
/// OSC 9 as terminals read them, wrapped for tmux's passthrough inside tmux, and no control
/// character from a quake's data ever in them — only the sequence's own ESCs.
@Suite struct TerminalNotificationTests {
    @Test func osc777AndOsc9AsTerminalsReadThem() {
        #expect(TerminalNotification.sequence(.osc777, title: "quaketui", body: "ALERT M 5.6 21 km N of Aksaray, Turkey", insideTmux: false)
                == "\u{1B}]777;notify;quaketui;ALERT M 5.6 21 km N of Aksaray, Turkey\u{1B}\\")
        #expect(TerminalNotification.sequence(.osc9, title: "quaketui", body: "ALERT M 5.6 Aksaray; Turkey", insideTmux: false)
                == "\u{1B}]9;ALERT M 5.6 Aksaray; Turkey\u{1B}\\")
        // A body that would read as ConEmu's `9;4;…` progress command starts with a space.
        #expect(TerminalNotification.sequence(.osc9, title: "", body: "4;3 quakes", insideTmux: false) == "\u{1B}]9; 4;3 quakes\u{1B}\\")
        // `;` separates OSC 777's fields: none in the title.
        #expect(TerminalNotification.sequence(.osc777, title: "a;b", body: "c;d", insideTmux: false)
                == "\u{1B}]777;notify;a,b;c;d\u{1B}\\")
    }

    @Test func insideTmuxTheSequenceIsPassedThroughWithItsEscapesDoubled() {
        #expect(TerminalNotification.sequence(.osc777, title: "quaketui", body: "ALERT M 6", insideTmux: true)
                == "\u{1B}Ptmux;\u{1B}\u{1B}]777;notify;quaketui;ALERT M 6\u{1B}\u{1B}\\\u{1B}\\")
        #expect(TerminalNotification.sequence(.osc9, title: "quaketui", body: "ALERT M 6", insideTmux: true)
                == "\u{1B}Ptmux;\u{1B}\u{1B}]9;ALERT M 6\u{1B}\u{1B}\\\u{1B}\\")
    }

    /// A place name that tries to end the sequence and write another (retitle the pane, set the
    /// clipboard), with C0 and C1 controls, BEL, DEL and line breaks: none of it reaches the terminal.
    @Test(arguments: TerminalNotification.Kind.allCases, [false, true])
    func nothingFromTheQuakeReachesTheTerminalRaw(kind: TerminalNotification.Kind, insideTmux: Bool) {
        let place = "Evil\u{1B}\\\u{1B}]0;pwned\u{07}\u{1B}]52;c;aGk=\u{07} \u{9D}2;x\u{9C} Place\r\n\u{7F}\u{85}end\u{202E}"
        let sequence = TerminalNotification.sequence(kind, title: "quake\u{1B}[31m;tui\u{07}", body: "ALERT M 6 " + place,
                                                     insideTmux: insideTmux)
        let clean = kind == .osc777 ? "\u{1B}]777;notify;quake,tui;ALERT M 6 Evil  Place  end\u{1B}\\"
            : "\u{1B}]9;ALERT M 6 Evil  Place  end\u{1B}\\"
        let expected = insideTmux ? "\u{1B}Ptmux;" + clean.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\" : clean
        #expect(sequence == expected, "\(sequence.debugDescription)")
        // Besides the framing, nothing unsafe: every ESC is one of the sequence's own.
        let framing = insideTmux ? 6 : 2
        #expect(sequence.unicodeScalars.filter { $0 == "\u{1B}" }.count == framing)
        #expect(!sequence.unicodeScalars.contains { SafeText.isUnsafe($0) && $0 != "\u{1B}" })
    }

    @Test func aLongBodyIsCut() {
        let sequence = TerminalNotification.sequence(.osc9, title: "", body: String(repeating: "é", count: 1_000), insideTmux: false)
        #expect(sequence == "\u{1B}]9;" + String(repeating: "é", count: TerminalNotification.maximumCharacters) + "\u{1B}\\")
    }
}
