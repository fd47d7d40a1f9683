import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Issue 15's navigation: `j`/`k` skip expanded section headers, `g`/`G`/`Home`/`End` select the
/// first and last quake, `ctrl-d`/`ctrl-u` move half a page, `[`/`]` jump between sections, and
/// the first list line shows the top row's section header once it has scrolled away.
@Suite struct NavigationTests {
    /// 3 days × 5 quakes (BrowserModelTests' quakes): lines 0 H, 1–5, 6 H, 7–11, 12 H, 13–17.
    static func model(_ source: ModelStore, rows: Int = 12) throws -> BrowserModel {
        let model = try BrowserModelTests.makeModel(source, rows: rows)
        try model.restore(selectedCode: nil, topCode: nil)
        return model
    }

    @Test func jAndKSkipExpandedHeadersButStopOnCollapsedOnes() throws {
        let source = BrowserModelTests.makeSource()
        defer { source.close() }
        let model = try Self.model(source, rows: 40)
        defer { model.close() }
        for _ in 0..<4 { try model.send(.moveDown) }
        #expect(model.state.cursorLine == 5)
        try model.send(.moveDown)
        #expect(model.state.cursorLine == 7, "the header on line 6 is skipped")
        try model.send(.moveUp)
        #expect(model.state.cursorLine == 5)
        // Collapse the second day: its header is a stop, and space expands it again.
        try model.send(.moveDown)
        try model.send(.toggleSection)
        #expect(model.state.cursorLine == 6 && model.state.selectedSection != nil)
        try model.send(.moveDown)
        #expect(model.state.cursorLine == 8, "past the collapsed section to the next day's first quake")
        try model.send(.moveUp)
        #expect(model.state.cursorLine == 6, "the collapsed header is selectable")
        try model.send(.toggleSection)
        #expect(model.layout.lineCount == 18 && model.state.cursorLine == 6)
        try model.send(.moveDown)
        #expect(model.state.cursorLine == 7)
        // k never leaves the first quake for the header above it.
        try model.send(.first)
        try model.send(.moveUp)
        #expect(model.state.cursorLine == 1)
    }

    @Test func firstLastHalfPagesAndSectionJumps() throws {
        let source = BrowserModelTests.makeSource()
        defer { source.close() }
        let model = try Self.model(source, rows: 12)
        defer { model.close() }
        let half = model.listHeight / 2
        try model.send(.halfPageDown)
        #expect(model.state.cursorLine == 1 + half || model.state.cursorLine == 2 + half)
        #expect(model.state.isSelectable(model.state.cursorLine))
        try model.send(.last)
        #expect(model.state.selectedCode == "q00" && model.state.cursorLine == 17)
        try model.send(.first)
        #expect(model.state.selectedCode == "q24" && model.state.cursorLine == 1)
        try model.send(.nextSection)
        #expect(model.state.cursorLine == 7 && model.state.selectedCode == "q14")
        try model.send(.nextSection)
        #expect(model.state.cursorLine == 13)
        try model.send(.nextSection)
        #expect(model.state.cursorLine == 13, "no section after the last")
        try model.send(.moveDown)
        try model.send(.previousSection)
        #expect(model.state.cursorLine == 13, "[ first goes to the start of this section")
        try model.send(.previousSection)
        #expect(model.state.cursorLine == 7)
        #expect(model.state.topLine <= 6, "the section's header is on screen")
    }

    @Test func theTopRowsSectionHeaderSticksToTheFirstLine() throws {
        let source = BrowserModelTests.makeSource()
        defer { source.close() }
        let model = try Self.model(source, rows: 12)
        defer { model.close() }
        let context = FrameContext(now: 1_700_300_000_000, isLive: true, localTimeZone: TimeZone(identifier: "UTC")!)
        try model.send(.scroll(lines: 2))
        #expect(model.state.topLine == 2)
        let frame = try model.screenModel(context)
        guard case .section(let sticky) = frame.list.lines[0] else {
            Issue.record("the first line is not the sticky header: \(frame.list.lines[0])")
            return
        }
        #expect(sticky.id == model.results.sections[0].id)
        #expect(frame.list.stickyHeaderLine == 0)
        #expect(model.state.cursorLine >= 3, "the cursor is never under the sticky header")
        // Moving up to the top visible quake scrolls one more line so it is not covered.
        for _ in 0..<5 { try model.send(.moveUp) }
        #expect(model.state.cursorLine == 1 && model.state.topLine == 0)
        // A click on the sticky header selects that header.
        try model.send(.scroll(lines: 3))
        let scrolled = try model.screenModel(context)
        #expect(KeyMap.action(forClickAt: 2, 1, in: scrolled) == .selectLine(0))
    }
}
