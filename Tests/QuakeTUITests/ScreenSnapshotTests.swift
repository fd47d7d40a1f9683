import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeModel
import QuakeStore

@Suite struct ScreenSnapshotTests {
    @Test func listWithDaySections() {
        assertSnapshot(Screen.render(Fixtures.model()), named: "list-day-sections")
    }

    @Test func listWithMagnitudeSections() {
        let model = Fixtures.model(lines: Fixtures.magnitudeLines(), selected: 3, sort: .magnitude)
        assertSnapshot(Screen.render(model), named: "list-magnitude-sections")
    }

    @Test func collapsedSection() {
        assertSnapshot(Screen.render(Fixtures.model(lines: Fixtures.dayLines(collapsedYesterday: true), selected: 4)),
                       named: "list-collapsed-section")
    }

    @Test func selectionIsOnTheSelectedLineOnly() {
        let buffer = Screen.render(Fixtures.model(selected: 2))
        let row = ScreenLayout(Fixtures.model(selected: 2)).list!.y + 2
        #expect((0..<buffer.width).allSatisfy { buffer[$0, row].style.background == .selection })
        #expect((0..<buffer.width).allSatisfy { buffer[$0, row + 1].style.background != .selection })
    }

    @Test(arguments: DetailTab.allCases)
    func detailTabsNarrow(tab: DetailTab) {
        let model = Fixtures.model(detail: DetailModel(tab: tab, record: Fixtures.record,
                                                       notes: NotesEditor(text: "Felt strongly in Taipei.")))
        assertSnapshot(Screen.render(model), named: "detail-\(tab.rawValue)-80x24")
    }

    @Test func notesEditorWithCursor() {
        let text = "Felt strongly in Taipei. Aftershocks\nthrough the night; check the USGS page tomorrow for the finite fault."
        let notes = NotesEditor(text: text, cursor: 10, isEditing: true, isDirty: true)
        let model = Fixtures.model(detail: DetailModel(tab: .notes, record: Fixtures.record, notes: notes))
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "notes-editing")
        let cursorCells = buffer.cells.filter { $0.style.attributes.contains(.reverse) && $0.style.foreground == nil }
        #expect(cursorCells.map(\.grapheme) == ["g"])
    }

    @Test func helpOverlay() {
        var model = Fixtures.model()
        model.showsHelp = true
        assertSnapshot(Screen.render(model), named: "help-overlay")
    }

    @Test func wideLayoutSideBySide() {
        let model = Fixtures.model(columns: 160, rows: 40,
                                   detail: DetailModel(tab: .map, record: Fixtures.record))
        assertSnapshot(Screen.render(model), named: "wide-160x40-map")
    }

    @Test func wideLayoutDetail() {
        let model = Fixtures.model(columns: 160, rows: 40,
                                   detail: DetailModel(tab: .detail, record: Fixtures.record))
        assertSnapshot(Screen.render(model), named: "wide-160x40-detail")
    }

    @Test func minimumSize() {
        assertSnapshot(Screen.render(Fixtures.model(columns: 40, rows: 10)), named: "minimum-40x10")
    }

    @Test func tooSmall() {
        assertSnapshot(Screen.render(Fixtures.model(columns: 39, rows: 9)), named: "too-small-39x9")
        // Narrower than the sentence: the sizes on lines of their own, whole.
        let narrow = Screen.render(Fixtures.model(columns: 20, rows: 5)).text
        #expect(narrow.contains("need 40×10") && narrow.contains("now 20×5"), "\(narrow)")
    }

    @Test func veryWideTerminal() {
        assertSnapshot(Screen.render(Fixtures.model(columns: 250, rows: 12)), named: "list-250x12")
    }

    @Test func hostilePlaceNames() {
        let hostile = [
            QuakeLine(code: "evil1", magnitude: 4, place: "Evil\u{1B}]0;pwned\u{07} Place", time: Fixtures.now),
            QuakeLine(code: "evil2", magnitude: 4, place: "\u{1B}[2J\u{1B}[1;1HCleared\u{1B}[31m red", time: Fixtures.now),
            QuakeLine(code: "evil3", magnitude: 4, place: "bidi \u{202E}desrever\u{9B}31m tab\there", time: Fixtures.now),
        ]
        var model = Fixtures.model(lines: hostile.map { .quake($0) }, selected: nil)
        model.header.searchText = "\u{1B}]52;c;ZXZpbA==\u{07}x"
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "hostile-place-names")
        for cell in buffer.cells {
            #expect(!cell.grapheme.unicodeScalars.contains { SafeText.isUnsafe($0) })
        }
    }
}

