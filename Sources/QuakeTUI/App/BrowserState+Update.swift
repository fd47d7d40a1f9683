import Foundation
import QuakeModel

/// The update: what every action does to the browser's state, and the effects it asks the
/// runtime for. A function of values: no store, thread or clock here. The results it needs come
/// in as actions (`Action.resultsAnswered`, `Action.rowsRead`), answers to the effects it asked
/// for (`Effect.queryResults`, `Effect.readRows`), and the time comes with the action.
///
/// ```swift
/// var state = BrowserState(app: saved, results: snapshot)
/// let effects = state.update(.moveDown, at: now)
/// ```
extension BrowserState {
    /// Applies `action` at `now` (the runtime reads the clock once per action) and returns the
    /// effects for the runtime to perform.
    public mutating func update(_ action: Action, at now: Date) -> [Effect] {
        self.now = now
        return update(action)
    }

    /// Applies `action` at the time of the last one (`now`): an answer to an effect keeps the
    /// time of the action that asked for it.
    ///
    /// While a count is pending, an action that needs what the results lack until it settles
    /// (`waitsForCount`) is held and applied, in order, as soon as the count settles, and so is
    /// every key after it; every other action acts on the results shown at once. While a query
    /// is unanswered, every key waits for its answer.
    public mutating func update(_ action: Action) -> [Effect] {
        // Behind a held key, later keys wait too: they were typed after it.
        let outside = isOutside(action)
        if waitsForCount(action) || (results.pendingCount != nil && !heldForCounts.isEmpty && !outside)
            || (awaitsResults && !outside) {
            heldForCounts.append(action)
            return []
        }
        var effects = apply(action)
        // Held keys go on once the results are whole, answered and their selection read.
        while !heldForCounts.isEmpty, results.pendingCount == nil, !awaitsResults, selectionIsRead {
            effects += apply(heldForCounts.removeFirst())
        }
        return effects
    }

    /// Whether `action` waits for the pending count: a provisional window lacks the whole list's
    /// sections (`Action.needsCompleteSections`: `g`, `G`, a section jump…); results that a merge
    /// over its budget left as they were lack the new quakes (`Action.needsMergedResults`: `n`).
    func waitsForCount(_ action: Action) -> Bool {
        guard results.pendingCount != nil else { return false }
        return results.isProvisional ? action.needsCompleteSections : action.needsMergedResults
    }

    /// Whether every row on screen was read: until then the selection may be about to change.
    var selectionIsRead: Bool { offsetsOnScreen.allSatisfy(results.rows.covers) }

