import Foundation
import QuakeModel

/// What the runtime knows that the model does not: the clock, whether the store is watched,
/// and the machine's time zone.
public struct FrameContext: Sendable {
    /// ms since the epoch.
    public var now: Int64
    public var isLive: Bool
    public var localTimeZone: TimeZone

    public init(now: Int64, isLive: Bool, localTimeZone: TimeZone = .current) {
        self.now = now
        self.isLive = isLive
        self.localTimeZone = localTimeZone
    }
}

extension BrowserState {
    /// The frame for the current state, from the rows on screen and, with the detail open, the
    /// selected quake, both read before (`Effect.readRows`, `Effect.loadDetail`).
    public func screenModel(_ context: FrameContext) -> ScreenModel {
        let size = Size(columns: self.columns, rows: self.rows)
        var header = HeaderModel(
            count: results.countedTotal ?? results.count, sortOrder: self.sort.order, ascending: self.sort.ascending,
            searchText: self.searchText, isSearching: self.isSearching,
            minimumMagnitude: self.settings.minimumMagnitude, sceneID: self.sceneID,
            sampleLabel: self.isSample ? "sample data" : nil)
        header.isOffline = self.status.offline
        header.searchCursor = self.search.cursor
        header.isCountPending = results.countedTotal == nil
        header.filters = self.filters
        header.newCount = self.live.newCount
        if self.isNearHomeActive {
            header.nearHome = "near \(homeLabel) ≤ \(QuakeFormat.homeDistance(kilometres: self.settings.nearRadius, unit: self.settings.distanceUnit))"
        }
        header.declustering = self.decluster.label(for: self.listRequest)
        var model = ScreenModel(size: size, header: header, list: listModel(),
                                detail: detailModel(), status: statusModel(context),
                                showsHelp: self.helpVisible,
                                display: DisplaySettings(now: context.now, timeZone: self.settings.timeZone,
                                                         localTimeZone: context.localTimeZone,
                                                         distanceUnit: self.settings.distanceUnit))
        model.helpOffset = self.helpOffset
        model.overlayFind = self.overlayFind
        model.isOverlayFinding = self.isOverlayFinding
        model.commandPrompt = self.commandLine?.text
        model.commandCursor = self.commandLine?.cursor
        model.commandNotice = self.commandLine?.notice
        if self.logVisible {
            model.messageLog = MessageLogOverlay.found(self.messageLog.entries, self.overlayFind)
            model.messageLogOffset = self.logOffset
        }
        model.display.home = self.settings.home
        model.display.homeName = self.settings.homeName
        model.showsColumnHeaders = self.showsColumnHeaders
        model.keyMode = KeyMap.modes(for: self.app).dropFirst().first
        if self.statistics.isPresented { model.statistics = StatisticsModel(self.statistics) }
        model.sequence = SequenceModel(self.sequence)
        return model
    }

    /// The action for a left click at a cell of `frame` (the frame last drawn).
    public func action(forClickAt x: Int, _ y: Int, in frame: ScreenModel) -> Action? {
        switch Screen.hitTest(frame, x: x, y: y) {
        case .listLine(let index):
            // A click on the sticky header selects that header, scrolled back into place.
            if index == 0, let header = frame.list.stickyHeaderLine { .selectLine(header) }
            else { .selectLine(frame.list.firstLineIndex + index) }
        case .tab(let tab): .selectTab(tab)
        default: nil
        }
    }

    /// Lines the list shows, as `ScreenLayout` lays the screen out; with the detail covering a
    /// narrow terminal, the height the list will have when it comes back.
    public var listHeight: Int {
        let size = Size(columns: self.columns, rows: self.rows)
        let headers = self.showsColumnHeaders
        let covered = self.detailPresented || self.statistics.isPresented || self.sequence.isPresented
        let rows = ScreenLayout(size: size, detailPresented: covered, columnHeaders: headers).listRows
        return max(1, rows > 0 ? rows : ScreenLayout(size: size, detailPresented: false, columnHeaders: headers).listRows)
    }

    /// The display lines on screen with their rows (nil for a row not read yet).
    public func visibleLines() -> [(line: DisplayLine, row: QuakeRow?)] {
        linesOnScreen.compactMap(layout.line(at:)).map { line in
            if case .row(_, let offset) = line { return (line, results.row(at: offset)) }
            return (line, nil)
        }
    }

