import QuakeModel

/// Putting the screen back as it was saved, from what the runtime found in the results for the
/// saved selection (`BrowserModel.restore` asks the source; this decides where things go).
extension BrowserState {
    /// Puts the screen back as it was saved, for a terminal of `size` (the restore needs the
    /// real size: the scroll offset depends on how many lines the list shows). `found` holds the
    /// results with, for the saved quake, where it lands (`anchor`) and, for the saved top row,
    /// its offset (`located`); `selectedIsStored` says whether the saved quake is still stored.
    ///
    /// With the same rows in the store this draws the saved screen exactly: the selected row
    /// (a quake, or a section header) on its saved line of the list. When rows were added or
    /// removed meanwhile, the selected quake (or its nearest neighbour) stays on that line
    /// where the list allows, as merges do. The effects are reads (the rows on screen).
    public mutating func restore(_ saved: AppState.RestoredSelection, size: Size? = nil, found: ResultsAnswer,
                                 selectedIsStored: Bool = true) -> [Effect] {
        if let size {
            self.columns = size.columns
            self.rows = size.rows
        }
        results = found.snapshot
        awaitedQuery = nil
        relayout()
        let screen = Size(columns: self.columns, rows: self.rows)
        let savedHelpOffset = self.helpOffset
        self.helpOffset = min(self.helpOffset, Screen.maximumHelpOffset(for: screen))
        self.logOffset = min(self.logOffset, MessageLogOverlay.maximumOffset(
            self.messageLog.entries, in: Rect(screen), zone: self.settings.resolvedTimeZone))
        self.selectedCode = saved.selectedCode
        if let section = results.sectionIndex(id: saved.selectedSection) {
            moveCursor(to: layout.headerLine(ofSection: section))
            // On a header the selected quake is the last one shown; one deleted meanwhile is gone.
            if saved.selectedCode != nil, !selectedIsStored { self.selectedCode = nil }
        } else if saved.selectedCode != nil, let offset = found.anchor {
            moveCursor(toOffset: offset)
        } else {
            self.cursorLine = layout.lineCount > 1 ? 1 : 0
        }
        if let line = saved.selectionLine {
            self.topLine = self.cursorLine - line
        } else if saved.selectedCode != nil, let top = saved.topCode, let topOffset = found.located[top],
                  let line = layout.line(ofOffset: topOffset, section: results.indexPath(forOffset: topOffset).section) {
            // Older scene files: the first quake on top, with its section's header above it.
            let headerAbove = if case .header? = layout.line(at: line - 1) { true } else { false }
            self.topLine = headerAbove ? line - 1 : line
        }
        self.restoredPlacement = RestoredPlacement(selectionLine: self.cursorLine - self.topLine, helpOffset: savedHelpOffset)
        if let id = saved.selectedSection, results.isProvisional { self.restoredPlacement?.section = id }
        self.keptSelectionLine = results.isProvisional ? self.cursorLine - self.topLine : nil
        clampScroll()
        syncSelection()
        return rowReads()
    }

}
