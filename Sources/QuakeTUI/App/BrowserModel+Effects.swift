import Foundation
import QuakeStore

/// The reads the update asks for (the detail row, the notes a draft starts from), what a failed
/// action leaves behind, and the one place those reads are carried out.
extension BrowserModel {
    /// `Effect.loadDetail` when the detail (or a pending notes draft) needs the selected quake and
    /// the state does not hold it, or holds a copy a merge may have changed; the detail is
    /// dropped when nothing shows it.
    func detailReads(reloading: Bool) -> [Effect] {
        if state.notesRequest != nil && state.notesRequest != state.selectedCode { state.notesRequest = nil }
        guard state.detailPresented || state.notesRequest != nil, let code = state.selectedCode else {
            state.detail = nil
            return []
        }
        return reloading || state.detail?.code != code ? [.loadDetail(code: code)] : []
    }

    /// The reads the current state is waiting for (after `restore`, which returns no effects).
    public var pendingReads: [Effect] {
        guard state.detailPresented || state.notesRequest != nil, let code = state.selectedCode,
              state.detail?.code != code else { return [] }
        return [.loadDetail(code: code)]
    }

    func openDraft(code: String, notes: String?) {
        let text = notes ?? ""
        var draft = NotesDraft(code: code, text: text, cursor: text.count)
        draft.base = text  // a save finding other notes in the store asks first
        state.editor = draft
    }

    /// Performs the read effects in `effects` (`loadDetail`, `readQuake`) against the results
    /// source and sends their results back as actions; returns the other effects, for the runtime
    /// (and the effects those actions produced). The runtime calls this first, so every frame is
    /// drawn after its reads.
    public func performReads(_ effects: [Effect]) throws -> [Effect] {
        var rest: [Effect] = []
        var queue = effects[...]
        while let effect = queue.popFirst() {
            switch effect {
            case .loadDetail(let code):
                let quake = try results.quake(code: code)
                queue += try send(.detailLoaded(code: code, quake))
            case .readEventTypes(let command):
                queue += try send(.eventTypesRead(command: command, types: results.eventTypes()))
            case .readQuake(let code, let use):
                queue += try send(.quakeRead(code: code, results.quake(code: code), for: use))
            default:
                rest.append(effect)
            }
        }
        return rest
    }

    /// A quake read for a key or a message (`Effect.readQuake`) is here: act on it.
    func quakeRead(code: String, _ quake: StoredQuake?, for use: QuakeUse) throws -> [Effect] {
        switch use {
        case .openPage: openEventPage(code: code, quake)
        case .copyPage: copyEventPage(code: code, quake)
        case .setHome: try setHome(code: code, quake)
        case .explainHidden: explainHidden(code: code, quake)
        }
    }

    /// After a failed action: the state as it was before it, and the source on the same request
    /// (a source that failed in `configure` kept it already; one that failed later is put back).
    func rollBack(to before: AppState) {
        state.app = before
        if state.pendingBase == before { state.pendingBase = nil }
        if results.request != before.request { try? results.configure(before.request) }
        relayout()
    }

    /// What the status line says when `action` failed with `error`: what was being done, and why.
    public static func failureMessage(for action: Action, _ error: any Error) -> String {
        let what = switch action {
        case .searchInput, .searchEdit, .cancelSearch: "The search could not be applied"
        case .nextSortOrder, .reverseSortDirection: "The list could not be sorted"
        case .cycleMinimumMagnitude, .settingsChanged: "The magnitude filter could not be applied"
        case .storeChanged: "New changes could not be merged (the list shows the earlier data)"
        case .resultsSettled: "The list could not be counted (it shows what it showed before)"
        case .continueActivity(let code): "Quake \(code) could not be shown"
        case .detailLoaded, .beginEditing, .openDetail: "The quake could not be read"
        default: "That did not work"
        }
        return "\(what): \(readFailure(error))"
    }

    /// What the status line says when the quakes that arrived (for the marks, the header's
    /// count and alerts) could not be read: a read failure like any other, never SQLite's raw
    /// "SQLite error 11: database disk image is malformed" of one EIO (issue 29).
    public static func arrivalsFailure(_ error: any Error) -> String {
        "New quakes could not be read: \(readFailure(error))"
    }

    /// A failed read of the store as the status line says it: what happened and what to do,
    /// never "Nothing was changed" (a read changes nothing). The message log (`L`) keeps it whole.
    public static func readFailure(_ error: any Error) -> String {
        if let error = error as? StoreError { return error.readingDescription }
        if let error = error as? SQLiteError {
            // A transient read error (EIO) can surface as SQLITE_CORRUPT, "database disk image
            // is malformed" (issue 29): said so, a user throws the store and its notes away.
            if error.code == SQLiteError.corrupt || error.code == SQLiteError.ioError {
                let cause = error.systemErrno != 0 ? String(cString: strerror(error.systemErrno)) : "a read failed"
                return "Could not read the store (\(cause)); it is not known to be damaged. "
                    + "Press ctrl-l to try again; if it persists, quit and run quaketui info."
            }
            return "Could not read the store: \(error.message). Press ctrl-l to try again; if it persists, quit and run quaketui info."
        }
        return "Could not read the store: \(error). Press ctrl-l to try again; if it persists, quit and relaunch."
    }
}
