import QuakeTestSupport
import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

/// Issue 28.2–3: the decoder between the terminal and the keys. An Esc alone in what was read
/// is Esc at once; a sequence split across reads anywhere after its ESC is never misread; a
/// bracketed paste is one `.paste`, whatever it holds.
@Suite struct InputDecoderTests {
    /// Every sequence the decoder knows, as a terminal writes it, and what it means.
    static let sequences: [(String, [Key])] = {
        var list: [(String, [Key])] = [
            ("[A", [.up]), ("[B", [.down]), ("[C", [.right]), ("[D", [.left]), ("OA", [.up]), ("OB", [.down]),
            ("OC", [.right]), ("OD", [.left]), ("[H", [.home]), ("[F", [.end]), ("OH", [.home]), ("OF", [.end]),
            ("[1~", [.home]), ("[7~", [.home]), ("[4~", [.end]), ("[8~", [.end]), ("[5~", [.pageUp]),
            ("[6~", [.pageDown]), ("[3~", [.delete]), ("[Z", [.backTab]), ("[1;5A", [.up]), ("[1;2B", [.down]),
            ("[5;5~", [.pageUp]), ("OP", [.function(1)]), ("OQ", [.function(2)]), ("OR", [.function(3)]),
            ("OS", [.function(4)]), ("[15~", [.function(5)]),
            ("[<0;12;5M", [.click(x: 11, y: 4)]), ("[<0;12;5m", []), ("[<64;200;40M", [.wheelUp(x: 199, y: 39)]),
            ("[<65;3;2M", [.wheelDown(x: 2, y: 1)]), ("[<32;3;2M", []), ("[I", [.focusIn]), ("[O", [.focusOut]), ("[2~", []),
            ("[M \u{2C}\u{25}", [.click(x: 11, y: 4)]), ("[M#\u{2C}\u{25}", []), ("[Ma!!", [.wheelDown(x: 0, y: 0)]),
            ("[200~Tokyo\rJapan q\u{1B}[A\u{1B}[201~", [.paste("Tokyo\rJapan q\u{1B}[A")]),
            ("[200~\u{1B}[201~", [.paste("")]),
            ("[200~\u{1B}[200~x\u{1B}[20\u{1B}[201~", [.paste("\u{1B}[200~x\u{1B}[20")]),
        ]
        for n in 17...21 { list.append(("[\(n)~", [.function(n - 11)])) }
        for n in 23...24 { list.append(("[\(n)~", [.function(n - 12)])) }
        return list.map { ("\u{1B}" + $0.0, $0.1) }
    }()

    /// Decodes `reads` one after another as the terminal reads them (no wait runs out, but that
    /// for an end marker held at the end: nothing more came).
    static func decode(_ reads: [String]) -> [Key] {
        var decoder = InputDecoder()
        var keys: [Key] = []
        for read in reads {
            decoder.feed(read.unicodeScalars)
            keys += decoder.decode()
        }
        if decoder.holdsEndMarker { keys += decoder.flush() }
        return keys
    }

    @Test(arguments: sequences.indices)
    func everySequenceReadWholeIsItsKey(index: Int) {
        let (sequence, keys) = Self.sequences[index]
        #expect(Self.decode([sequence]) == keys, "\(sequence.debugDescription)")
    }

    /// Split at every point after its ESC: the first part waits (`needsMore`) and gives no key,
    /// and the whole gives the key: nothing is ever misread.
    @Test(arguments: sequences.indices)
    func everySplitAfterTheEscapeIsWaitedForAndReadRight(index: Int) {
        let (sequence, keys) = Self.sequences[index]
        let scalars = Array(sequence.unicodeScalars)
        for split in 2..<scalars.count {
            let (head, tail) = (String(String.UnicodeScalarView(scalars[..<split])), String(String.UnicodeScalarView(scalars[split...])))
            var decoder = InputDecoder()
            decoder.feed(head.unicodeScalars)
            let first = decoder.decode()
            #expect(decoder.needsMore, "\(sequence.debugDescription) split at \(split)")
            decoder.feed(tail.unicodeScalars)
            #expect(first + decoder.decode() == keys, "\(sequence.debugDescription) split at \(split)")
            #expect(!decoder.needsMore)
        }
    }

