/// A terminal may tell its real size only after the first frame: a new tab or split that
/// starts the program at 80×24 and grows it a moment later, a multiplexer attaching late. The
/// restore placed the screen for the size it saw first, which can hold fewer lines than the
/// saved selection line; clamping then moved the selection up, and growing the pane did not
/// move it back. Until the user does something, every resize places the restored screen again,
/// for the new size: the selection on its saved line, the help at its saved offset.
struct RestoredPlacement: Equatable {
    /// The selection's line in the list pane, as saved (before any clamp to the first size).
    var selectionLine: Int
    /// The help overlay's scroll offset, as saved.
    var helpOffset: Int
    /// The section whose header was selected, restored while the results were provisional: the
    /// settled results put the cursor back on that header (not on the quake last visited).
    var section: String? = nil
}

extension BrowserState {
    /// After a resize that came before any key: the restored screen, placed for the new size.
    mutating func placeRestoredScreenAgain() {
        guard let placement = self.restoredPlacement else { return }
        self.topLine = self.cursorLine - placement.selectionLine
        self.helpOffset = min(placement.helpOffset,
                               Screen.maximumHelpOffset(for: Size(columns: self.columns, rows: self.rows), finding: self.overlayFind))
    }
}
