import QuakeModel

/// Cursor, scrolling and selection anchoring: the selected quake stays selected (and on the
/// same screen line where possible) across sort, search and store changes. The query that asks
/// the results source where it lands (`ResultsQuery`, below) and the update's taking in of the
/// answers (`receive`) are here, beside the cursor moves they end in.
extension BrowserState {
    /// Lays out `results` again (after new results, or a section folded or unfolded).
    package mutating func relayout() {
        layout = DisplayLayout(sections: results.sections, sectionStarts: results.sectionStarts, collapsed: self.collapsedSections)
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

    mutating func moveCursor(by delta: Int) { moveCursor(to: self.cursorLine + delta) }

    mutating func moveCursor(to line: Int) {
        self.cursorLine = line
        clampCursor()
        clampScroll()
    }

    /// Moves the cursor to a result row; a row in a collapsed section puts the cursor on its
    /// header, unless `reveal` expands the section.
    mutating func moveCursor(toOffset offset: Int, reveal: Bool = false) {
        let section = results.indexPath(forOffset: offset).section
        if reveal && self.collapsedSections.remove(results.sections[section].id) != nil { relayout() }
        moveCursor(to: layout.line(ofOffset: offset, section: section) ?? layout.headerLine(ofSection: section))
    }

    /// A jump to a result row (`open CODE`, handoff, `n`/`N`): as `moveCursor(toOffset:reveal: true)`,
    /// and when the row was off screen the list scrolls to put it in its upper third, with the
    /// rows after it in view, rather than on the edge it came in from.
    mutating func jumpCursor(toOffset offset: Int) {
        let top = self.topLine, height = listHeight
        moveCursor(toOffset: offset, reveal: true)
        guard self.cursorLine < top || self.cursorLine >= top + height else { return }
        self.topLine = self.cursorLine - height / 3
        clampScroll()
    }

    /// The mouse wheel: scrolls the view by `lines` and drags the cursor along when it would
    /// leave the screen (as htop and lazygit do); once the view cannot scroll further, the
    /// cursor moves instead, so the wheel always reaches the first and last rows.
    mutating func scroll(by lines: Int) {
        let height = listHeight
        let maximumTop = max(0, layout.lineCount - height)
        let newTop = max(0, min(self.topLine + lines, maximumTop))
        let unscrolled = lines - (newTop - self.topLine)
        self.topLine = newTop
        let firstUncovered = newTop + (height > 1 && stickySection != nil ? 1 : 0)
        self.cursorLine = min(max(self.cursorLine + unscrolled, firstUncovered), newTop + height - 1)
        clampCursor()
        clampScroll()
    }

    package mutating func clampCursor() {
        self.cursorLine = max(0, min(self.cursorLine, layout.lineCount - 1))
    }

    /// Keeps the cursor on screen and the list from scrolling past its end.
    package mutating func clampScroll() {
        // Nothing is drawn below the minimum size: keep the scroll position for when it grows.
        guard !ScreenLayout(size: Size(columns: self.columns, rows: self.rows), detailPresented: false).isTooSmall
        else { return }
        let height = listHeight
        if self.cursorLine < self.topLine { self.topLine = self.cursorLine }
        if self.cursorLine >= self.topLine + height { self.topLine = self.cursorLine - height + 1 }
        self.topLine = max(0, min(self.topLine, layout.lineCount - height))
        // The sticky header covers the first line when it is a quake: never the cursor.
        if height > 1, self.cursorLine == self.topLine, stickySection != nil { self.topLine -= 1 }
    }

    /// Updates `selectedCode`, `selectedSection` and `topCode` from the cursor and the scroll
    /// position. Rows not read yet (`results.rows`) leave them as they are: the runtime reads
    /// them (`rowReads`) and `Action.rowsRead` syncs again, before the frame is drawn.
    mutating func syncSelection() {
        var top: String?
        for line in linesOnScreen {
            if case .row(_, let offset)? = layout.line(at: line) {
                guard let row = results.row(at: offset) else { return }
                top = row.code
                break
            }
        }
        switch layout.line(at: self.cursorLine) {
        case .row(_, let offset)?:
            guard let row = results.row(at: offset) else { return }
            self.selectedCode = row.code
            self.selectedSection = nil
        case .header(let section)?:
            self.selectedSection = results.sections[section].id
        case nil:
            self.selectedCode = nil
            self.selectedSection = nil
        }
        self.topCode = top
        if self.selectedCode == nil || layout.lineCount == 0 { self.detailPresented = false }
    }

    /// The display lines the list shows.
    var linesOnScreen: Range<Int> {
        let top = max(0, self.topLine)
        return top..<max(top, min(layout.lineCount, self.topLine + listHeight))
    }

    /// The flat offsets of the rows on screen, in runs of consecutive offsets (a folded section
    /// between two rows on screen is not read).
    var offsetsOnScreen: [Range<Int>] {
        var runs: [Range<Int>] = []
        for line in linesOnScreen {
            guard case .row(_, let offset)? = layout.line(at: line) else { continue }
            if let last = runs.last, last.upperBound == offset {
                runs[runs.count - 1] = last.lowerBound..<offset + 1
            } else {
                runs.append(offset..<offset + 1)
            }
        }
        return runs
    }

    /// `Effect.readRows` when the screen shows rows `results` has not read: the rows on screen.
    /// Only those: the source keeps a window around them, so a move by a line reads from it, and
    /// a margin here would reach past that window into reads by offset deep in a large section.
    package func rowReads() -> [Effect] {
        let runs = offsetsOnScreen
        guard runs.contains(where: { !results.rows.covers($0) }) else { return [] }
        return [.readRows(runs, generation: results.generation)]
    }

    /// The answer to `Effect.readRows`: the rows, if they are for the results shown, added to
    /// those read already, then only the rows on screen kept. An answer may come after a newer
    /// one of the same results (reads asked for before the screen moved are answered in order):
    /// it must not take away the rows the screen shows now.
    mutating func receiveRows(_ rows: LoadedRows, generation: Int) {
        guard generation == results.generation else { return }
        results.rows.add(rows)
        results.rows.keep(offsetsOnScreen)
        syncSelection()
    }

    mutating func toggleSection() {
        guard let line = layout.line(at: self.cursorLine) else { return }
        let id = results.sections[line.section].id
        if self.collapsedSections.remove(id) == nil { self.collapsedSections.insert(id) }
        let screenRow = self.cursorLine - self.topLine
        relayout()
        self.cursorLine = layout.headerLine(ofSection: line.section)
        self.topLine = self.cursorLine - screenRow
        clampCursor()
        clampScroll()
    }

    /// The list line the selection keeps when new results come: the one it had when a request
    /// was made (or restored to) while counts were pending, else the one it is on.
    var keptLine: Int { self.keptSelectionLine ?? self.cursorLine - self.topLine }

    /// Asks the results source (`Effect.queryResults`) about the selected quake: where it lands
    /// comes back with the answer. Actions wait until it does.
    mutating func queryResults(_ step: ResultsQuery.Step, locate: [String] = [], purpose: ResultsQuery.Purpose) -> [Effect] {
        var query = ResultsQuery(step: step, anchor: self.selectedCode, locate: locate,
                                 collapsed: self.collapsedSections, purpose: purpose)
        switch step {
        case .configure(let request), .resume(let request): query.triesExactly = exactAttempts.tries(request)
        case .merge, .locate, .next: break
        }
        awaitedQuery = query
        return [.queryResults(query)]
    }

    /// Asks for the state's request, the selected quake (or its nearest neighbour) to stay under
    /// the cursor on the same screen line.
    mutating func refetchKeepingSelection() -> [Effect] {
        queryResults(.configure(self.request), purpose: .keepSelection(line: keptLine))
    }

    /// Takes in the results source's answer to a `ResultsQuery`; whether the detail's copy of
    /// the quake may be stale (a merge changed the results).
    mutating func receive(_ answer: ResultsAnswer) -> (effects: [Effect], reloadDetail: Bool) {
        // A newer query was asked meanwhile: its answer will hold what this one changed.
        guard answer.query == awaitedQuery else { return ([], false) }
        awaitedQuery = nil
        results = answer.snapshot
        relayout()
        let step = answer.query.step
        // Answered with a window: the exact answer did not fit the budget (or was not tried).
        switch step {
        case .configure(let request), .resume(let request):
            if results.isProvisional { exactAttempts.record(request, withinBudget: false) }
        case .merge, .locate, .next: break
        }
        switch answer.query.purpose {
        case .keepSelection(let line), .applyFilters(let line):
            guard answer.changed else { return ([], false) }
            reanchor(screenRow: line, at: answer.anchor)
            keepLine(line, after: step)
            if case .applyFilters = answer.query.purpose { reportFilters() }
            return ([], step.rereadsResults)
        case .show(let code, let lifted, let line):
            if case .configure = step {
                reanchor(screenRow: line, at: answer.anchor)
                keepLine(line, after: step)
            }
            return (show(code: code, at: answer.located[code], lifted: lifted, step: step), false)
        case .jumpToNew:
            jumpToNewQuake(answer.found)
            return ([], false)
        }
    }

    private mutating func keepLine(_ line: Int, after step: ResultsQuery.Step) {
        switch step {
        case .configure: self.keptSelectionLine = results.isProvisional ? line : nil
        case .merge, .locate, .next, .resume: break
        }
    }

    /// Takes in the background count's answer (`Action.resultsSettled`) if it is the one the
    /// results wait for: its results replace the window (or the results a merge over its budget
    /// left as they were), and the selected quake stays on the screen line it had when the
    /// request was made (or has now). Whether the detail's copy may be stale.
    ///
    /// Dropped, changing nothing: the answer to an older count (a newer request was answered
    /// since), one that arrives while a query is unanswered (the newer request's answer holds
    /// what it changed), or after the results are exact.
    mutating func receive(_ settled: SettledResults) -> Bool {
        guard !awaitsResults, results.pendingCount == settled.count else { return false }
        let line = keptLine
        results = settled.snapshot
        relayout()
        if let withinBudget = settled.withinBudget, !results.isProvisional {
            exactAttempts.record(results.request, withinBudget: withinBudget)
        }
        // Found for the quake selected when the answer was taken: the same one, in the runtime.
        reanchor(screenRow: line, at: settled.anchorCode == self.selectedCode ? settled.anchor : nil)
        if !results.isProvisional { self.keptSelectionLine = nil }
        return true
    }

    private mutating func reanchor(screenRow: Int, at offset: Int?) {
        // A restored section header stays selected while counts settle (its selected quake is
        // only the last one visited, maybe far away), and one the provisional window did not
        // hold goes back on it once the sections are known.
        if let section = results.sectionIndex(id: self.restoredPlacement?.section) {
            if !results.isProvisional { self.restoredPlacement?.section = nil }
            moveCursor(to: layout.headerLine(ofSection: section))
        } else if self.selectedCode != nil, let offset {
            moveCursor(toOffset: offset)
        } else {
            // No quake to stay on (none was selected, or none matched): the nearest quake, never
            // an expanded section's header, which no key selects.
            self.cursorLine = selectableLine(from: self.cursorLine, direction: 1)
        }
        self.topLine = self.cursorLine - screenRow
        clampScroll()
    }
}

// MARK: The query that keeps the selection, and its answer

/// What the update asks of the results source (`Effect.queryResults`); the runtime answers with
/// `Action.resultsAnswered`, a new `ResultsSnapshot` and the offsets asked for.
public struct ResultsQuery: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        /// Apply a new request (sort, search, filters, settings).
        case configure(SectionedFetchRequest)
        /// Take in what other processes (and this one) committed since the last fetch or merge.
        case merge
        /// Only find quakes (`locate`) in the results as they are.
        case locate
        /// `n` / `N`: the next (or previous) of `among` in the results from `from`, wrapping.
        case next(among: [String], from: ListPlace, forward: Bool)
        /// After a failure: the results of `request`, the source put back on it first if a
        /// failed step left it elsewhere.
        case resume(SectionedFetchRequest)

