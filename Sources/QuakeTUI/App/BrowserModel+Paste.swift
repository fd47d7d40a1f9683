/// Bracketed paste (issue 28): a paste is text for the field being edited, never keys.
extension BrowserModel {
    /// What the status line says for a paste with no field to take it.
    static let pasteIgnoredMessage = "Paste ignored: nothing is being edited (/ search, : command line, e notes)"

    /// Puts pasted text, whole, into the field that has focus, as `KeyMap` gives focus: the `:`
    /// line, the notes editor, the search field (one refetch for the whole paste). Under a
    /// question, the help or the message log, or with no field, it does nothing but say so.
    func paste(_ text: String) throws {
        guard state.confirmation == nil, !state.logVisible, !state.helpVisible else {
            state.status.message = Self.pasteIgnoredMessage
            return
        }
        if state.commandLine != nil {
            state.commandLine?.insert(PastedText.line(text))
        } else if state.isEditing, var draft = state.editor {
            draft.editor.insert(PastedText.lines(text))
            state.editor = draft
        } else if state.isSearching {
            let line = PastedText.line(text)
            guard !line.isEmpty else { return }
            state.search.insert(line)
            try refetchKeepingSelection()
        } else {
            state.status.message = Self.pasteIgnoredMessage
        }
    }
}
