import Foundation
import QuakeModel

/// The reads the update asks for besides the results: the detail row, the notes a draft starts
/// from, a quake a key acts on.
extension BrowserState {
    /// `Effect.loadDetail` when the detail (or a pending notes draft) needs the selected quake and
    /// the state does not hold it, or holds a copy a merge may have changed (`detailIsStale`);
    /// the detail is dropped when nothing shows it.
    mutating func detailReads() -> [Effect] {
        if self.notesRequest != nil && self.notesRequest != self.selectedCode { self.notesRequest = nil }
        guard self.detailPresented || self.notesRequest != nil, let code = self.selectedCode else {
            self.detail = nil
            detailIsStale = false
            return []
        }
        defer { detailIsStale = false }
        return detailIsStale || self.detail?.code != code ? [.loadDetail(code: code)] : []
    }

    /// The reads the current state is waiting for (after `restore`, which returns no effects).
    public var pendingReads: [Effect] {
        guard self.detailPresented || self.notesRequest != nil, let code = self.selectedCode,
              self.detail?.code != code else { return [] }
        return [.loadDetail(code: code)]
    }

    mutating func openDraft(code: String, notes: String?) {
        let text = notes ?? ""
        var draft = NotesDraft(code: code, text: text, cursor: text.count)
        draft.base = text  // a save finding other notes in the store asks first
        self.editor = draft
    }

    /// A quake read for a key or a message (`Effect.readQuake`) is here: act on it.
    mutating func quakeRead(code: String, _ quake: StoredQuake?, for use: QuakeUse) -> [Effect] {
        switch use {
        case .openPage: openEventPage(code: code, quake)
        case .copyPage: copyEventPage(code: code, quake)
        case .setHome: setHome(code: code, quake)
        case .explainHidden: explainHidden(code: code, quake)
        }
    }
}