@Suite struct WideCharacterSnapshotTests {
    @Test func wideCharactersStayInTheirColumns() {
        let places = ["東京都の南東 20 km", "🌋 Kīlauea summit", "서울 남쪽 15km", "Tokyo (plain ASCII)",
                      "👩‍💻🇯🇵 flags and ZWJ", "e\u{301}ve\u{301}nement combining", "東京東京東京東京東京東京東京東京東京東京東京東京"]
        let lines = places.enumerated().map { index, place in
            ListLine.quake(QuakeLine(code: "wide\(index)", magnitude: 4.2, place: place,
                                     time: Fixtures.now - Int64(index) * Fixtures.hour))
        }
        for columns in [80, 41] {
            let buffer = Screen.render(Fixtures.model(columns: columns, rows: 12, lines: lines, selected: nil))
            assertSnapshot(buffer, named: "wide-characters-\(columns)")
            // The relative-time column ends at the same column on every row.
            for row in 1...places.count {
                let line = buffer.line(row)
                let width = TextWidth.of(line)
                #expect(width == columns)
                #expect(line.trimmingSuffixSpaces.hasSuffix("ago") || line.trimmingSuffixSpaces.hasSuffix("now"))
                let end = TextWidth.of(line.trimmingSuffixSpaces)
                #expect(end == TextWidth.of(buffer.line(1).trimmingSuffixSpaces), "row \(row) at \(columns) columns")
            }
        }
    }
}

extension String {
    var trimmingSuffixSpaces: String {
        var copy = Substring(self)
        while copy.last == " " { copy = copy.dropLast() }
        return String(copy)
    }
}

@Suite struct MoreScreenSnapshotTests {
    @Test func emptyList() {
        var model = Fixtures.model(lines: [], selected: nil)
        model.header.count = 0
        model.header.searchText = "atlantis"
        model.list.emptyMessage = "No quakes match “atlantis”. Esc clears the search."
        assertSnapshot(Screen.render(model), named: "list-empty")
    }

    @Test func detailWhileLoading() {
        assertSnapshot(Screen.render(Fixtures.model(detail: DetailModel(record: nil))), named: "detail-loading")
    }

    @Test func detailInLocalTimeAndMiles() {
        var model = Fixtures.model(detail: DetailModel(record: Fixtures.record))
        model.display.timeZone = .local
        model.display.distanceUnit = .mi
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "detail-local-miles")
        #expect(buffer.text.contains("2024-05-06 19:00:00 GMT+9"))
        #expect(buffer.text.contains("7.6 mi"))
    }

    @Test func scrolledListShowsAThumb() {
        var model = Fixtures.model(columns: 60, rows: 10)
        model.list.firstLineIndex = 40
        model.list.totalLines = 100
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "list-scrolled-60x10")
        // 40 of 100 lines scrolled past, 8 rows: the thumb (1 row) sits at row 3 of the list.
        #expect((1...8).filter { buffer.line($0).hasSuffix("┃") } == [4])
    }
}

@Suite struct HelpOverlaySizeTests {
    @Test(arguments: [(40, 10), (60, 20)])
    func helpOnSmallTerminals(columns: Int, rows: Int) {
        var model = Fixtures.model(columns: columns, rows: rows)
        model.showsHelp = true
        assertSnapshot(Screen.render(model), named: "help-overlay-\(columns)x\(rows)")
    }
}