    /// Split into three pieces at every pair of points after the ESC (pastes and long reports).
    @Test func everyThreeWaySplitIsReadRight() {
        for (sequence, keys) in Self.sequences {
            let scalars = Array(sequence.unicodeScalars)
            guard scalars.count >= 4 else { continue }
            for first in 2..<(scalars.count - 1) {
                for second in (first + 1)..<scalars.count {
                    let reads = [scalars[..<first], scalars[first..<second], scalars[second...]]
                        .map { String(String.UnicodeScalarView($0)) }
                    #expect(Self.decode(reads) == keys, "\(sequence.debugDescription) split at \(first), \(second)")
                }
            }
        }
    }

    /// The Esc key: alone in what was read, it is Esc at once; nothing is waited for.
    @Test func anEscapeAloneInARead() {
        var decoder = InputDecoder()
        decoder.feed("\u{1B}".unicodeScalars)
        #expect(decoder.decode() == [.escape])
        #expect(!decoder.needsMore)
        // Esc then keys typed at once, and Esc Esc.
        #expect(Self.decode(["\u{1B}j"]) == [.escape, .character("j")])
        #expect(Self.decode(["\u{1B}\u{1B}"]) == [.escape, .escape])
        #expect(Self.decode(["j\u{1B}"]) == [.character("j"), .escape])
        // A sequence after a lone Esc in the same read.
        #expect(Self.decode(["\u{1B}\u{1B}[B"]) == [.escape, .down])
        // Only a read cut at its limit keeps a final Esc for the next one.
        decoder.feed("\u{1B}".unicodeScalars)
        #expect(decoder.decode(moreAvailable: true) == [])
        decoder.feed("[A".unicodeScalars)
        #expect(decoder.decode() == [.up])
    }

    /// A sequence begun whose rest never comes: after the wait, Esc (or nothing, for a report).
    @Test func aSequenceCutShortIsFlushedAfterTheWait() {
        for (head, keys) in [("\u{1B}[", [Key.escape]), ("\u{1B}O", [.escape]), ("\u{1B}[<0;24", []), ("\u{1B}[1;5", [.escape])] {
            var decoder = InputDecoder()
            decoder.feed(head.unicodeScalars)
            #expect(decoder.decode() == [])
            #expect(decoder.needsMore)
            #expect(decoder.flush() == keys, "\(head.debugDescription)")
            #expect(!decoder.needsMore)
        }
        // A paste whose end never comes is what arrived of it.
        var decoder = InputDecoder()
        decoder.feed("\u{1B}[200~half a paste\u{1B}[20".unicodeScalars)
        #expect(decoder.decode() == [])
        #expect(decoder.flush() == [.paste("half a paste\u{1B}[20")])
    }

    /// Seeded streams of keys, sequences and pastes, written whole and read in random pieces
    /// (never cut right after an ESC that begins a sequence: a terminal writes those whole; always
    /// cut right after a paste: a terminal ends its write of a paste with the end marker, and the
    /// keys a person types after it come later, never in the same read as a next paste): the keys
    /// are exactly those written.
    @Test func seededStreamsReadInRandomPiecesGiveTheKeysWritten() {
        let plain: [(String, [Key])] = [("j", [.character("j")]), ("q", [.character("q")]), ("\r", [.enter]),
                                        ("東", [.character("東")]), ("\u{7F}", [.backspace]), ("\u{13}", [.control("s")])]
        for seed in UInt64(1)...300 {
            var generator = SeededGenerator(seed: seed)
            var stream: [Unicode.Scalar] = []
            var cuttable: [Bool] = []  // whether a read may end after this character
            var mustCut: Set<Int> = []  // where a read ends: after a paste
            var expected: [Key] = []
            for _ in 0..<Int.random(in: 1...30, using: &generator) {
                let (text, keys) = Bool.random(using: &generator) ? Self.sequences.randomElement(using: &generator)!
                    : plain.randomElement(using: &generator)!
                let scalars = Array(text.unicodeScalars)
                stream += scalars
                cuttable += scalars.indices.map { !(scalars[0] == "\u{1B}" && $0 == 0) }
                expected += keys
                if keys.contains(where: { if case .paste = $0 { true } else { false } }) { mustCut.insert(stream.count - 1) }
            }
            // A lone Esc pressed at the end, in a write of its own.
            if Bool.random(using: &generator) {
                stream.append("\u{1B}")
                cuttable.append(true)
                expected.append(.escape)
            }
            var reads: [String] = []
            var start = 0
            for index in stream.indices where cuttable[index]
                    && (index == stream.count - 1 || Int.random(in: 0..<4, using: &generator) == 0 || mustCut.contains(index)) {
                reads.append(String(String.UnicodeScalarView(stream[start...index])))
                start = index + 1
            }
            #expect(Self.decode(reads) == expected, "seed \(seed): \(reads.map(\.debugDescription))")
        }
    }

