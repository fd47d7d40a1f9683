import QuakeStore

/// `quaketui open CODE` and handoff: show a quake, lifting this scene's search and filters when
/// they hide it (and saying so); when the app-wide minimum magnitude hides it, saying that.
extension BrowserModel {
    func show(code: String) throws -> [Effect] {
        var lifted: [String] = []
        if try results.offset(ofCode: code) == nil {
            if state.isSearching || !state.searchText.isEmpty {
                lifted.append("the search “\(state.searchText)”")
                state.searchText = ""
                state.isSearching = false
            }
            if !state.filters.isEmpty {
                lifted.append("the filters " + state.filters.joined(separator: " · "))
                state.filters = []
                state.rowFilters = []
            }
            if !lifted.isEmpty { try refetchKeepingSelection() }
        }
        guard let offset = try results.offset(ofCode: code) else {
            // Hidden by the minimum magnitude, or not stored: the stored quake says which.
            if state.settings.minimumMagnitude != nil { return [.readQuake(code: code, for: .explainHidden)] }
            _ = explainHidden(code: code, nil)
            return []
        }
        jumpCursor(toOffset: offset)
        state.detailPresented = true
        if !lifted.isEmpty {
            state.status.message = "Cleared \(lifted.joined(separator: " and ")) to show quake \(code)"
        }
        return [.advertise(code: code)]
    }

    /// Why `quaketui open` (or handoff) cannot show quake `code`, `quake` as stored (nil: not stored).
    func explainHidden(code: String, _ quake: StoredQuake?) -> [Effect] {
        state.status.isError = true
        if let minimum = state.settings.minimumMagnitude, let quake {
            let magnitude = quake.record.magnitude.map { "M \(QuakeFormat.magnitude($0))" } ?? "of unknown magnitude"
            state.status.message = "Quake \(code) (\(magnitude)) is hidden by the minimum magnitude "
                + "\(QuakeFormat.magnitude(minimum)), shared by every pane: press m until all magnitudes show"
        } else {
            state.status.message = "Quake \(code) is not in the store; import or refresh first"
        }
        return []
    }
}
