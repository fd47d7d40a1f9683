import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// Issue 31: the one-cell mark after a row's magnitude (tsunami flag, PAGER alert level, an
/// event that is not an earthquake), its colours through the palette's fallbacks, and its
/// legend in `?`.
@Suite struct QuakeMarkTests {
    static func line(_ code: String, magnitude: Double?, place: String, depth: Double?, hours: Int64,
                     tsunami: Bool = false, alert: String? = nil, type: String? = nil) -> QuakeLine {
        var line = QuakeLine(code: code, magnitude: magnitude, place: place, time: Fixtures.now - hours * Fixtures.hour,
                             depth: depth, latitude: 0, longitude: 0)
        (line.tsunami, line.alert, line.eventType) = (tsunami, alert, type)
        return line
    }

    /// A depth-sorted list with one quake of every kind of mark, and one without any.
    static let lines: [ListLine] = [
        .section(SectionLine(id: "depth-0", title: "0–10 km deep", count: 4)),
        .quake(line("uu0001", magnitude: 2.1, place: "Quarry near Coalinga, CA", depth: 0, hours: 1, type: "quarry blast")),
        .quake(line("uu0002", magnitude: 3.4, place: "Test site, Nevada", depth: 1, hours: 2, type: "Explosion")),
        .quake(line("uu0003", magnitude: 1.2, place: "Glacier, Alaska", depth: 2, hours: 3, type: "ice quake")),
        .quake(line("uu0004", magnitude: 4.4, place: "12 km N of Ridgecrest, CA", depth: 8, hours: 4, type: "earthquake")),
        .section(SectionLine(id: "depth-10", title: "10–20 km deep", count: 4)),
        .quake(line("us0005", magnitude: 7.8, place: "Off the coast of Chile", depth: 12, hours: 5, tsunami: true, alert: "red")),
        .quake(line("us0006", magnitude: 6.1, place: "Hindu Kush, Afghanistan", depth: 15, hours: 6, alert: "orange")),
        .quake(line("us0007", magnitude: 5.6, place: "Southern Iran", depth: 16, hours: 7, alert: "Yellow")),
        .quake(line("us0008", magnitude: 5.2, place: "Fiji region", depth: 18, hours: 8, tsunami: true)),
        .section(SectionLine(id: "depth-100", title: "100–200 km deep", count: 2)),
        .quake(line("us0009", magnitude: 4.9, place: "Tonga", depth: 150, hours: 9, alert: "green")),
        .quake(line("us0010", magnitude: 4.8, place: "Vanuatu", depth: 180, hours: 10, alert: "purple")),
    ]

    static func model(columns: Int = 80) -> ScreenModel {
        var model = Fixtures.model(columns: columns, rows: 16, lines: lines, selected: 1, sort: .depth)
        model.header.ascending = true
        return model
    }

    @Test(arguments: [80, 60])
    func theMarkColumnShowsEachKindOfMark(columns: Int) {
        let buffer = Screen.render(Self.model(columns: columns))
        assertSnapshot(buffer, named: "list-marks-\(columns)")
        if columns == 80 { assertStyleSnapshot(buffer, named: "list-marks-80") }
    }

    @Test func theMarkCellIsAfterTheMagnitudeOnEveryRow() {
        let buffer = Screen.render(Self.model())
        let layout = ScreenLayout(size: buffer.size, detailPresented: false)
        let list = layout.list!
        // `●`, the magnitude (5), a space, the mark.
        let x = list.x + 1 + 5 + 1
        let quakeRows = Self.lines.indices.filter { if case .quake = Self.lines[$0] { true } else { false } }
        let marks = quakeRows.map { buffer[x, list.y + $0].grapheme }
        #expect(marks == ["q", "x", "i", " ", "~", "!", "!", "~", "!", "!"])
        let styles = quakeRows.map { buffer[x, list.y + $0].style.foreground }
        #expect(styles == [nil, nil, nil, nil, .alert(.red), .alert(.orange), .alert(.yellow), .accent, .alert(.green),
                           nil /* a level PAGER does not have */])
    }

    @Test(arguments: [
        (false, nil, nil, nil), (false, nil, "earthquake", nil), (false, nil, "Earthquake", nil), (false, "", nil, nil),
        (true, nil, nil, "~"), (true, "red", "explosion", "~"), (false, "green", "quarry blast", "q"),
        (false, nil, "nuclear explosion", "x"), (false, nil, "mining explosion", "x"), (false, nil, "landslide", "l"),
        (false, nil, "other event", "o"), (false, nil, "  Ice Quake ", "i"), (false, nil, "1 test", "*"),
        (false, "orange", "earthquake", "!"), (false, "ORANGE", nil, "!"), (false, "purple", nil, "!"),
    ] as [(Bool, String?, String?, Character?)])
    func oneGlyphForTheRarestNews(tsunami: Bool, alert: String?, type: String?, glyph: Character?) {
        #expect(QuakeMark(tsunami: tsunami, alert: alert, type: type)?.glyph == glyph)
    }

    @Test func anAlertLevelColoursWhicheverGlyphIsShown() {
        #expect(QuakeMark(tsunami: true, alert: "red", type: nil)?.style == .role(.alert(.red), [.bold]))
        #expect(QuakeMark(tsunami: false, alert: "Green", type: "quarry blast")?.style == .role(.alert(.green), [.bold]))
        #expect(QuakeMark(tsunami: true, alert: nil, type: nil)?.style == .role(.accent, [.bold]))
        #expect(QuakeMark(tsunami: false, alert: "purple", type: nil)?.style == .plain)
    }

    @Test func alertLevelsResolveOnEveryDepthAndStayApartWithoutColour() {
        let levels = AlertLevel.allCases.map { Style.role(.alert($0)) }
        #expect(levels.map { Palette.resolve($0, depth: .full256).foreground } == [34, 226, 208, 196])
        #expect(levels.map { Palette.resolve($0, depth: .sixteen).foreground } == [10, 11, 3, 9])
        // Eight colours have no orange: the yellow, bold.
        #expect(levels.map { Palette.resolve($0, depth: .eight) } == [
            ResolvedStyle(foreground: 2), ResolvedStyle(foreground: 3), ResolvedStyle(foreground: 3, attributes: [.bold]),
            ResolvedStyle(foreground: 1),
        ])
        for depth in [ColorDepth.monochrome, .noColor] {
            let resolved = levels.map { Palette.resolve($0, depth: depth) }
            #expect(resolved.map(\.attributes) == [[], [.underline], [.bold], [.bold, .underline]], "\(depth)")
            #expect(Set(resolved).count == 4)
        }
    }

    @Test func helpExplainsEveryMark() {
        var model = Fixtures.model(columns: 80, rows: 60)
        model.showsHelp = true
        let buffer = Screen.render(model)
        // The legend, on the help's first page or its last: at 80x60 the box is as tall as its
        // wrapped rows and holds them all, but more keys may make it scroll.
        var end = model
        end.helpOffset = 1_000  // clamped to the last page
        let text = buffer.text + Screen.render(end).text
        #expect(text.contains("Marks after the magnitude"))
        for line in QuakeMark.legendLines {
            #expect(text.contains(line.meaning), "\(line.meaning)")
        }
        for line in QuakeMark.otherLegend {
            #expect(text.contains(line.meaning), "\(line.meaning)")
        }
        assertSnapshot(buffer, named: "help-overlay-marks-80x60")
        assertStyleSnapshot(buffer, named: "help-overlay-marks-80x60")
    }
}
