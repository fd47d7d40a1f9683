import Foundation
import QuakeStore
import QuakeTUI

/// Builds the frame's `ScreenModel` from a `BrowserModel`, as the terminal runtime does, so the
/// benchmark times model + read + render without a terminal (and without depending on the
/// runtime, which is built elsewhere). Only the visible rows are read (`visibleLines()`).
enum BenchScreen {
    static let size = Size(columns: 160, rows: 48)
    /// A fixed clock: relative times then do not depend on when the benchmark runs.
    static let now: Int64 = 1_767_225_600_000

    static func frame(_ model: BrowserModel, container: PersistentContainer) throws -> CellBuffer {
        Screen.render(try screenModel(model, container: container))
    }

    static func screenModel(_ model: BrowserModel, container: PersistentContainer) throws -> ScreenModel {
        let state = model.state
        let results = model.results
        var lines: [ListLine] = []
        for (line, row) in try model.visibleLines() {
            switch line {
            case .header(let section):
                let s = results.sections[section]
                lines.append(.section(SectionLine(s, isCollapsed: state.collapsedSections.contains(s.id))))
            case .row:
                if let row { lines.append(.quake(QuakeLine(row))) }
            }
        }
        let selected = state.cursorLine - state.topLine
        let list = ListModel(lines: lines, selectedIndex: (0..<lines.count).contains(selected) ? selected : nil,
                             firstLineIndex: state.topLine, totalLines: model.layout.lineCount,
                             emptyMessage: "No quakes match.")
        let header = HeaderModel(count: results.count, sortOrder: state.sort.order, ascending: state.sort.ascending,
                                 searchText: state.searchText, isSearching: state.isSearching,
                                 minimumMagnitude: state.settings.minimumMagnitude, sceneID: state.sceneID)
        var detail: DetailModel?
        if state.detailPresented, let quake = try model.selectedQuake(in: container) {
            detail = DetailModel(tab: state.detailTab, quake: quake)
        }
        return ScreenModel(size: Size(columns: state.columns, rows: state.rows), header: header, list: list,
                           detail: detail, status: StatusModel(isLive: true),
                           display: DisplaySettings(now: now, timeZone: .utc))
    }
}
