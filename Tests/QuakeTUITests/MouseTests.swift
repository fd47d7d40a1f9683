import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// The mouse on the model (SPEC §8): the wheel scrolls the view and drags the selection along
/// at the edges, at the top, middle and bottom of the list; a click anywhere on a wide terminal.
@Suite struct MouseTests {
    /// A model on the walks' quakes (`RestoreWalkTests.records()`), in a real store.
    static func model(columns: Int = 150, rows: Int = 40) throws -> BrowserModel {
        let model = try BrowserModel(state: AppState(sceneID: "t", settings: AppSettings(timeZone: .utc)),
                                     source: ModelStore(RestoreWalkTests.records()))
        try model.restore(AppState.RestoredSelection(), size: Size(columns: columns, rows: rows))
        return model
    }

    static func wheel(_ model: BrowserModel, down: Bool, at y: Int = 10) throws {
        let key: Key = down ? .wheelDown(x: 20, y: y) : .wheelUp(x: 20, y: y)
        try model.send(try #require(KeyMap.action(for: key, in: model.state)))
    }

    @Test func theWheelScrollsTheViewAndDragsTheSelectionAtTheTopEdge() throws {
        let model = try Self.model()
        defer { model.close() }
        #expect(model.state.cursorLine == 1 && model.state.topLine == 0)
        // Top of the list, wheel down: the view moves 3 lines, the selection is dragged along
        // on the first line of the list (the second, below the sticky header, when the top line
        // is a quake).
        for notch in 1...20 {
            try Self.wheel(model, down: true)
            #expect(model.state.topLine == 3 * notch, "notch \(notch)")
            #expect(model.state.cursorLine == 3 * notch + (model.state.stickySection != nil ? 1 : 0), "notch \(notch)")
        }
        #expect(model.state.selectedCode != nil)
    }

    @Test func inTheMiddleTheSelectionStaysPutUntilTheEdgeReachesIt() throws {
        let model = try Self.model()
        defer { model.close() }
        for _ in 0..<60 { try model.send(.moveDown) }
        let (cursor, top) = (model.state.cursorLine, model.state.topLine)
        #expect(model.state.selectionLine == 36)  // the last line of the list, below the column headers
        try Self.wheel(model, down: false, at: 20)
        #expect(model.state.topLine == top - 3)
        // The bottom edge came up past the selection: dragged up to stay on screen.
        #expect(model.state.cursorLine == cursor - 3 && model.state.selectionLine == 36)
        // Back down: the view moves, the selection stays on its quake, 3 lines higher on screen.
        try Self.wheel(model, down: true, at: 20)
        #expect(model.state.topLine == top && model.state.cursorLine == cursor - 3)
        #expect(model.state.selectionLine == 33)
    }

    @Test func atTheEndsTheWheelMovesTheSelectionToTheFirstAndLastRows() throws {
        let model = try Self.model()
        defer { model.close() }
        // Top: the view cannot go up, so the selection does (to the first line).
        try model.send(.moveDown)
        try model.send(.moveDown)
        try Self.wheel(model, down: false, at: 1)
        #expect(model.state.topLine == 0 && model.state.cursorLine == 0)
        // Bottom: the view stops at the end, then the selection walks to the last line.
        try model.send(.last)
        let last = model.state.cursorLine
        let top = model.state.topLine
        try model.send(.moveUp)
        try Self.wheel(model, down: true, at: 38)
        #expect(model.state.topLine == top && model.state.cursorLine == last)
        try Self.wheel(model, down: true, at: 38)
        #expect(model.state.topLine == top && model.state.cursorLine == last)
    }

    @Test func theWheelScrollsTheHelpWhenItIsOpen() {
        var state = AppState(sceneID: "t")
        state.helpVisible = true
        #expect(KeyMap.action(for: .wheelDown(x: 1, y: 1), in: state) == .scrollHelp(3))
        #expect(KeyMap.action(for: .wheelUp(x: 1, y: 1), in: state) == .scrollHelp(-3))
    }

    /// SGR reports carry columns past 223: a click at column 240 of 250 selects that line.
    @Test func aClickAtColumn240Of250SelectsTheLineUnderIt() throws {
        let model = try Self.model(columns: 250, rows: 40)
        defer { model.close() }
        let frame = try model.screenModel(RestoreWalkTests.context)
        let click = try #require(Key.decodeAfterEscape("[<0;240;9M"))
        guard case .click(let x, let y) = click else { Issue.record("not a click: \(click)"); return }
        let action = try #require(KeyMap.action(forClickAt: x, y, in: frame))
        #expect(action == .selectLine(6))  // row 9 of the screen is the 7th line of the list (below the column headers)
        try model.send(action)
        #expect(model.state.cursorLine == 6 && model.state.selectionLine == 6)
        // Its release is nothing: the selection stays, no Esc reaches the model.
        #expect(Key.decodeAfterEscape("[<0;240;9m") == nil)
    }
}
