import QuakeModel

/// A question the status line asks before work is lost; keys answer it (`KeyMap`).
public enum Confirmation: Equatable, Sendable {
    /// `Esc` on a notes draft with changes: discard it?
    case discardDraft
    /// `Q`: close the scene and delete its saved state?
    case closeScene
    /// `ctrl-s` found the quake's notes changed in the store since editing began (another pane
    /// saved): keep mine, theirs (`theirs` is what the store holds now), or both?
    case notesConflict(code: String, theirs: String)
    /// `@` on a quake while home has a name (`config home NAME …`): replace that home by the
    /// quake's epicentre, losing the name?
    case replaceNamedHome(name: String, code: String, home: GeoPoint)

    /// The status line's question, with the keys that answer it.
    public var question: String {
        switch self {
        case .discardDraft: "Discard the changes to these notes? y discards, n or Esc keeps editing"
        case .closeScene: "Close this scene and delete its saved state? y closes it, n or Esc keeps it"
        case .notesConflict(let code, _):
            "The notes of \(code) changed in another pane since you began: m keeps mine, t keeps theirs, "
                + "b keeps both (theirs, then mine), Esc goes back to editing"
        case .replaceNamedHome(let name, let code, _):
            "Replace home \(QuakeFormat.homeLabel(name)) by the epicentre of \(code), and drop its name? "
                + "y replaces it, n or Esc keeps it"
        }
    }
}

/// The answer to a `Confirmation`.
public enum ConfirmationAnswer: Equatable, Sendable {
    case yes, no, keepMine, keepTheirs, keepBoth
}

/// Protecting work: drafts are not thrown away, scenes not deleted and other panes' notes not
/// overwritten without a question.
extension BrowserState {
    /// What the store held when editing began (nil: not known — a draft restored from a scene
    /// file before its quake's row was read; `detailLoaded` fills it in).
    func draftBase() -> String? {
        guard let draft = self.editor else { return nil }
        if let base = draft.base { return base }
        if let loaded = self.detail, loaded.code == draft.code { return loaded.quake?.notes ?? "" }
        return nil
    }

    mutating func cancelEditing() {
        guard let draft = self.editor else { return }
        if draft.text != (draftBase() ?? "") {
            ask(.discardDraft)
        } else {
            self.editor = nil
        }
    }

    mutating func saveNotes() -> [Effect] {
        guard let draft = self.editor else { return [] }
        return [.saveNotesIfUnchanged(code: draft.code, text: draft.text, expected: draftBase())]
    }

    mutating func closeScene() { ask(.closeScene) }

    /// Another pane saved these notes since editing began: ask what to keep.
    mutating func notesConflict(code: String, theirs: String) {
        guard self.editor?.code == code else { return }
        ask(.notesConflict(code: code, theirs: theirs))
    }

    mutating func ask(_ confirmation: Confirmation) {
        self.confirmation = confirmation
        self.status.message = confirmation.question
        self.status.isError = true
    }

    mutating func answer(_ answer: ConfirmationAnswer) -> [Effect] {
        guard let confirmation = self.confirmation else { return [] }
        self.confirmation = nil
        switch (confirmation, answer) {
        case (.discardDraft, .yes):
            self.editor = nil
            self.status.message = "Changes to the notes discarded"
        case (.closeScene, .yes):
            return [.closeScene]
        case (.notesConflict(let code, let theirs), .keepMine), (.notesConflict(let code, let theirs), .keepBoth):
            guard var draft = self.editor, draft.code == code else { return [] }
            if answer == .keepBoth {
                let both = theirs.isEmpty ? draft.text : theirs + "\n" + draft.text
                draft = NotesDraft(code: code, text: both, cursor: both.count)
            }
            draft.base = theirs
            self.editor = draft
            return [.saveNotesIfUnchanged(code: code, text: draft.text, expected: theirs)]
        case (.notesConflict(let code, _), .keepTheirs):
            if self.editor?.code == code { self.editor = nil }
            self.status.message = "Kept the notes saved in the other pane; yours were discarded"
        case (.replaceNamedHome(_, let code, let home), .yes):
            return replaceHome(with: home, epicentreOf: code)
        case (.replaceNamedHome(let name, _, _), _):
            self.status.message = "Home is still \(QuakeFormat.homeLabel(name))"
        default:
            break
        }
        return []
    }
}