        /// Whether the answer may hold rows changed under a copy read before (a merge, a resume
        /// after a failure): the detail's quake is read again (and after a settled count).
        var rereadsResults: Bool {
            switch self {
            case .merge, .resume: true
            case .configure, .locate, .next: false
            }
        }
    }

    /// What the update does with the answer.
    public enum Purpose: Equatable, Sendable {
        /// The selection stays on its quake (or its nearest neighbour), on list line `line`.
        case keepSelection(line: Int)
        /// As `keepSelection`, then the status line names the `:` filters and how many pass.
        case applyFilters(line: Int)
        /// `quaketui open CODE` or handoff; `lifted` names the search and filters cleared to show
        /// it, and the selection keeps list line `line` in the results without them.
        case show(code: String, lifted: [String], line: Int)
        /// `n` / `N`: the cursor to the new quake found (`ResultsAnswer.found`).
        case jumpToNew
    }

    public var step: Step
    /// The selected quake: where it lands now (its offset, or its nearest neighbour's) comes back.
    public var anchor: String?
    /// Quakes whose exact offsets come back (absent from the answer: not in the results).
    public var locate: [String] = []
    /// The sections shown folded: a provisional window reads past them.
    public var collapsed: Set<String>
    public var purpose: Purpose
    /// Whether the engine tries a new request exactly within its budget before answering with a
    /// provisional window (a `configure` or `resume` step): the update's `ExactAttempts` decide.
    public var triesExactly: Bool

    public init(step: Step, anchor: String?, locate: [String] = [], collapsed: Set<String>, purpose: Purpose,
                triesExactly: Bool = true) {
        self.step = step
        self.anchor = anchor
        self.locate = locate
        self.collapsed = collapsed
        self.purpose = purpose
        self.triesExactly = triesExactly
    }
}

