import QuakeModel

/// `quaketui open CODE` and handoff: show a quake, lifting this scene's search and filters when
/// they hide it (and saying so); when the app-wide minimum magnitude hides it, saying that.
extension BrowserState {
    /// `quaketui open CODE`, handoff: first finds the quake in the list as it is.
    mutating func show(code: String) -> [Effect] {
        queryResults(.locate, locate: [code], purpose: .show(code: code, lifted: [], line: keptLine))
    }

    /// The answer for `show(code:)`: the quake at `offset` in the results after `step` (nil:
    /// not there). Not there the first time, the search and filters that hide it are cleared
    /// and it is looked for again; `lifted` names them.
    mutating func show(code: String, at offset: Int?, lifted: [String], step: ResultsQuery.Step) -> [Effect] {
        guard let offset else {
            if step == .locate {
                var lifted: [String] = []
                if self.isSearching || !self.searchText.isEmpty {
                    lifted.append("the search “\(self.searchText)”")
                    self.searchText = ""
                    self.isSearching = false
                }
                if !self.filters.isEmpty {
                    lifted.append("the filters " + self.filters.joined(separator: " · "))
                    self.filters = []
                    self.rowFilters = []
                }
                if !lifted.isEmpty {
                    return queryResults(.configure(self.request), locate: [code],
                                        purpose: .show(code: code, lifted: lifted, line: keptLine))
                }
            }
            // Hidden by the minimum magnitude, or not stored: the stored quake says which.
            if self.settings.minimumMagnitude != nil { return [.readQuake(code: code, for: .explainHidden)] }
            _ = explainHidden(code: code, nil)
            return []
        }
        jumpCursor(toOffset: offset)
        self.detailPresented = true
        if !lifted.isEmpty {
            self.status.message = "Cleared \(lifted.joined(separator: " and ")) to show quake \(code)"
        }
        return [.advertise(code: code)]
    }

    /// Why `quaketui open` (or handoff) cannot show quake `code`, `quake` as stored (nil: not stored).
    mutating func explainHidden(code: String, _ quake: StoredQuake?) -> [Effect] {
        self.status.isError = true
        if let minimum = self.settings.minimumMagnitude, let quake {
            let magnitude = quake.record.magnitude.map { "M \(QuakeFormat.magnitude($0))" } ?? "of unknown magnitude"
            self.status.message = "Quake \(code) (\(magnitude)) is hidden by the minimum magnitude "
                + "\(MagnitudeBin.threshold(minimum)), shared by every pane: press m until all magnitudes show"
        } else {
            self.status.message = "Quake \(code) is not in the store; import or refresh first"
        }
        return []
    }
}