    /// Seeded random input (ESCs, CSI and SS3 bytes, paste markers, letters, controls, wide
    /// letters): split at any point not right after an ESC, nor right after an end-of-paste marker
    /// that a later one follows (issue 57.7: the decoder's documented limit), it gives the keys it
    /// gives whole.
    /// (`tools/fuzz/targets/key.swift` checks the same on libFuzzer's inputs.)
    @Test func randomInputSplitAnywhereButAfterAnEscapeGivesTheSameKeys() {
        let pieces: [String] = ["\u{1B}", "[", "O", "<", "M", "~", ";", "1", "2", "0", "5", "A", "m", "j", "q", "\r",
                                "\u{7F}", "東", "\u{1B}[200~", "\u{1B}[201~", " ", "!"]
        for seed in UInt64(1)...400 {
            var generator = SeededGenerator(seed: seed)
            let scalars = Array((0..<Int.random(in: 1...40, using: &generator))
                .map { _ in pieces.randomElement(using: &generator)! }.joined().unicodeScalars)
            var whole = InputDecoder()
            whole.feed(scalars)
            let expected = whole.decode() + whole.flush()
            for split in 1..<max(1, scalars.count)
            where scalars[split - 1] != "\u{1B}" && !InputDecoder.splitsEndMarkers(scalars, at: split) {
                var decoder = InputDecoder()
                decoder.feed(scalars[..<split])
                var keys = decoder.decode()
                decoder.feed(scalars[split...])
                keys += decoder.decode() + decoder.flush()
                #expect(keys == expected, "seed \(seed), split at \(split): \(scalars.map(\.value))")
                if keys != expected { return }
            }
        }
    }

    /// Issue 57.6: the terminal's bytes are UTF-8 decoded here, an invalid byte being one
    /// U+FFFD: nothing after it is lost, in a paste or in keys typed.
    @Test func anInvalidByteIsOneReplacementCharacterAndNothingAfterItIsLost() {
        let paste = Array("\u{1B}[200~ZW".utf8) + [0x00] + Array("N".utf8) + [0x9B] + Array("AFTER\nline3\u{1B}[201~".utf8)
        var decoder = InputDecoder()
        decoder.feed(bytes: paste)
        #expect(decoder.decode() == [.paste("ZW\u{0}N\u{FFFD}AFTER\nline3")])
        #expect(!decoder.needsMore)
        // Read in every split: the same paste (a character split across reads waits for its rest).
        let bytes = paste + Array("東".utf8) + [0xFF, 0xE6, 0x9D] + Array("j".utf8)
        let expected: [Key] = [.paste("ZW\u{0}N\u{FFFD}AFTER\nline3"), .character("東"), .character("\u{FFFD}"),
                               .character("\u{FFFD}"), .character("j")]
        for split in 1..<bytes.count where bytes[split - 1] != 0x1B {
            var decoder = InputDecoder()
            decoder.feed(bytes: bytes[..<split])
            var keys = decoder.decode()
            decoder.feed(bytes: bytes[split...])
            keys += decoder.decode() + decoder.flush()
            #expect(keys == expected, "split at \(split)")
        }
        // Nothing read (a resize alone), then a character cut short by the end of what came: one
        // U+FFFD once the wait is over.
        decoder.feed(bytes: [])
        #expect(decoder.decode() == [])
        decoder.feed(bytes: [0xE6, 0x9D])
        #expect(decoder.decode() == [])
        #expect(decoder.needsMore)
        #expect(decoder.flush() == [.character("\u{FFFD}")])
    }

