import Foundation
import QuakeStore

/// The browser's logic for one scene: state, the live results, and what every action does.
///
/// Rendering and the terminal are elsewhere; this reads the store only through its lazy
/// `FetchedResultsController`, so it can be tested against a real store without a terminal.
///
/// ```swift
/// let model = try BrowserModel(state: restored, container: container)
/// let effects = try model.send(.moveDown)
/// ```
public final class BrowserModel {
    public internal(set) var state: AppState
    public let results: FetchedResultsController
    public internal(set) var layout: DisplayLayout

    /// Lines the list shows, as `ScreenLayout` lays the screen out; with the detail covering a
    /// narrow terminal, the height the list will have when it comes back.
    public var listHeight: Int {
        let size = Size(columns: state.columns, rows: state.rows)
        let rows = ScreenLayout(size: size, detailPresented: state.detailPresented).listRows
        return max(1, rows > 0 ? rows : ScreenLayout(size: size, detailPresented: false).listRows)
    }

    public init(state: AppState, container: PersistentContainer) throws {
        var state = state
        let fallback = state.fallBackFromDistanceSortWithoutHome()
        self.state = state
        results = try FetchedResultsController(container: container, request: state.request)
        layout = DisplayLayout(sections: [], sectionStarts: [], collapsed: [])
        relayout()
        if let fallback { self.state.status.message = fallback }
    }

    public func close() { results.close() }

    // MARK: Restoration

    /// Puts the cursor back on the restored selection and the list back at the restored top row.
    /// A selection that no longer exists or no longer matches falls back to its nearest row.
    public func restore(selectedCode: String?, topCode: String?) throws {
        try restore(AppState.RestoredSelection(selectedCode: selectedCode, topCode: topCode))
    }

    /// Puts the screen back as it was saved, for a terminal of `size` (the restore needs the
    /// real size: the scroll offset depends on how many lines the list shows).
    ///
    /// With the same rows in the store this draws the saved screen exactly: the selected row
    /// (a quake, or a section header) on its saved line of the list. When rows were added or
    /// removed meanwhile, the selected quake (or its nearest neighbour) stays on that line
    /// where the list allows, as merges do. No effects: nothing needs saving.
    public func restore(_ saved: AppState.RestoredSelection, size: Size? = nil) throws {
        if let size {
            state.columns = size.columns
            state.rows = size.rows
        }
        state.helpOffset = min(state.helpOffset, Screen.maximumHelpOffset(for: Size(columns: state.columns, rows: state.rows)))
        state.selectedCode = saved.selectedCode
        if let id = saved.selectedSection, let section = results.sections.firstIndex(where: { $0.id == id }) {
            moveCursor(to: layout.headerLine(ofSection: section))
            // On a header the selected quake is the last one shown; one deleted meanwhile is gone.
            if let code = saved.selectedCode, try results.quake(code: code) == nil { state.selectedCode = nil }
        } else if let code = saved.selectedCode, let offset = try results.anchor(code: code) {
            moveCursor(toOffset: offset)
        } else {
            state.cursorLine = layout.lineCount > 1 ? 1 : 0
        }
        if let line = saved.selectionLine {
            state.topLine = state.cursorLine - line
        } else if saved.selectedCode != nil, let top = saved.topCode, let topOffset = try results.offset(ofCode: top),
                  let line = layout.line(ofOffset: topOffset, section: results.indexPath(forOffset: topOffset).section) {
            // Older scene files: the first quake on top, with its section's header above it.
            let headerAbove = if case .header? = layout.line(at: line - 1) { true } else { false }
            state.topLine = headerAbove ? line - 1 : line
        }
        clampScroll()
        try syncSelection()
    }

    // MARK: Reading for the view

