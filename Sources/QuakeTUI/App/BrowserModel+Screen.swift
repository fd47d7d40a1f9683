import Foundation
import QuakeStore

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

extension BrowserModel {
    /// The frame for the current state: reads only the rows on screen and, with the detail
    /// open, the selected quake.
    public func screenModel(_ context: FrameContext) throws -> ScreenModel {
        let size = Size(columns: state.columns, rows: state.rows)
        var header = HeaderModel(
            count: results.countedTotal ?? results.count, sortOrder: state.sort.order, ascending: state.sort.ascending,
            searchText: state.searchText, isSearching: state.isSearching,
            minimumMagnitude: state.settings.minimumMagnitude, sceneID: state.sceneID,
            sampleLabel: state.isSample ? "sample data" : nil)
        header.isOffline = state.status.offline
        header.searchCursor = state.search.cursor
        header.isCountPending = results.countedTotal == nil
        header.filters = state.filters
        header.newCount = state.live.newCount
        header.newIsAtLeast = state.live.isOverflowing
        if state.isNearHomeActive {
            header.nearHome = "near home ≤ \(QuakeFormat.homeDistance(kilometres: state.settings.nearRadius, unit: state.settings.distanceUnit))"
        }
        var model = ScreenModel(size: size, header: header, list: try listModel(),
                                detail: detailModel(), status: statusModel(context),
                                showsHelp: state.helpVisible,
                                display: DisplaySettings(now: context.now, timeZone: state.settings.timeZone,
                                                         localTimeZone: context.localTimeZone,
                                                         distanceUnit: state.settings.distanceUnit))
        model.helpOffset = state.helpOffset
        model.commandPrompt = state.commandLine?.text
        model.commandCursor = state.commandLine?.cursor
        if state.logVisible {
            model.messageLog = state.messageLog.entries
            model.messageLogOffset = state.logOffset
        }
        model.display.home = state.settings.home
        model.showsColumnHeaders = state.showsColumnHeaders
        if state.statistics.isPresented { model.statistics = StatisticsModel(state.statistics) }
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

    private func listModel() throws -> ListModel {
        var lines = try visibleLines().map { line, row -> ListLine in
            switch line {
            case .header(let section):
                return .section(SectionLine(results.sections[section],
                                            isCollapsed: state.collapsedSections.contains(results.sections[section].id)))
            case .row:
                guard let row else { return .quake(QuakeLine(code: "", magnitude: nil, place: "", time: 0)) }
                var line = QuakeLine(row)
                line.isNew = state.live.newCodes.contains(row.code)
                return .quake(line)
            }
        }
        // The sticky header: the top row's section, when its header has scrolled away.
        let sticky = lines.count > 1 ? stickySection : nil
        if let sticky {
            let section = results.sections[sticky]
            lines[0] = .section(SectionLine(section, isCollapsed: state.collapsedSections.contains(section.id)))
        }
        let selected = state.cursorLine - state.topLine
        var model = ListModel(lines: lines, selectedIndex: lines.indices.contains(selected) ? selected : nil,
                              firstLineIndex: state.topLine, totalLines: layout.lineCount,
                              emptyMessage: emptyMessage)
        model.stickyHeaderLine = sticky.map(layout.headerLine(ofSection:))
        model.isCountPending = results.isProvisional
        return model
    }

    private var emptyMessage: String {
        // A count still running, with nothing found in the first few milliseconds (a distance
        // sort's counts may already say there is nothing to find).
        if results.isProvisional, results.countedTotal != 0 { return "Looking for matching quakes…" }
        if !state.searchText.isEmpty { return "No quakes match “\(state.searchText)”. Esc clears the search." }
        if state.isNearHomeActive { return "No quakes within \(QuakeFormat.homeDistance(kilometres: state.settings.nearRadius, unit: state.settings.distanceUnit)) of home. ~ shows them all." }
        if !state.filters.isEmpty {
            return "No quakes pass the filters (\(state.filters.joined(separator: " · "))). :clear removes them."
        }
        if let minimum = state.settings.minimumMagnitude {
            return "No quakes of magnitude \(minimum) or more. m changes the filter."
        }
        return "No quakes yet. r refreshes from USGS; quaketui import FILE loads a feed."
    }

    private func detailModel() -> DetailModel? {
        guard state.detailPresented, let code = state.selectedCode else { return nil }
        // Drawn from state: the runtime read the quake (Effect.loadDetail) before this frame.
        let stored = state.detail?.code == code ? state.detail?.quake : nil
        var detail = stored.map { DetailModel(tab: state.detailTab, quake: $0) }
            ?? DetailModel(tab: state.detailTab, record: nil)
        // The last grid counted, while a newer count runs too: its cells are places on the globe,
        // drawn where they fall in the window shown now.
        detail.map = MapDensityModel(zoom: state.map.zoom, grid: state.map.grid)
        if let draft = state.editor, draft.code == code {
            detail.notes = draft.editor
            detail.notes.isEditing = state.isEditing
            detail.notes.isDirty = draft.text != (stored?.notes ?? "")
        }
        return detail
    }

    private func statusModel(_ context: FrameContext) -> StatusModel {
        let status = state.status
        var model = StatusModel(isLive: context.isLive,
                                lastRefresh: status.lastRefresh.map { Int64($0.timeIntervalSince1970 * 1000) })
        if status.isRefreshing {
            model.progress = StatusProgress(fraction: status.progress, label: status.progressLabel ?? "refreshing")
        }
        model.autoRefresh = RefreshStatusText.make(state.live.refresh, now: context.now,
                                                   isPolling: state.settings.autoRefreshInterval > 0)
        if let shown = status.shown {
            model.message = StatusMessage(shown, isError: status.showsError)
        }
        return model
    }
}
