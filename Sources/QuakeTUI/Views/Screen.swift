import Foundation
import QuakeModel

/// The frame, in two pure steps: the browser's state made a `ScreenModel` (`BrowserState.screenModel`,
/// below, as each view's model is made from its state), and the model drawn into a cell buffer:
/// header, list, detail, status line, help.
///
/// ```swift
/// let model = state.screenModel(FrameContext(now: now, isLive: true))
/// var buffer = CellBuffer(size: model.size)
/// Screen.render(model, into: &buffer)
/// try terminal.present(buffer)
/// ```
public enum Screen {
    /// Draws `model` into `buffer`, clearing it first; the buffer should be `model.size`.
    public static func render(_ model: ScreenModel, into buffer: inout CellBuffer) {
        buffer.fill(buffer.bounds)
        let layout = ScreenLayout(model)
        if layout.isTooSmall {
            renderTooSmall(size: model.size, into: &buffer)
            return
        }
        HeaderView.render(model.header, in: layout.header, into: &buffer)
        if let list = layout.list {
            let sort = ListView.SortMark(order: model.header.sortOrder, ascending: model.header.ascending)
            ListView.render(model.list, display: model.display, in: list, focused: model.detail == nil,
                            sort: sort, columnHeaders: layout.columnHeaders, into: &buffer)
        }
        if let separator = layout.separator {
            for y in separator.y..<separator.maxY {
                buffer.put("│", at: Point(x: separator.x, y: y), style: .role(.border))
            }
        }
        if let statistics = model.statistics, let rect = layout.detail {
            StatsView.render(statistics, display: model.display, in: rect, into: &buffer)
        } else if let sequence = model.sequence, let rect = layout.detail {
            SequenceView.render(sequence, display: model.display, in: rect, into: &buffer)
        } else if let detail = model.detail, let rect = layout.detail {
            DetailView.render(detail, display: model.display, layout: layout, in: rect, into: &buffer)
        }
        StatusLineView.render(model, in: layout.status, into: &buffer)
        if let prompt = model.commandPrompt {
            renderCommandPrompt(prompt, cursor: model.commandCursor, message: model.commandNotice, in: layout.status,
                                into: &buffer)
        }
        if model.showsHelp {
            HelpOverlay.render(in: buffer.bounds, offset: model.helpOffset, finding: model.overlayFind,
                               typing: model.isOverlayFinding, into: &buffer)
        }
        if let log = model.messageLog {
            MessageLogOverlay.render(log, offset: model.messageLogOffset, zone: model.display.zone,
                                     finding: model.overlayFind, typing: model.isOverlayFinding,
                                     in: buffer.bounds, into: &buffer)
        }
    }

    /// The largest useful `ScreenModel.helpOffset` for a terminal size (0 when all keys fit).
    public static func maximumHelpOffset(for size: Size, finding: String = "") -> Int {
        max(0, HelpOverlay.rows(in: Rect(size), finding: finding).count - HelpOverlay.visibleEntries(in: Rect(size)))
    }

    /// A new buffer the size of the model with the frame drawn.
    public static func render(_ model: ScreenModel) -> CellBuffer {
        var buffer = CellBuffer(size: model.size)
        render(model, into: &buffer)
        return buffer
    }

    /// The message shown instead of the browser below `ScreenLayout.minimumSize`.
    static func renderTooSmall(size: Size, into buffer: inout CellBuffer) {
        let minimum = ScreenLayout.minimumSize
        let need = "need \(minimum.columns)×\(minimum.rows)", now = "now \(size.columns)×\(size.rows)"
        // On one line where it fits; else the sizes on lines of their own, so they are never cut.
        let whole = "Terminal too small (\(need))"
        let lines = TextWidth.of(whole) <= size.columns ? [whole, now] : ["Terminal too small", need, now]
        let top = max(0, (size.rows - lines.count) / 2)
        for (index, line) in lines.enumerated() where top + index < size.rows {
            let width = min(TextWidth.of(line), size.columns)
            buffer.put(line, at: Point(x: max(0, (size.columns - width) / 2), y: top + index),
                       style: index == 0 ? .role(.warning, [.bold]) : .role(.dim))
        }
    }
}

// MARK: The frame's model, from the state

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
