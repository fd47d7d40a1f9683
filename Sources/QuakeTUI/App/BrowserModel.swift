import Foundation
import QuakeStore

/// The browser's logic for one scene: state, the live results, and what every action does.
///
/// Rendering and the terminal are elsewhere; this reads the store only through a lazy
/// `ResultsSource` (the live `FetchedResultsController`, or an in-memory fake in tests), and
/// everything else it needs read or written (the detail row, notes, saves) is an `Effect` whose
/// result comes back as an `Action`.
///
/// ```swift
/// let model = try BrowserModel(state: restored, container: container)
/// let effects = try model.send(.moveDown)
/// ```
public final class BrowserModel {
    /// Everything the browser knows besides the results source: the scene state, the layout,
    /// held keys, the rollback base, the kept selection line, the restored placement.
    public internal(set) var state: BrowserState
    public let results: any ResultsSource

    /// `state.layout`: the display lines of the results the source holds.
    public internal(set) var layout: DisplayLayout {
        get { state.layout }
        set { state.layout = newValue }
    }
    /// Lines the list shows, as `ScreenLayout` lays the screen out; with the detail covering a
    /// narrow terminal, the height the list will have when it comes back.
    public var listHeight: Int {
        let size = Size(columns: state.columns, rows: state.rows)
        let headers = state.showsColumnHeaders
        let covered = state.detailPresented || state.statistics.isPresented
        let rows = ScreenLayout(size: size, detailPresented: covered, columnHeaders: headers).listRows
        return max(1, rows > 0 ? rows : ScreenLayout(size: size, detailPresented: false, columnHeaders: headers).listRows)
    }

    public convenience init(state: AppState, container: PersistentContainer) throws {
        try self.init(state: state, source: FetchedResultsController(container: container, request: state.request))
    }

