import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

@Suite struct TextWidthTests {
    @Test(arguments: [
        ("a", 1), ("é", 1), ("e\u{301}", 1), ("東", 2), ("🌋", 2), ("❤️", 2), ("👩‍💻", 2), ("🇯🇵", 2),
        ("1\u{FE0F}\u{20E3}", 2), ("#\u{FE0F}\u{20E3}", 2), ("\r\n", 0), ("\t", 0), ("\u{7F}", 0),
        ("\u{200B}", 0), ("한", 2), ("ｱ", 1), ("Ａ", 2), ("…", 1), ("─", 1), ("⣿", 1),
    ] as [(String, Int)])
    func graphemeWidths(text: String, width: Int) {
        #expect(TextWidth.of(Character(text)) == width)
    }

    @Test func stringWidthAddsGraphemes() {
        #expect(TextWidth.of("東京 Tokyo 🌋") == 2 + 2 + 1 + 5 + 1 + 2)
    }

    /// The ASCII shortcuts (a byte a column, no cluster breaking) give what the graphemes give.
    @Test func asciiShortcutsAgreeWithTheGraphemes() {
        let every = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        var generator = SystemRandomNumberGenerator()
        let texts = [every, "a\r\nb", "12 km SSE of Anza, CA", "M 4.5 - 1\u{FE0F}\u{20E3} x"]
            + (0..<200).map { _ in String(decoding: (0..<20).map { _ in UInt8.random(in: 0..<128, using: &generator) }, as: UTF8.self) }
        for text in texts {
            #expect(TextWidth.of(text) == text.reduce(0) { $0 + TextWidth.of($1) }, "\(Array(text.utf8))")
            for character in text where character.isASCII {
                #expect(TextWidth.of(character) == character.unicodeScalars.map(TextWidth.of).max()!)
            }
        }
    }

    @Test(arguments: [
        ("Hualien City", 20, "Hualien City"),
        ("Hualien City", 8, "Hualien…"),
        ("東京都の南東", 5, "東京…"),
        ("東京都の南東", 6, "東京…"),
        ("a東京", 3, "a…"),
        ("abc", 1, "…"),
        ("abc", 0, ""),
    ] as [(String, Int, String)])
    func truncationEndsInEllipsisAndNeverSplitsWideCharacters(text: String, width: Int, expected: String) {
        let cut = TextWidth.truncate(text, to: width)
        #expect(cut == expected)
        #expect(TextWidth.of(cut) <= width)
    }

    @Test func paddingReachesTheExactWidth() {
        #expect(TextWidth.pad("東京", to: 6) == "東京  ")
        #expect(TextWidth.pad("4.5", to: 5, alignRight: true) == "  4.5")
        #expect(TextWidth.of(TextWidth.pad("東京都の南東", to: 5)) == 5)
    }
}

@Suite struct CellBufferTests {
    @Test func wideCharactersTakeTwoCellsAndAlign() {
        var buffer = CellBuffer(width: 10, height: 2)
        buffer.put("東京|", at: Point(x: 0, y: 0))
        buffer.put("Tokyo|", at: Point(x: 0, y: 1))
        #expect(buffer.lines == ["東京|     ", "Tokyo|    "])
        #expect(buffer[0, 0].width == 2 && buffer[1, 0].isContinuation)
    }

    @Test func aWideCharacterIsNeverSplitAtTheRightEdge() {
        var buffer = CellBuffer(width: 5, height: 1)
        let written = buffer.put("ab東京", at: Point(x: 0, y: 0), ellipsis: false)
        #expect(buffer.lines == ["ab東 "])
        #expect(written == 5)
        #expect(!buffer[4, 0].isContinuation)
    }

    @Test func maxWidthClipsWithAnEllipsis() {
        var buffer = CellBuffer(width: 12, height: 1)
        buffer.put("Kermadec Islands", at: Point(x: 1, y: 0), maxWidth: 8)
        #expect(buffer.lines == [" Kermade…   "])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.put("東京", at: Point(x: 0, y: 0))
        buffer.put("x", at: Point(x: 1, y: 0))
        #expect(buffer.lines == [" x京  "])
        buffer.put("y", at: Point(x: 2, y: 0))
        #expect(buffer.lines == [" xy   "])
        #expect(buffer.cells.allSatisfy { !$0.isContinuation })
    }

    @Test func escapeSequencesNeverReachACell() {
        var buffer = CellBuffer(width: 20, height: 1)
        buffer.put("A\u{1B}[31mB\u{1B}]0;t\u{07}C\u{0}", at: Point(x: 0, y: 0))
        #expect(buffer.text == "ABC")
    }

    @Test func combiningMarksStayWithTheirBase() {
        var buffer = CellBuffer(width: 4, height: 1)
        buffer.put("e\u{301}x", at: Point(x: 0, y: 0))
        #expect(buffer[0, 0].grapheme == "e\u{301}")
        #expect(buffer[1, 0].grapheme == "x")
    }

    @Test func writesOutsideTheBufferAreIgnored() {
        var buffer = CellBuffer(width: 3, height: 1)
        #expect(buffer.put("x", at: Point(x: 5, y: 0)) == 0)
        #expect(buffer.put("x", at: Point(x: 0, y: 3)) == 0)
        buffer.fill(Rect(x: -2, y: -2, width: 10, height: 10), with: "#")
        #expect(buffer.text == "###")
    }
}
