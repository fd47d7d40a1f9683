import QuakeStore

/// Cursor, scrolling and selection anchoring: the selected quake stays selected (and on the
/// same screen line where possible) across sort, search and store changes.
extension BrowserModel {
    func relayout() {
        let starts = results.sections.indices.map(results.offset(ofSection:))
        layout = DisplayLayout(sections: results.sections, sectionStarts: starts, collapsed: state.collapsedSections)
    }

    func moveCursor(by delta: Int) { moveCursor(to: state.cursorLine + delta) }

    func moveCursor(to line: Int) {
        state.cursorLine = line
        clampCursor()
        clampScroll()
    }

    /// Moves the cursor to a result row; a row in a collapsed section puts the cursor on its
    /// header, unless `reveal` expands the section.
    func moveCursor(toOffset offset: Int, reveal: Bool = false) {
        let section = results.indexPath(forOffset: offset).section
        if reveal && state.collapsedSections.remove(results.sections[section].id) != nil { relayout() }
        moveCursor(to: layout.line(ofOffset: offset, section: section) ?? layout.headerLine(ofSection: section))
    }

    /// A jump to a result row (`open CODE`, handoff, `n`/`N`): as `moveCursor(toOffset:reveal: true)`,
    /// and when the row was off screen the list scrolls to put it in its upper third, with the
    /// rows after it in view, rather than on the edge it came in from.
    func jumpCursor(toOffset offset: Int) {
        let top = state.topLine, height = listHeight
        moveCursor(toOffset: offset, reveal: true)
        guard state.cursorLine < top || state.cursorLine >= top + height else { return }
        state.topLine = state.cursorLine - height / 3
        clampScroll()
    }

    /// The mouse wheel: scrolls the view by `lines` and drags the cursor along when it would
    /// leave the screen (as htop and lazygit do); once the view cannot scroll further, the
    /// cursor moves instead, so the wheel always reaches the first and last rows.
    func scroll(by lines: Int) {
        let height = listHeight
        let maximumTop = max(0, layout.lineCount - height)
        let newTop = max(0, min(state.topLine + lines, maximumTop))
        let unscrolled = lines - (newTop - state.topLine)
        state.topLine = newTop
        let firstUncovered = newTop + (height > 1 && stickySection != nil ? 1 : 0)
        state.cursorLine = min(max(state.cursorLine + unscrolled, firstUncovered), newTop + height - 1)
        clampCursor()
        clampScroll()
    }

    func clampCursor() {
        state.cursorLine = max(0, min(state.cursorLine, layout.lineCount - 1))
    }

    /// Keeps the cursor on screen and the list from scrolling past its end.
    func clampScroll() {
        // Nothing is drawn below the minimum size: keep the scroll position for when it grows.
        guard !ScreenLayout(size: Size(columns: state.columns, rows: state.rows), detailPresented: false).isTooSmall
        else { return }
        let height = listHeight
        if state.cursorLine < state.topLine { state.topLine = state.cursorLine }
        if state.cursorLine >= state.topLine + height { state.topLine = state.cursorLine - height + 1 }
        state.topLine = max(0, min(state.topLine, layout.lineCount - height))
        // The sticky header covers the first line when it is a quake: never the cursor.
        if height > 1, state.cursorLine == state.topLine, stickySection != nil { state.topLine -= 1 }
    }

    /// Updates `selectedCode`, `selectedSection` and `topCode` from the cursor and the scroll position.
    func syncSelection() throws {
        switch layout.line(at: state.cursorLine) {
        case .row(_, let offset)?:
            state.selectedCode = try results.rows(in: offset..<offset + 1).first?.code
            state.selectedSection = nil
        case .header(let section)?:
            state.selectedSection = results.sections[section].id
        case nil:
            state.selectedCode = nil
            state.selectedSection = nil
        }
        var top: String?
        for line in state.topLine..<min(layout.lineCount, state.topLine + listHeight) {
            if case .row(_, let offset)? = layout.line(at: line) {
                top = try results.rows(in: offset..<offset + 1).first?.code
                break
            }
        }
        state.topCode = top
        if state.selectedCode == nil || layout.lineCount == 0 { state.detailPresented = false }
    }

    func toggleSection() throws {
        guard let line = layout.line(at: state.cursorLine) else { return }
        let id = results.sections[line.section].id
        if state.collapsedSections.remove(id) == nil { state.collapsedSections.insert(id) }
        let screenRow = state.cursorLine - state.topLine
        relayout()
        state.cursorLine = layout.headerLine(ofSection: line.section)
        state.topLine = state.cursorLine - screenRow
        clampCursor()
        clampScroll()
    }

    /// Applies the state's fetch request, keeping the selected quake (or its nearest neighbour)
    /// under the cursor on the same screen line.
    func refetchKeepingSelection() throws {
        let screenRow = state.keptSelectionLine ?? state.cursorLine - state.topLine
        try results.configure(state.request, around: state.selectedCode)
        try reanchor(screenRow: screenRow)
        state.keptSelectionLine = results.isProvisional ? screenRow : nil
    }

    /// Merges other processes' (and our own) commits into the list, keeping the selection;
    /// whether anything in the results changed.
    @discardableResult
    func mergeStoreChanges() throws -> Bool {
        let screenRow = state.keptSelectionLine ?? state.cursorLine - state.topLine
        guard try results.merge() != nil else { return false }
        try reanchor(screenRow: screenRow)
        return true
    }

    /// Swaps in the exact sections of a provisional window, the selection kept on its line.
    func settleResults() throws -> Bool {
        let screenRow = state.keptSelectionLine ?? state.cursorLine - state.topLine
        guard try results.settle() else { return false }
        try reanchor(screenRow: screenRow)
        if !results.isProvisional { state.keptSelectionLine = nil }
        return true
    }

    private func reanchor(screenRow: Int) throws {
        // The anchor first: a provisional source may re-read its window around it.
        let offset = try state.selectedCode.flatMap { try results.anchor(code: $0) }
        relayout()
        // A restored section header stays selected while counts settle (its selected quake is
        // only the last one visited, maybe far away), and one the provisional window did not
        // hold goes back on it once the sections are known.
        if let id = state.restoredPlacement?.section,
           let section = results.sections.firstIndex(where: { $0.id == id }) {
            if !results.isProvisional { state.restoredPlacement?.section = nil }
            moveCursor(to: layout.headerLine(ofSection: section))
        } else if let offset {
            moveCursor(toOffset: offset)
        } else {
            clampCursor()
        }
        state.topLine = state.cursorLine - screenRow
        clampScroll()
    }
}