@Suite struct HelpScrollTests {
    @Test func helpScrollsWhenItDoesNotFit() {
        let size = Size(columns: 40, rows: 10)
        #expect(Screen.maximumHelpOffset(for: size) == HelpOverlay.rows(in: Rect(size)).count - 6)  // 8 body rows less the border
        #expect(HelpOverlay.rows(in: Rect(size)).count > HelpOverlay.lines.count, "lines wrap at 40 columns")
        #expect(Screen.maximumHelpOffset(for: Size(columns: 100, rows: 60)) == 0)
        var model = Fixtures.model(columns: 40, rows: 10)
        model.showsHelp = true
        model.helpOffset = 1_000  // clamped to the last page
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "help-overlay-40x10-scrolled")
        #expect(buffer.text.contains("failed, L says"))  // the last page: the legend's end, wrapped
    }

    /// The box is as tall as the rows its lines wrap to, so the help scrolls only when the box
    /// already takes the body's whole height (at 80×60 it said `↓ more` over empty rows of the
    /// list: its height counted lines, not wrapped rows).
    @Test(arguments: [(80, 60), (100, 60), (150, 40), (200, 80), (80, 24), (60, 15)])
    func helpScrollsOnlyWhenTheBoxFillsTheBody(columns: Int, rows: Int) {
        let size = Size(columns: columns, rows: rows)
        let box = HelpOverlay.box(in: Rect(size)), body = ScreenLayout.body(of: Rect(size))
        #expect(Screen.maximumHelpOffset(for: size) == 0 || box.height == body.height, "\(box) in \(body)")
        #expect(box.height <= body.height)
    }
}

/// Columns that follow the pane's width (issue 15): depth before the date, the time of day under
/// day sections, code and epicentre when there is room, and no stray `…` for tabs and newlines.
@Suite struct ResponsiveColumnsTests {
    @Test(arguments: [60, 80, 120, 200, 250])
    func listAtWidth(_ columns: Int) {
        assertSnapshot(Screen.render(Fixtures.model(columns: columns, rows: 10)), named: "list-columns-\(columns)")
    }

    @Test func magnitudeSortShowsTheDate() {
        let model = Fixtures.model(columns: 120, rows: 10, lines: Fixtures.magnitudeLines(), selected: 3, sort: .magnitude)
        let text = Screen.render(model).text
        #expect(text.contains("2024-05-06 10:00"), "\(text)")
    }

    @Test func tabsAndNewlinesInAPlaceAreSpacesWithoutAnEllipsis() {
        let lines: [ListLine] = [
            .section(SectionLine(id: "2024-05-06", title: "Monday,\t6 May\n2024", count: 2)),
            .quake(QuakeLine(code: "t1", magnitude: nil, place: "12 km\tSW of\nSuárez, Colombia", time: Fixtures.now)),
            .quake(QuakeLine(code: "t2", magnitude: 3, place: "line\r\nbreak", time: Fixtures.now)),
        ]
        let text = Screen.render(Fixtures.model(columns: 100, rows: 10, lines: lines, selected: 1)).text
        #expect(text.contains("—        12 km SW of Suárez, Colombia "), "\(text)")  // the magnitude, the type and mark cells, the place
        #expect(text.contains("line  break "), "\(text)")
        #expect(text.contains("Monday, 6 May 2024 (2)"), "\(text)")
        #expect(!text.contains("…"), "\(text)")
    }
}

/// Long detail values wrap under their label instead of being cut (issue 15).
@Suite struct DetailWrapTests {
    @Test func aLongTitleAndURLWrapWhole() {
        var record = Fixtures.record
        record.title = "M 6.4 - 45 km SSE of Hualien City, Taiwan, felt widely across the island and in Taipei"
        record.url = "https://earthquake.usgs.gov/earthquakes/eventpage/us7000m1a1/executive?view=full"
        let model = Fixtures.model(columns: 60, rows: 30, detail: DetailModel(tab: .detail, record: record,
                                                                             notes: NotesEditor(text: "")))
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "detail-wrapped-60x30")
        let joined = buffer.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        #expect(joined.contains("us7000m1a1/executive?view=full"), "the URL is there whole")
        #expect(!buffer.text.contains("…"), "nothing is cut")
    }
}