    /// Issue 57.7: an end marker inside the pasted text (followed, in the same read, by the
    /// terminal's own end marker with no start marker between) is text; what follows it is
    /// never keys. Two real pastes in one read stay two.
    @Test func aFakeEndMarkerInsideAPasteIsText() {
        #expect(Self.decode(["\u{1B}[200~zz\u{1B}[201~s\u{1B}[201~"]) == [.paste("zz\u{1B}[201~s")])
        #expect(Self.decode(["\u{1B}[200~a\u{1B}[201~Q\u{1B}[201~b\u{1B}[201~j"])
                == [.paste("a\u{1B}[201~Q\u{1B}[201~b"), .character("j")])
        // A fake end and a fake start with text between (issue 57's review: `Q` between them
        // closed the scene): all of it the paste's text.
        #expect(Self.decode(["\u{1B}[200~a\u{1B}[201~s\u{1B}[200~b\u{1B}[201~"])
                == [.paste("a\u{1B}[201~s\u{1B}[200~b")])
        #expect(Self.decode(["\u{1B}[200~zz\u{1B}[201~Qy\u{1B}[200~yy\u{1B}[201~j"])
                == [.paste("zz\u{1B}[201~Qy\u{1B}[200~yy"), .character("j")])
        // Two pastes back to back, nothing between: two pastes.
        #expect(Self.decode(["\u{1B}[200~a\u{1B}[201~\u{1B}[200~b\u{1B}[201~"]) == [.paste("a"), .paste("b")])
        #expect(Self.decode(["\u{1B}[200~a\u{1B}[201~s"]) == [.paste("a"), .character("s")])
        // A read cut at its limit right after an end marker: decided once the rest is read.
        var decoder = InputDecoder()
        decoder.feed("\u{1B}[200~zz\u{1B}[201~s".unicodeScalars)
        #expect(decoder.decode(moreAvailable: true) == [])
        decoder.feed("q\u{1B}[201~".unicodeScalars)
        #expect(decoder.decode() == [.paste("zz\u{1B}[201~sq")])
    }

    /// Issue 57.7 across reads: an end marker with text behind it in one read is held, and what
    /// comes next decides it: the terminal's end marker (the held one was text, and nothing
    /// between was keys), a start marker (it was the end), more than `heldTextLimit` characters
    /// (text), or nothing more (`flush`, which the runtime calls after `heldMilliseconds`: it
    /// was the end, the characters behind it keys). An end marker that ends a read is the end.
    @Test func anEndMarkerWithTextBehindItInOneReadIsHeldUntilTheNextReadDecides() {
        #expect(Self.decode(["\u{1B}[200~zz\u{1B}[201~s", "q", "Q\u{1B}[201~j"]) == [.paste("zz\u{1B}[201~sqQ"), .character("j")])
        #expect(Self.decode(["\u{1B}[200~a\u{1B}[201~s", "\u{1B}[200~b\u{1B}[201~"]) == [.paste("a\u{1B}[201~s\u{1B}[200~b")])
        #expect(Self.decode(["\u{1B}[200~a\u{1B}[201~s", "\u{1B}[200~b", "\u{1B}[201~"]) == [.paste("a\u{1B}[201~s\u{1B}[200~b")])
        #expect(Self.decode(["\u{1B}[200~a\u{1B}[201~", "s\u{1B}[201~"]) == [.paste("a"), .character("s")])

        var decoder = InputDecoder()
        decoder.feed("\u{1B}[200~zz\u{1B}[201~:quit\r".unicodeScalars)
        #expect(decoder.decode() == [])
        #expect(decoder.holdsEndMarker && decoder.needsMore)
        #expect(decoder.takePasteSoFar() == [.paste("zz")])
        decoder.feed(" more".unicodeScalars)
        #expect(decoder.decode() == [])
        decoder.feed("\u{1B}[201~".unicodeScalars)
        #expect(decoder.decode() == [.paste("\u{1B}[201~:quit\r more")])
        #expect(!decoder.needsMore)

        // Nothing after: the held marker was the end (after a piece handed over, no empty paste).
        var ended = InputDecoder()
        ended.feed("\u{1B}[200~ab\u{1B}[201~jk".unicodeScalars)
        #expect(ended.decode() == [])
        #expect(ended.takePasteSoFar() == [.paste("ab")])
        #expect(ended.flush() == [.character("j"), .character("k")])
        #expect(!ended.needsMore)

        // More text behind it than anyone types at once: paste text, without waiting.
        var long = InputDecoder()
        let tail = String(repeating: "x", count: InputDecoder.heldTextLimit + 1)
        long.feed(("\u{1B}[200~a\u{1B}[201~" + tail).unicodeScalars)
        #expect(long.decode() == [])
        #expect(!long.holdsEndMarker && long.isInPaste)
        long.feed("\u{1B}[201~".unicodeScalars)
        #expect(long.decode() == [.paste("a\u{1B}[201~" + tail)])
    }

    /// Issue 57: a paste that pauses is handed over in pieces, each a paste: what follows a pause,
    /// up to the end marker, is still its text (the `Q` and the line break are not keys), and the
    /// pieces together keep to `pasteLimit`.
    @Test func aPasteThatPausesStaysAPasteToItsEndMarker() {
        var decoder = InputDecoder()
        decoder.feed("\u{1B}[200~first part ".unicodeScalars)
        #expect(decoder.decode() == [])
        #expect(decoder.isInPaste)
        #expect(decoder.takePasteSoFar() == [.paste("first part ")])
        #expect(decoder.takePasteSoFar() == [])  // nothing new since
        decoder.feed("Q\rj".unicodeScalars)
        #expect(decoder.decode() == [])
        #expect(decoder.takePasteSoFar() == [.paste("Q\rj")])
        decoder.feed(" end\u{1B}[201~k".unicodeScalars)
        // The `k` came in the end marker's read: held until the wait for more is over.
        #expect(decoder.decode() == [])
        #expect(decoder.holdsEndMarker)
        #expect(decoder.flush() == [.paste(" end"), .character("k")])
        #expect(!decoder.isInPaste)

        // The limit counts every piece: a paste of pasteLimit + 5 characters in two pieces keeps pasteLimit.
        var big = InputDecoder()
        big.feed(("\u{1B}[200~" + String(repeating: "a", count: InputDecoder.pasteLimit - 3)).unicodeScalars)
        _ = big.decode()
        let first = big.takePasteSoFar()
        big.feed(("bbbbbbbb" + "\u{1B}[201~").unicodeScalars)
        let second = big.decode()
        #expect(first == [.paste(String(repeating: "a", count: InputDecoder.pasteLimit - 3))])
        #expect(second == [.paste("bbb")])
    }
}