    /// The display lines on screen with the rows they show (only these rows are read).
    public func visibleLines() throws -> [(line: DisplayLine, row: QuakeRow?)] {
        let lines = (state.topLine..<min(layout.lineCount, state.topLine + listHeight)).compactMap(layout.line(at:))
        let offsets = lines.compactMap { line -> Int? in if case .row(_, let o) = line { o } else { nil } }
        guard let first = offsets.first, let last = offsets.last else { return lines.map { ($0, nil) } }
        let rows = try results.rows(in: first..<last + 1)
        return lines.map { line in
            if case .row(_, let offset) = line, offset - first < rows.count { return (line, rows[offset - first]) }
            return (line, nil)
        }
    }

    /// The quake under the cursor with everything stored about it.
    public func selectedQuake(in container: PersistentContainer) throws -> StoredQuake? {
        guard let code = state.selectedCode else { return nil }
        return try container.viewContext.read { try $0.quake(code: code) }
    }

    // MARK: Actions

    /// Applies `action` and returns the effects for the runtime to perform.
    @discardableResult
    public func send(_ action: Action) throws -> [Effect] {
        let before = state
        var effects: [Effect] = []
        if !isOutside(action) {
            state.status.message = nil
            state.status.isError = false
        }
        switch action {
        case .moveUp: moveCursor(by: -1)
        case .moveDown: moveCursor(by: 1)
        case .pageUp: moveCursor(by: -listHeight)
        case .pageDown: moveCursor(by: listHeight)
        case .halfPageUp: moveCursor(by: -max(1, listHeight / 2))
        case .halfPageDown: moveCursor(by: max(1, listHeight / 2))
        case .first: moveCursor(to: 0)
        case .last: moveCursor(to: layout.lineCount - 1)
        case .scroll(let lines): scroll(by: lines)
        case .selectLine(let line): moveCursor(to: line)
        case .toggleSection: try toggleSection()
        case .nextSortOrder:
            state.sort = QuakeSortDescriptor(state.sort.order.next(hasHome: state.settings.home != nil))
            try refetchKeepingSelection()
        case .reverseSortDirection:
            state.sort.ascending.toggle()
            try refetchKeepingSelection()
        case .cycleMinimumMagnitude:
            let presets = AppSettings.magnitudePresets
            let index = presets.firstIndex(of: state.settings.minimumMagnitude) ?? 0
            state.settings.minimumMagnitude = presets[(index + 1) % presets.count]
            try refetchKeepingSelection()
            effects.append(.saveSettings(state.settings))
            state.status.message = state.settings.minimumMagnitude.map { "Showing magnitude \($0) and up" } ?? "Showing all magnitudes"
        case .setHomeToSelection: effects += try setHomeToSelection()
        case .toggleNearHome: try toggleNearHome()
        case .beginSearch: state.isSearching = true
        case .searchInput(let text):
            state.searchText += text
            try refetchKeepingSelection()
        case .searchBackspace:
            guard !state.searchText.isEmpty else { break }
            state.searchText.removeLast()
            try refetchKeepingSelection()
        case .clearSearchText:
            guard !state.searchText.isEmpty else { break }
            state.searchText = ""
            try refetchKeepingSelection()
        case .commitSearch: state.isSearching = false
        case .cancelSearch:
            state.isSearching = false
            if !state.searchText.isEmpty {
                state.searchText = ""
                try refetchKeepingSelection()
            }
        case .openDetail:
            guard let code = state.selectedCode, case .row = layout.line(at: state.cursorLine) else {
                try toggleSection()
                break
            }
            state.detailPresented = true
            effects.append(.advertise(code: code))
        case .closeDetail:
            state.detailPresented = false
        case .nextTab, .previousTab:
            let tabs = DetailTab.allCases
            let step = action == .nextTab ? 1 : tabs.count - 1
            state.detailTab = tabs[(tabs.firstIndex(of: state.detailTab)! + step) % tabs.count]
            state.detailPresented = state.selectedCode != nil
        case .selectTab(let tab):
            state.detailTab = tab
            state.detailPresented = state.selectedCode != nil
        case .beginEditing:
            guard let code = state.selectedCode else { break }
            let existing = state.editor?.code == code ? state.editor : nil
            let notes = try results.notes(code: code) ?? ""
            state.editor = existing ?? NotesDraft(code: code, text: notes, cursor: notes.count)
            state.detailPresented = true
            state.detailTab = .notes
        case .editorKey(let key):
            if var draft = state.editor {
                _ = draft.editor.apply(key)
                state.editor = draft
            }
        case .saveNotes:
            if let editor = state.editor { effects.append(.saveNotes(code: editor.code, text: editor.text)) }
        case .cancelEditing:
            state.editor = nil
        case .notesSaved(let code):
            if state.editor?.code == code { state.editor = nil }
            state.status.message = "Notes saved"
            state.status.isError = false
        case .refresh:
            guard !state.status.isRefreshing else {
                state.status.message = "A refresh is already running"
                break
            }
            state.status.isRefreshing = true
            state.status.progress = nil
            state.status.progressLabel = "Refreshing \(state.settings.refreshFeed)…"
            effects.append(.startRefresh(feed: state.settings.refreshFeed))
        case .refreshProgress(let fraction, let label):
            state.status.progress = fraction
            state.status.progressLabel = label
        case .refreshFinished(let message, let failed, let date):
            state.status.isRefreshing = false
            state.status.progress = nil
            state.status.progressLabel = nil
            state.status.message = message
            state.status.isError = failed
            state.status.offline = failed && state.isSample
            if !failed { state.status.lastRefresh = date }
        case .handoff: effects.append(.continueHandoff)
        case .continueActivity(let code):
            if state.isSearching || !state.searchText.isEmpty || state.settings.minimumMagnitude != nil,
               try results.offset(ofCode: code) == nil {
                state.searchText = ""
                state.isSearching = false
                try refetchKeepingSelection()
            }
            guard let offset = try results.offset(ofCode: code) else {
                state.status.message = "Quake \(code) is not in the store; import or refresh first"
                state.status.isError = true
                break
            }
            moveCursor(toOffset: offset, reveal: true)
            state.detailPresented = true
            effects.append(.advertise(code: code))
        case .toggleHelp:
            state.helpVisible.toggle()
            state.helpOffset = 0
        case .dismissOverlay: state.helpVisible = false
        case .scrollHelp(let delta):
            let maximum = Screen.maximumHelpOffset(for: Size(columns: state.columns, rows: state.rows))
            state.helpOffset = max(0, min(maximum, state.helpOffset + delta))
        case .quit: effects.append(.quit)
        case .closeScene: effects.append(.closeScene)
        case .redraw: effects.append(.redraw)
        case .resize(let columns, let rows):
            state.columns = columns
            state.rows = rows
            clampScroll()
            state.helpOffset = min(state.helpOffset, Screen.maximumHelpOffset(for: Size(columns: columns, rows: rows)))
        case .storeChanged: try mergeStoreChanges()
        case .settingsChanged(let settings):
            guard settings != state.settings else { break }
            state.settings = settings
            if let fallback = state.fallBackFromDistanceSortWithoutHome() { state.status.message = fallback }
            try refetchKeepingSelection()
        case .sampleChanged(let isSample):
            state.isSample = isSample
            if !isSample { state.status.offline = false }
        case .showMessage(let message, let isError):
            state.status.message = message
            state.status.isError = isError
        }
        clampScroll()
        try syncSelection()
        if sceneKeysChanged(from: before) { effects.insert(.saveScene, at: 0) }
        return effects
    }

    private func isOutside(_ action: Action) -> Bool {
        switch action {
        case .storeChanged, .settingsChanged, .refreshProgress, .refreshFinished, .notesSaved, .resize, .showMessage,
             .sampleChanged, .continueActivity: true
        default: false
        }
    }

    private func sceneKeysChanged(from before: AppState) -> Bool { before.sceneValues != state.sceneValues }
}
