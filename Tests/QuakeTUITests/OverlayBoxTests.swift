import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// The help (`?`) and the message log (`L`) are clean boxes (issue 31): between the header line
/// and the status line, which stay as they were, and either the body's whole width (height) or
/// centred with a clear margin of the list around them, never a sliver of it beside or below.
@Suite struct OverlayBoxTests {
    static let sizes = [(80, 24), (150, 40), (40, 10), (60, 15)]

    static let entries = (0..<40).map { index in
        MessageLog.Entry(time: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)),
                         text: "Message \(index): the refresh of all_day failed (connection refused).", isError: index % 2 == 0)
    }

    enum Overlay: CaseIterable { case help, log }

    static func model(_ overlay: Overlay?, columns: Int, rows: Int) -> ScreenModel {
        var model = Fixtures.model(columns: columns, rows: rows)
        switch overlay {
        case .help?: model.showsHelp = true
        case .log?: model.messageLog = entries
        case nil: break
        }
        return model
    }

    /// The box drawn: from its top-left `╭` to its bottom-right `╯`.
    static func box(in buffer: CellBuffer) -> Rect? {
        var corners: [Point] = []
        for y in 0..<buffer.height {
            for x in 0..<buffer.width where buffer[x, y].grapheme == "╭" || buffer[x, y].grapheme == "╯" {
                corners.append(Point(x: x, y: y))
            }
        }
        guard corners.count == 2 else { return nil }
        return Rect(x: corners[0].x, y: corners[0].y, width: corners[1].x - corners[0].x + 1,
                    height: corners[1].y - corners[0].y + 1)
    }

    @Test(arguments: sizes)
    func overlaysKeepTheHeaderAndStatusLinesAndLeaveNoSliverOfTheList(columns: Int, rows: Int) throws {
        let plain = Screen.render(Self.model(nil, columns: columns, rows: rows))
        for overlay in Overlay.allCases {
            let model = Self.model(overlay, columns: columns, rows: rows)
            let frame = Screen.render(model)
            let box = try #require(Self.box(in: frame), "\(overlay) at \(columns)×\(rows):\n\(frame.text)")
            // The header line is untouched; the status line is the overlay's own (its keys).
            #expect(frame.line(0) == plain.line(0), "\(overlay) at \(columns)×\(rows)")
            #expect(box.y == 1 || box.y >= 1 + 2, "\(overlay) at \(columns)×\(rows): \(box)")
            #expect(box.maxY == rows - 1 || box.maxY <= rows - 1 - 2, "\(overlay) at \(columns)×\(rows): \(box)")
            #expect(box.x == 0 || box.x >= 6, "\(overlay) at \(columns)×\(rows): \(box)")
            #expect(box.maxX == columns || box.maxX <= columns - 6, "\(overlay) at \(columns)×\(rows): \(box)")
            #expect(frame.line(rows - 1) == plain.line(rows - 1) || frame.line(rows - 1).contains("Esc close"),
                    "\(overlay) at \(columns)×\(rows): \(frame.line(rows - 1))")
            // Outside the box the list is drawn as it was.
            for y in 1..<(rows - 1) {
                for x in 0..<columns where !box.contains(Point(x: x, y: y)) {
                    #expect(frame[x, y] == plain[x, y], "\(overlay) at \(columns)×\(rows): (\(x), \(y))")
                }
            }
        }
    }

    @Test func theHelpAt150x40IsACentredBox() {
        assertSnapshot(Screen.render(Self.model(.help, columns: 150, rows: 40)), named: "help-overlay-150x40")
    }

    @Test(arguments: [(80, 24), (150, 40), (40, 10)])
    func theMessageLogIsTheWholeBody(columns: Int, rows: Int) {
        let model = Self.model(.log, columns: columns, rows: rows)
        assertSnapshot(Screen.render(model), named: "message-log-\(columns)x\(rows)")
    }
}