/// Issue 55.4: focus reports (mode 1004) among keys and split across reads are events of their
/// own, and whatever mode has the keys, they mean a change of focus (never a key typed).
@Suite struct FocusReportTests {
    @Test func focusReportsAmongKeysAndSplitAcrossReads() {
        #expect(InputDecoderTests.decode(["j\u{1B}[Ok\u{1B}[I"]) == [.character("j"), .focusOut, .character("k"), .focusIn])
        #expect(InputDecoderTests.decode(["\u{1B}[", "O", "\u{1B}[", "I"]) == [.focusOut, .focusIn])
        // SS3 O is no focus report: Esc, then the letters.
        #expect(InputDecoderTests.decode(["\u{1B}OO"]) == [.escape, .character("O"), .character("O")])
    }

    @Test func everyModeTakesThemAsAChangeOfFocus() {
        var state = AppState(sceneID: "f", columns: 80, rows: 24)
        #expect(KeyMap.action(for: .focusIn, in: state) == .focusChanged(true))
        #expect(KeyMap.action(for: .focusOut, in: state) == .focusChanged(false))
        state.isSearching = true
        #expect(KeyMap.action(for: .focusOut, in: state) == .focusChanged(false))
        state.isSearching = false
        state.editor = NotesDraft(code: "q1", text: "typing", cursor: 6)
        state.detailPresented = true
        state.detailTab = .notes
        #expect(state.isEditing)
        #expect(KeyMap.action(for: .focusIn, in: state) == .focusChanged(true))
    }
}