/// The runtime's answer to a `ResultsQuery`.
public struct ResultsAnswer: Equatable, Sendable {
    public var query: ResultsQuery
    /// The results after the step.
    public var snapshot: ResultsSnapshot
    /// Whether a merge changed anything (a configure or locate: always true).
    public var changed: Bool
    /// Where `query.anchor` lands: its offset, or its nearest neighbour's; nil for no rows.
    public var anchor: Int?
    /// The offsets of the quakes of `query.locate` that are in the results.
    public var located: [String: Int]
    /// What a `next` step found (nil: none of those quakes is in the results).
    public var found: FoundAmong?

    public init(query: ResultsQuery, snapshot: ResultsSnapshot, changed: Bool = true, anchor: Int? = nil,
                located: [String: Int] = [:], found: FoundAmong? = nil) {
        self.query = query
        self.snapshot = snapshot
        self.changed = changed
        self.anchor = anchor
        self.located = located
        self.found = found
    }
}

/// The background count's answer for provisional results (`Action.resultsSettled`), as a value:
/// the results once counted — exact, or for a distance sort that builds its table, the window
/// with its sections' whole counts while the order is built (still provisional, the same count
/// pending) — numbered by the count it answers, and where the selected quake lands in them. The
/// update takes it only for the count its results wait for (`ResultsSnapshot.pendingCount`).
public struct SettledResults: Equatable, Sendable {
    /// The count this answers: the `pendingCount` of the provisional results it replaces.
    public var count: Int
    /// The results after the count (no rows: those on screen are read for it).
    public var snapshot: ResultsSnapshot
    /// The quake selected when the answer was taken, and where it lands in `snapshot` (its
    /// offset, or its nearest neighbour's; nil for no rows).
    public var anchorCode: String?
    public var anchor: Int?
    /// Whether the exact count took no longer than the engine's budget: the update's
    /// `ExactAttempts` try a request of its shape at once next time, or not. nil for a distance
    /// sort's band counts (its order still pending).
    public var withinBudget: Bool?

    public init(count: Int, snapshot: ResultsSnapshot, anchorCode: String?, anchor: Int?, withinBudget: Bool? = nil) {
        self.count = count
        self.snapshot = snapshot
        self.anchorCode = anchorCode
        self.anchor = anchor
        self.withinBudget = withinBudget
    }
}