    private mutating func apply(_ action: Action) -> [Effect] {
        let before = self.app
        var effects: [Effect] = []
        var reloadDetail = false
        if !isOutside(action) {
            self.restoredPlacement = nil
            self.keptSelectionLine = nil
            self.status.message = nil
            self.status.filterReport = nil
            self.commandLine?.notice = nil
            self.status.notices = []
            self.status.isError = false
        }
        let messageBefore = self.status.message, noticesBefore = self.status.notices.count
        let queryBefore = awaitedQuery
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
        case .toggleSection: toggleSection()
        case .nextSortOrder:
            self.sort = QuakeSortDescriptor(self.sort.order.next(hasHome: self.settings.home != nil))
            effects += refetchKeepingSelection()
        case .reverseSortDirection:
            self.sort.ascending.toggle()
            effects += refetchKeepingSelection()
        case .toggleColumnHeaders: toggleColumnHeaders()
        case .cycleMinimumMagnitude:
            let presets = AppSettings.magnitudePresets
            let index = presets.firstIndex(of: self.settings.minimumMagnitude) ?? 0
            self.settings.minimumMagnitude = presets[(index + 1) % presets.count]
            effects += refetchKeepingSelection()
            effects.append(.saveSettings(self.settings))
            self.status.message = self.settings.minimumMagnitude.map { "Showing magnitude \(MagnitudeBin.threshold($0)) and up" } ?? "Showing all magnitudes"
        case .setHomeToSelection: effects += setHomeToSelection()
        case .toggleNearHome: effects += toggleNearHome()
        case .beginSearch: self.isSearching = true
        case .searchInput(let text):
            sayLeftOut(self.search.insert(text), from: "typed", field: "The search")
            effects += refetchKeepingSelection()
        case .searchEdit(let edit):
            // A move refetches nothing; only a changed text does.
            if self.search.apply(edit) { effects += refetchKeepingSelection() }
        case .commitSearch: self.isSearching = false
        case .cancelSearch:
            self.isSearching = false
            if !self.searchText.isEmpty {
                self.searchText = ""
                effects += refetchKeepingSelection()
            }
        case .openDetail:
            guard let code = self.selectedCode, case .row = layout.line(at: self.cursorLine) else {
                toggleSection()
                break
            }
            self.detailPresented = true
            effects.append(.advertise(code: code))
        case .closeDetail:
            self.detailPresented = false
        case .nextTab, .previousTab:
            let tabs = DetailTab.allCases
            let step = action == .nextTab ? 1 : tabs.count - 1
            self.detailTab = tabs[(tabs.firstIndex(of: self.detailTab)! + step) % tabs.count]
            self.detailPresented = self.selectedCode != nil
        case .selectTab(let tab):
            self.detailTab = tab
            self.detailPresented = self.selectedCode != nil
        case .beginEditing:
            guard let code = self.selectedCode else { break }
            if self.editor?.code != code {
                // The draft opens on the stored notes: read them first (Effect.loadDetail) unless they are.
                if let loaded = self.detail, loaded.code == code {
                    openDraft(code: code, notes: loaded.quake?.notes)
                } else {
                    self.editor = nil
                    self.notesRequest = code
                }
            }
            self.detailPresented = true
            self.detailTab = .notes
        case .detailLoaded(let code, let quake):
            guard code == self.selectedCode else { break }  // the selection moved on meanwhile
            self.detail = LoadedQuake(code: code, quake: quake)
            // A draft restored from the scene file starts from the notes stored now.
            if self.editor?.code == code, self.editor?.base == nil { self.editor?.base = quake?.notes ?? "" }
            if self.notesRequest == code {
                self.notesRequest = nil
                if self.editor?.code != code { openDraft(code: code, notes: quake?.notes) }
            }
        case .editorKey(let key):
            if var draft = self.editor {
                if draft.editor.isFull(for: key) {
                    sayLeftOut(key == .tab ? 4 : 1, from: "typed", field: Self.notesField, capacity: NotesEditor.capacity)
                }
                _ = draft.editor.apply(key)
                self.editor = draft
            }
        case .saveNotes: effects += saveNotes()
        case .cancelEditing: cancelEditing()
        case .answer(let answer): effects += self.answer(answer)
        case .notesConflict(let code, let theirs): notesConflict(code: code, theirs: theirs)
        case .notesSaved(let code):
            if self.editor?.code == code { self.editor = nil }
            self.status.message = "Notes saved"
            self.status.isError = false
        case .refresh:
            guard !self.status.isRefreshing else {
                self.status.message = "A refresh is already running"
                break
            }
            self.status.isRefreshing = true
            self.status.progress = nil
            self.status.progressLabel = "Refreshing \(self.settings.refreshFeed)…"
            effects.append(.startRefresh(feed: self.settings.refreshFeed))
        case .refreshProgress(let fraction, let label):
            self.status.progress = fraction
            self.status.progressLabel = label
        case .refreshFinished(let message, let failed, let date, let kind):
            self.status.isRefreshing = false
            self.status.progress = nil
            self.status.progressLabel = nil
            self.status.isError = failed
            let wasOffline = self.status.offline
            self.status.offline = failed && self.isSample
            // A few words that fit (on the sample: a new user, offline); the log keeps the sentence.
            self.status.message = !failed ? message
                : self.status.offline ? RefreshStatusText.sampleShown(kind: kind, again: wasOffline)
                : RefreshStatusText.refreshFailed(after: message, kind: kind)
            if !failed { self.status.lastRefresh = date }
        case .handoff: effects.append(.continueHandoff)
        case .openInBrowser: effects += openSelectedQuake()
        case .copyLink: effects += copySelectedQuake()
        case .quakeRead(let code, let quake, let use): effects += quakeRead(code: code, quake, for: use)
        case .continueActivity(let code): effects += show(code: code)
        case .toggleHelp:
            self.helpVisible.toggle()
            self.helpOffset = 0
            endOverlayFind(keep: false)
        case .dismissOverlay:
            self.helpVisible = false
            endOverlayFind(keep: false)
        case .beginOverlayFind, .overlayFindInput, .overlayFindBackspace, .endOverlayFind: updateOverlayFind(action)
        case .unboundKey(let name): self.status.message = Self.unboundKeyMessage(name)
        case .paste(let text): effects += paste(text)
        case .toggleMessageLog, .scrollMessageLog: updateMessageLog(action)
        case .beginCommand, .commandInput, .commandEdit, .commandBackspace, .runCommand, .cancelCommand, .commandHistory,
             .completeCommand, .storedValuesRead:
            effects += updateCommandLine(action)
        case .scrollHelp(let delta):
            let maximum = Screen.maximumHelpOffset(for: Size(columns: self.columns, rows: self.rows), finding: self.overlayFind)
            self.helpOffset = Self.scrolled(self.helpOffset, by: delta, maximum: maximum)
        case .quit: effects.append(.quit)
        case .closeScene: closeScene()
        case .redraw: effects.append(.redraw)
        case .resize(let columns, let rows):
            self.columns = columns
            self.rows = rows
            placeRestoredScreenAgain()
            clampScroll()
            self.helpOffset = min(self.helpOffset, Screen.maximumHelpOffset(for: Size(columns: columns, rows: rows), finding: self.overlayFind))
        case .storeChanged: effects += queryResults(.merge, purpose: .keepSelection(line: keptLine))
        case .settingsChanged(let settings):
            guard settings != self.settings else { break }
            self.settings = settings
            self.rowFilters = FilterCommand.rowFilters(self.rowFilters, of: self.filters, in: settings.resolvedTimeZone)
            if let fallback = self.app.fallBackFromDistanceSortWithoutHome() { self.status.message = fallback }
            effects += refetchKeepingSelection()
        case .sampleChanged(let isSample):
            let wasSample = self.isSample
            self.isSample = isSample
            if !isSample {
                // The sample's message goes with it (issue 56.6), and the list, a new history
                // now, starts at its first quake (the newest, in the default order).
                if self.status.offline, self.status.message?.hasSuffix(RefreshStatusText.sampleSuffix) == true {
                    self.status.message = nil
                    self.status.isError = false
                }
                self.status.offline = false
                if wasSample { moveToFirstQuake() }
            }
        case .showMessage(let message, let isError):
            self.status.message = message
            self.status.isError = isError
        case .showNotices(let notices):
            self.status.notices = Self.newNotices(notices, showing: self.status.shown) + self.status.notices
        // Live monitor (issue 13).
        case .nextNewQuake: effects += jumpToNewQuake(forward: true)
        case .previousNewQuake: effects += jumpToNewQuake(forward: false)
        case .markAllSeen: markAllSeen()
        case .quakesArrived(let arrivals): effects += receive(arrivals)
        case .focusChanged(let gained): changeFocus(gained)
        case .refreshStatusChanged(let status):
            logRefreshFailure(status)
            logRefreshNotice(status)
            self.live.refresh = status
        case .resultsSettled(let settled):
            reloadDetail = receive(settled)
            if let report = self.status.filterReport, self.status.message == report { reportFilters() }
        case .countFailed(let count, let reason): effects += countFailed(count, reason: reason)
        case .resultsAnswered(let answer):
            let received = receive(answer)
            effects += received.effects
            reloadDetail = received.reloadDetail
            // The filters' report counts what the list holds now (exact once the count settles).
            if let report = self.status.filterReport, self.status.message == report { reportFilters() }
        case .resultsFailed(let query, let reason): effects += resultsFailed(query, reason: reason)
        case .rowsRead(let rows, let generation): receiveRows(rows, generation: generation)
        case .toggleStatistics: toggleStatistics()
        case .statisticsComputed(let generation, let statistics): receiveStatistics(generation: generation, .success(statistics))
        case .statisticsPartial(let generation, let statistics): receivePartialStatistics(generation: generation, statistics)
        case .statisticsProgress(let generation, let fraction): receiveStatisticsProgress(generation: generation, fraction: fraction)
        case .statisticsFailed(let generation, let message):
            receiveStatistics(generation: generation, .failure(StatisticsFailure(message)))
        case .zoomMap(let step): zoomMap(by: step)
        case .densityComputed(let generation, let grid): receiveDensity(generation: generation, grid)
        case .toggleSequence: toggleSequence()
        case .closeSequence: closeSequence()
        case .sequenceComputed(let generation, let sequence): receiveSequence(generation: generation, .success(sequence))
        case .sequenceFailed(let generation, let message):
            receiveSequence(generation: generation, .failure(SequenceUnavailable(message)))
        case .listDeclustered(let generation, let kept): receiveDeclustering(generation: generation, .success(kept))
        case .listDeclusteringProgress(let generation, let fraction):
            receiveDeclusteringProgress(generation: generation, fraction: fraction)
        case .listDeclusteringFailed(let generation, let message):
            receiveDeclustering(generation: generation, .failure(StatisticsFailure(message)))
        }
        // The background applied to the list changed (an answer, `:decluster`) without this
        // action asking for the list again: ask for it, filtered by the new one.
        if self.decluster.appliedSet(for: self.listRequest) != before.decluster.appliedSet(for: before.listRequest),
           awaitedQuery == queryBefore {
            effects += refetchKeepingSelection()
        }
        // What a failure of the query this action asked would say it was doing (an answer's
        // follow-up query keeps the action that started it).
        if let query = awaitedQuery, query != queryBefore {
            switch action {
            case .resultsAnswered, .resultsFailed, .countFailed: if awaitedFor == nil { awaitedFor = action }
            default: awaitedFor = action
            }
        } else if awaitedQuery == nil {
            awaitedFor = nil
        }
        // The detail view and the statistics share a pane: the one opened last has it.
        if self.detailPresented, self.statistics.isPresented { self.statistics.isPresented = false }
        if self.detailPresented || self.statistics.isPresented, action != .toggleSequence { self.sequence.mainshock = nil }
        // Where a count that fails puts everything back: the state before the first action
        // whose request is still being counted (or asked for).
        self.pendingBase = results.isProvisional || awaitsResults ? (self.pendingBase ?? before) : nil
        clampScroll()
        syncSelection()
        logMessage(action, before: messageBefore, noticesBefore: noticesBefore)
        if sceneKeysChanged(from: before) { effects.insert(.saveScene, at: 0) }
        if reloadDetail { detailIsStale = true }
        // While rows on screen are being read the selection may be about to change: the reads
        // wait for `Action.rowsRead`.
        let selectionIsRead = selectionIsRead
        if selectionIsRead { effects += detailReads() }
        // Rows read change neither the list's request nor the map's window.
        if case .rowsRead = action {} else {
            effects += declusterReads(storeChanged: action == .storeChanged)
            effects += statisticsReads(storeChanged: action == .storeChanged)
            effects += sequenceReads(storeChanged: action == .storeChanged)
            if selectionIsRead { effects += densityReads(storeChanged: action == .storeChanged) }
        }
        effects += rowReads()
        return effects
    }

    /// Actions that come from outside (the store, other panes, answers to effects) rather than
    /// the user: they leave the status line and the restored placement alone, and are never held.
    private func isOutside(_ action: Action) -> Bool {
        switch action {
        case .quakeRead: true  // the answer to a read a key asked for (Effect.readQuake)
        case .storeChanged, .settingsChanged, .refreshProgress, .refreshFinished, .notesSaved, .resize, .showMessage, .showNotices,
             .sampleChanged, .continueActivity, .detailLoaded, .notesConflict, .quakesArrived, .focusChanged, .refreshStatusChanged, .resultsSettled,
             .countFailed, .resultsAnswered, .resultsFailed, .rowsRead, .statisticsComputed, .statisticsPartial, .statisticsProgress,
             .statisticsFailed, .densityComputed,
             .sequenceComputed, .sequenceFailed, .listDeclustered, .listDeclusteringProgress, .listDeclusteringFailed: true
        default: false
        }
    }

    /// What a key bound to nothing says: `h does nothing here; ? lists the keys`.
    static func unboundKeyMessage(_ name: String) -> String { "\(name) does nothing here; ? lists the keys" }

    static let commandLineField = "The : line"
    static let notesField = "The notes editor"

    /// Says on the status line that a field took only part of what was typed or pasted
    /// (`LineEditor.capacity`, `NotesEditor.capacity`); nothing when all of it fitted.
    mutating func sayLeftOut(_ count: Int, from source: String, field: String, capacity: Int = LineEditor.capacity) {
        guard count > 0 else { return }
        self.status.message = "\(field) holds at most \(CountFormat.grouped(capacity)) characters: "
            + "\(CountFormat.grouped(count)) \(source) \(count == 1 ? "character" : "characters") left out"
        // The `:` line covers the status line: it says so in place of its hints.
        let message = self.status.message
        if field == Self.commandLineField { self.commandLine?.notice = message }
    }

    private func sceneKeysChanged(from before: AppState) -> Bool { before.sceneValues != self.app.sceneValues }

    /// The awaited query could not be answered (`Action.resultsFailed`): the scene state goes
    /// back to what it was before the first action whose request is still pending (a failed
    /// count, a search or sort the source could not apply), keeping what came from outside
    /// meanwhile (the log, arrivals, the terminal's size); keys held for the list that never came
    /// are dropped; the status line says what failed; and the results of that request are asked
    /// for again (the source kept them).
    mutating func resultsFailed(_ query: ResultsQuery, reason: String) -> [Effect] {
        // An older query's failure: the newer one's answer holds all it changed.
        guard query == awaitedQuery else { return [] }
        awaitedQuery = nil
        let what = (awaitedFor ?? .redraw).whatFailed
        awaitedFor = nil
        // A failed resume asks for nothing more: the next key or change asks again.
        var resumes = true
        if case .resume = query.step { resumes = false }
        return rollBack(saying: "\(what): \(reason)", resumes: resumes)
    }

    /// The background count the results wait for failed (`Action.countFailed`): as a failed
    /// query, from the state before the first action whose request was being counted. A failure
    /// of an older count (a newer request asked or answered since) changes nothing.
    mutating func countFailed(_ count: Int, reason: String) -> [Effect] {
        guard !awaitsResults, results.pendingCount == count else { return [] }
        return rollBack(saying: "\(Action.countFailure): \(reason)", resumes: true)
    }

    /// Puts the scene state back to `pendingBase`, keeping what came from outside, drops the
    /// held keys, says `message`, and (`resumes`) asks for the results of that state's request.
    private mutating func rollBack(saying message: String, resumes: Bool) -> [Effect] {
        if let base = pendingBase {
            let kept = (log: self.messageLog, live: self.live, status: self.status, columns: self.columns, rows: self.rows)
            self.app = base
            (self.messageLog, self.live, self.status, self.columns, self.rows) = kept
            pendingBase = nil
        }
        self.keptSelectionLine = nil
        // Keys held for that list are dropped: it never came, and they would clear the message.
        heldForCounts = []
        self.status.message = message
        self.status.isError = true
        guard resumes else { return [] }
        // Where a failure of the resume goes back to: here.
        pendingBase = self.app
        return queryResults(.resume(self.request), purpose: .keepSelection(line: self.cursorLine - self.topLine))
    }

    /// Results the runtime put back after a failure (the source on the state's request again),
    /// with the rows on screen read: the selection stays where it was, or the nearest line.
    package mutating func replaceResults(_ snapshot: ResultsSnapshot) {
        results = snapshot
        awaitedQuery = nil
        relayout()
        clampCursor()
        clampScroll()
        syncSelection()
    }
}
