import QuakeModel

/// Bracketed paste (issue 28): a paste is text for the field being edited, never keys.
extension BrowserState {
    /// What the status line says for a paste with no field to take it.
    static let pasteIgnoredMessage = "Paste ignored: nothing is being edited (/ search, : command line, e notes)"

    /// Puts pasted text, whole, into the field that has focus, as `KeyMap` gives focus: the `:`
    /// line, the notes editor, the search field (one refetch for the whole paste), the `/` find of
    /// the help or the message log. Under a question, the help or the message log not finding, or
    /// with no field, it does nothing but say so.
    mutating func paste(_ text: String) -> [Effect] {
        if self.confirmation == nil, self.logVisible || self.helpVisible, self.isOverlayFinding {
            updateOverlayFind(.overlayFindInput(PastedText.line(text)))
            return []
        }
        guard self.confirmation == nil, !self.logVisible, !self.helpVisible else {
            self.status.message = Self.pasteIgnoredMessage
            return []
        }
        if self.commandLine != nil {
            sayLeftOut(self.commandLine?.insert(PastedText.line(text)) ?? 0, from: "pasted", field: Self.commandLineField)
        } else if self.isEditing, var draft = self.editor {
            let leftOut = draft.editor.insert(PastedText.lines(text))
            self.editor = draft
            sayLeftOut(leftOut, from: "pasted", field: Self.notesField, capacity: NotesEditor.capacity)
        } else if self.isSearching {
            let line = PastedText.line(text)
            guard !line.isEmpty else { return [] }
            sayLeftOut(self.search.insert(line), from: "pasted", field: "The search")
            return refetchKeepingSelection()
        } else {
            self.status.message = Self.pasteIgnoredMessage
        }
        return []
    }
}