    private func listModel() -> ListModel {
        var lines = visibleLines().map { line, row -> ListLine in
            switch line {
            case .header(let section):
                return .section(SectionLine(results.sections[section],
                                            isCollapsed: self.collapsedSections.contains(results.sections[section].id)))
            case .row:
                guard let row else { return .unread }
                var line = QuakeLine(row)
                line.isNew = self.live.newCodes.contains(row.code)
                line.isRevised = self.live.revisedCodes.contains(row.code)
                return .quake(line)
            }
        }
        // The sticky header: the top row's section, when its header has scrolled away.
        let sticky = lines.count > 1 ? stickySection : nil
        if let sticky {
            let section = results.sections[sticky]
            lines[0] = .section(SectionLine(section, isCollapsed: self.collapsedSections.contains(section.id)))
        }
        let selected = self.cursorLine - self.topLine
        var model = ListModel(lines: lines, selectedIndex: lines.indices.contains(selected) ? selected : nil,
                              firstLineIndex: self.topLine, totalLines: layout.lineCount,
                              emptyMessage: emptyMessage)
        model.stickyHeaderLine = sticky.map(layout.headerLine(ofSection:))
        model.isCountPending = results.isProvisional
        return model
    }

    /// What narrows the list, as a user would name it: the search, the near-home radius, the `:`
    /// filters and the minimum magnitude, each as a clause of "quakes that …" and what undoes it.
    var narrowing: [(clause: String, undo: String)] {
        var parts: [(clause: String, undo: String)] = []
        if !self.searchText.isEmpty { parts.append(("match “\(self.searchText)”", "Esc clears the search")) }
        if self.isNearHomeActive {
            parts.append(("lie \(withinNearRadius)", "~ shows them all"))
        }
        if !self.filters.isEmpty { parts.append(("pass :\(self.filters.joined(separator: " · "))", ":clear removes the filters")) }
        if let minimum = self.settings.minimumMagnitude { parts.append(("have magnitude \(MagnitudeBin.threshold(minimum)) or more", "m changes the minimum")) }
        return parts
    }

    private var emptyMessage: String {
        // A count still running, with nothing found in the first few milliseconds (a distance
        // sort's counts may already say there is nothing to find).
        if results.isProvisional, results.countedTotal != 0 { return "Looking for matching quakes…" }
        // Several things narrow the list: every one is named, with what undoes it.
        let narrowing = narrowing
        if narrowing.count > 1 {
            return "No quakes \(narrowing.map(\.clause).joined(separator: " and ")). \(narrowing.map(\.undo).joined(separator: "; "))."
        }
        if !self.searchText.isEmpty { return "No quakes match “\(self.searchText)”. Esc clears the search." }
        if self.isNearHomeActive { return "No quakes \(withinNearRadius). ~ shows them all." }
        if !self.filters.isEmpty {
            return "No quakes pass the filters (\(self.filters.joined(separator: " · "))). :clear removes them."
        }
        if let minimum = self.settings.minimumMagnitude {
            return "No quakes of magnitude \(MagnitudeBin.threshold(minimum)) or more. m changes the filter."
        }
        return "No quakes yet. r refreshes from USGS; quaketui import FILE loads a feed."
    }

    private func detailModel() -> DetailModel? {
        guard self.detailPresented, let code = self.selectedCode else { return nil }
        // Drawn from state: the runtime read the quake (Effect.loadDetail) before this frame.
        let stored = self.detail?.code == code ? self.detail?.quake : nil
        var detail = stored.map { DetailModel(tab: self.detailTab, quake: $0) }
            ?? DetailModel(tab: self.detailTab, record: nil)
        // The last grid counted, while a newer count runs too: its cells are places on the globe,
        // drawn where they fall in the window shown now.
        detail.map = MapDensityModel(zoom: self.map.zoom, grid: self.map.grid, isPending: self.map.isPending)
        if let draft = self.editor, draft.code == code {
            detail.notes = draft.editor
            detail.notes.isEditing = self.isEditing
            detail.notes.isDirty = draft.text != (stored?.notes ?? "")
        }
        return detail
    }

    private func statusModel(_ context: FrameContext) -> StatusModel {
        let status = self.status
        var model = StatusModel(isLive: context.isLive,
                                lastRefresh: status.lastRefresh.map { Int64($0.timeIntervalSince1970 * 1000) })
        if status.isRefreshing {
            model.progress = StatusProgress(fraction: status.progress, label: status.progressLabel ?? "refreshing")
        }
        model.autoRefresh = RefreshStatusText.make(self.live.refresh, now: context.now,
                                                   isPolling: self.settings.autoRefreshInterval > 0)
        if let shown = status.shown {
            model.message = StatusMessage(shown, isError: status.showsError)
        }
        return model
    }
}
