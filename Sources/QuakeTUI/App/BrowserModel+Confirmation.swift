import QuakeStore

/// A question the status line asks before work is lost; keys answer it (`KeyMap`).
public enum Confirmation: Equatable, Sendable {
    /// `Esc` on a notes draft with changes: discard it?
    case discardDraft
    /// `Q`: close the scene and delete its saved state?
    case closeScene
    /// `ctrl-s` found the quake's notes changed in the store since editing began (another pane
    /// saved): keep mine, theirs (`theirs` is what the store holds now), or both?
    case notesConflict(code: String, theirs: String)

    /// The status line's question, with the keys that answer it.
    public var question: String {
        switch self {
        case .discardDraft: "Discard the changes to these notes? y discards, n or Esc keeps editing"
        case .closeScene: "Close this scene and delete its saved state? y closes it, n or Esc keeps it"
        case .notesConflict(let code, _):
            "The notes of \(code) changed in another pane since you began: m keeps mine, t keeps theirs, "
                + "b keeps both (theirs, then mine), Esc goes back to editing"
        }
    }
}

/// The answer to a `Confirmation`.
public enum ConfirmationAnswer: Equatable, Sendable {
    case yes, no, keepMine, keepTheirs, keepBoth
}

/// Protecting work: drafts are not thrown away, scenes not deleted and other panes' notes not
/// overwritten without a question.
extension BrowserModel {
    /// What the store held when editing began (nil: not known — a draft restored from a scene
    /// file before its quake's row was read; `detailLoaded` fills it in).
    func draftBase() -> String? {
        guard let draft = state.editor else { return nil }
        if let base = draft.base { return base }
        if let loaded = state.detail, loaded.code == draft.code { return loaded.quake?.notes ?? "" }
        return nil
    }

    func cancelEditing() throws {
        guard let draft = state.editor else { return }
        if draft.text != (draftBase() ?? "") {
            ask(.discardDraft)
        } else {
            state.editor = nil
        }
    }

    func saveNotes() throws -> [Effect] {
        guard let draft = state.editor else { return [] }
        return [.saveNotesIfUnchanged(code: draft.code, text: draft.text, expected: draftBase())]
    }

    func closeScene() { ask(.closeScene) }

    /// Another pane saved these notes since editing began: ask what to keep.
    func notesConflict(code: String, theirs: String) {
        guard state.editor?.code == code else { return }
        ask(.notesConflict(code: code, theirs: theirs))
    }

    private func ask(_ confirmation: Confirmation) {
        state.confirmation = confirmation
        state.status.message = confirmation.question
        state.status.isError = true
    }

    func answer(_ answer: ConfirmationAnswer) -> [Effect] {
        guard let confirmation = state.confirmation else { return [] }
        state.confirmation = nil
        switch (confirmation, answer) {
        case (.discardDraft, .yes):
            state.editor = nil
            state.status.message = "Changes to the notes discarded"
        case (.closeScene, .yes):
            return [.closeScene]
        case (.notesConflict(let code, let theirs), .keepMine), (.notesConflict(let code, let theirs), .keepBoth):
            guard var draft = state.editor, draft.code == code else { return [] }
            if answer == .keepBoth {
                let both = theirs.isEmpty ? draft.text : theirs + "\n" + draft.text
                draft = NotesDraft(code: code, text: both, cursor: both.count)
            }
            draft.base = theirs
            state.editor = draft
            return [.saveNotesIfUnchanged(code: code, text: draft.text, expected: theirs)]
        case (.notesConflict(let code, _), .keepTheirs):
            if state.editor?.code == code { state.editor = nil }
            state.status.message = "Kept the notes saved in the other pane; yours were discarded"
        default:
            break
        }
        return []
    }
}