    /// A model over any results source (configured here for the state's request if it is not already).
    public init(state: AppState, source: any ResultsSource) throws {
        var state = state
        let fallback = state.fallBackFromDistanceSortWithoutHome()
        self.state = BrowserState(app: state)
        results = source
        if source.request != state.request { try source.configure(state.request) }
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
        try results.setCollapsedSections(state.collapsedSections)
        let savedHelpOffset = state.helpOffset
        state.helpOffset = min(state.helpOffset, Screen.maximumHelpOffset(for: Size(columns: state.columns, rows: state.rows)))
        state.logOffset = min(state.logOffset, MessageLogOverlay.maximumOffset(
            state.messageLog.entries, in: Rect(Size(columns: state.columns, rows: state.rows)), zone: state.settings.resolvedTimeZone))
        state.selectedCode = saved.selectedCode
        if let id = saved.selectedSection, let section = results.sections.firstIndex(where: { $0.id == id }) {
            moveCursor(to: layout.headerLine(ofSection: section))
            // On a header the selected quake is the last one shown; one deleted meanwhile is gone.
            if let code = saved.selectedCode, try results.quake(code: code) == nil { state.selectedCode = nil }
        } else if let code = saved.selectedCode, let offset = try results.anchor(code: code) {
            relayout()  // a provisional source re-reads its window around the anchor
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
        state.restoredPlacement = RestoredPlacement(selectionLine: state.cursorLine - state.topLine, helpOffset: savedHelpOffset)
        if let id = saved.selectedSection, results.isProvisional { state.restoredPlacement?.section = id }
        state.keptSelectionLine = results.isProvisional ? state.cursorLine - state.topLine : nil
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

    // MARK: Actions

    /// Applies `action` at `now` (the runtime reads the clock once per action) and returns the
    /// effects for the runtime to perform.
    ///
    /// - Throws: what the results source reported; the state is then exactly as it was before
    ///   the action (no half-applied search or sort), and `failureMessage(for:_:)` says what failed.
    ///
    /// While a count is pending (a provisional window), an action that needs the whole list's
    /// sections (`Action.needsCompleteSections`: `g`, `G`, a section jump…) is held and applied,
    /// in order, as soon as the count settles, and so is every key after it; every other action
    /// acts on the window at once.
    @discardableResult
    public func send(_ action: Action, at now: Date) throws -> [Effect] {
        let previous = state.now
        state.now = now
        do { return try send(action) } catch {
            state.now = previous
            throw error
        }
    }

    /// Applies `action` at the time of the last one (`state.now`): the runtime gives every
    /// action its time (`send(_:at:)`); an action it sends back from an effect keeps it.
    @discardableResult
    public func send(_ action: Action) throws -> [Effect] {
        // Behind a held key, later keys wait too: they were typed after it.
        if results.isProvisional, action.needsCompleteSections || (!state.heldForCounts.isEmpty && !isOutside(action)) {
            state.heldForCounts.append(action)
            return []
        }
        var effects = try apply(action)
        while !results.isProvisional, !state.heldForCounts.isEmpty {
            effects += try apply(state.heldForCounts.removeFirst())
        }
        return effects
    }

    private func apply(_ action: Action) throws -> [Effect] {
        // A pending count that fails undoes the actions that asked for it.
        let before = (action == .resultsSettled ? state.pendingBase : nil) ?? state.app
        var succeeded = false
        defer { if !succeeded { rollBack(to: before) } }
        var effects: [Effect] = []
        var reloadDetail = false
        // A provisional window reads past the folded sections (a fold itself waits for the count).
        try results.setCollapsedSections(state.collapsedSections)
        if !isOutside(action) {
            state.restoredPlacement = nil
            state.keptSelectionLine = nil
            state.status.message = nil
            state.status.notices = []
            state.status.isError = false
        }
        let messageBefore = state.status.message, noticesBefore = state.status.notices.count
        switch action {
        case .moveUp: moveSelection(by: -1)
        case .moveDown: moveSelection(by: 1)
        case .pageUp: moveSelection(by: -listHeight)
        case .pageDown: moveSelection(by: listHeight)
        case .halfPageUp: moveSelection(by: -max(1, listHeight / 2))
        case .halfPageDown: moveSelection(by: max(1, listHeight / 2))
        case .first: moveToFirstQuake()
        case .last: moveToLastQuake()
        case .previousSection: jumpSection(by: -1)
        case .nextSection: jumpSection(by: 1)
        case .scroll(let lines): scroll(by: lines)
        case .selectLine(let line): moveCursor(to: line)
        case .toggleSection: try toggleSection()
        case .nextSortOrder:
            state.sort = QuakeSortDescriptor(state.sort.order.next(hasHome: state.settings.home != nil))
            try refetchKeepingSelection()
        case .reverseSortDirection:
            state.sort.ascending.toggle()
            try refetchKeepingSelection()
        case .toggleColumnHeaders: toggleColumnHeaders()
        case .cycleMinimumMagnitude:
            let presets = AppSettings.magnitudePresets
            let index = presets.firstIndex(of: state.settings.minimumMagnitude) ?? 0
            state.settings.minimumMagnitude = presets[(index + 1) % presets.count]
            try refetchKeepingSelection()
            effects.append(.saveSettings(state.settings))
            state.status.message = state.settings.minimumMagnitude.map { "Showing magnitude \($0) and up" } ?? "Showing all magnitudes"
        case .setHomeToSelection: effects += setHomeToSelection()
        case .toggleNearHome: try toggleNearHome()
        case .beginSearch: state.isSearching = true
        case .searchInput(let text):
            state.search.insert(text)
            try refetchKeepingSelection()
        case .searchEdit(let edit):
            // A move refetches nothing; only a changed text does.
            if state.search.apply(edit) { try refetchKeepingSelection() }
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
            if state.editor?.code != code {
                // The draft opens on the stored notes: read them first (Effect.loadDetail) unless they are.
                if let loaded = state.detail, loaded.code == code {
                    openDraft(code: code, notes: loaded.quake?.notes)
                } else {
                    state.editor = nil
                    state.notesRequest = code
                }
            }
            state.detailPresented = true
            state.detailTab = .notes
        case .detailLoaded(let code, let quake):
            guard code == state.selectedCode else { break }  // the selection moved on meanwhile
            state.detail = LoadedQuake(code: code, quake: quake)
            // A draft restored from the scene file starts from the notes stored now.
            if state.editor?.code == code, state.editor?.base == nil { state.editor?.base = quake?.notes ?? "" }
            if state.notesRequest == code {
                state.notesRequest = nil
                if state.editor?.code != code { openDraft(code: code, notes: quake?.notes) }
            }
        case .editorKey(let key):
            if var draft = state.editor {
                _ = draft.editor.apply(key)
                state.editor = draft
            }
        case .saveNotes: effects += try saveNotes()
        case .cancelEditing: try cancelEditing()
        case .answer(let answer): effects += self.answer(answer)
        case .notesConflict(let code, let theirs): notesConflict(code: code, theirs: theirs)
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
            state.status.isError = failed
            state.status.offline = failed && state.isSample
            // On the sample (a new user, offline) a few words that fit; the log keeps the sentence.
            state.status.message = state.status.offline ? RefreshStatusText.sampleShown(after: message) : message
            if !failed { state.status.lastRefresh = date }
        case .handoff: effects.append(.continueHandoff)
        case .openInBrowser: effects += openSelectedQuake()
        case .copyLink: effects += copySelectedQuake()
        case .quakeRead(let code, let quake, let use): effects += try quakeRead(code: code, quake, for: use)
        case .continueActivity(let code): effects += try show(code: code)
        case .toggleHelp:
            state.helpVisible.toggle()
            state.helpOffset = 0
        case .dismissOverlay: state.helpVisible = false
        case .paste(let text): try paste(text)
        case .toggleMessageLog, .scrollMessageLog: updateMessageLog(action)
        case .beginCommand, .commandInput, .commandEdit, .commandBackspace, .runCommand, .cancelCommand, .commandHistory,
             .completeCommand, .eventTypesRead:
            effects += try updateCommandLine(action)
        case .scrollHelp(let delta):
            let maximum = Screen.maximumHelpOffset(for: Size(columns: state.columns, rows: state.rows))
            state.helpOffset = max(0, min(maximum, state.helpOffset + delta))
        case .quit: effects.append(.quit)
        case .closeScene: closeScene()
        case .redraw: effects.append(.redraw)
        case .resize(let columns, let rows):
            state.columns = columns
            state.rows = rows
            placeRestoredScreenAgain()
            clampScroll()
            state.helpOffset = min(state.helpOffset, Screen.maximumHelpOffset(for: Size(columns: columns, rows: rows)))
        case .storeChanged: reloadDetail = try mergeStoreChanges()
        case .settingsChanged(let settings):
            guard settings != state.settings else { break }
            state.settings = settings
            state.rowFilters = FilterCommand.rowFilters(state.rowFilters, of: state.filters, in: settings.resolvedTimeZone)
            if let fallback = state.app.fallBackFromDistanceSortWithoutHome() { state.status.message = fallback }
            try refetchKeepingSelection()
        case .sampleChanged(let isSample):
            state.isSample = isSample
            if !isSample { state.status.offline = false }
        case .showMessage(let message, let isError):
            state.status.message = message
            state.status.isError = isError
        case .showNotices(let notices):
            state.status.notices = Self.newNotices(notices, showing: state.status.shown) + state.status.notices
        // Live monitor (issue 13).
        case .nextNewQuake: try jumpToNewQuake(forward: true)
        case .previousNewQuake: try jumpToNewQuake(forward: false)
        case .markAllSeen: markAllSeen()
        case .quakesArrived(let arrivals): effects += receive(arrivals)
        case .refreshStatusChanged(let status): state.live.refresh = status
        case .resultsSettled: reloadDetail = try settleResults()
        case .toggleStatistics: toggleStatistics()
        case .statisticsComputed(let generation, let statistics): receiveStatistics(generation: generation, .success(statistics))
        case .statisticsFailed(let generation, let message):
            receiveStatistics(generation: generation, .failure(StatisticsFailure(message)))
        case .zoomMap(let step): zoomMap(by: step)
        case .densityComputed(let generation, let grid): receiveDensity(generation: generation, grid)
        }
        // The detail view and the statistics share a pane: the one opened last has it.
        if state.detailPresented, state.statistics.isPresented { state.statistics.isPresented = false }
        state.pendingBase = results.isProvisional ? (state.pendingBase ?? before) : nil
        clampScroll()
        try syncSelection()
        logMessage(action, before: messageBefore, noticesBefore: noticesBefore)
        if sceneKeysChanged(from: before) { effects.insert(.saveScene, at: 0) }
        effects += detailReads(reloading: reloadDetail)
        effects += statisticsReads(storeChanged: action == .storeChanged)
        effects += densityReads(storeChanged: action == .storeChanged)
        succeeded = true
        return effects
    }

    private func isOutside(_ action: Action) -> Bool {
        switch action {
        case .quakeRead: true  // the answer to a read a key asked for (Effect.readQuake)
        case .storeChanged, .settingsChanged, .refreshProgress, .refreshFinished, .notesSaved, .resize, .showMessage, .showNotices,
             .sampleChanged, .continueActivity, .detailLoaded, .notesConflict, .quakesArrived, .refreshStatusChanged, .resultsSettled,
             .statisticsComputed, .statisticsFailed, .densityComputed: true
        default: false
        }
    }

    private func sceneKeysChanged(from before: AppState) -> Bool { before.sceneValues != state.app.sceneValues }
}
