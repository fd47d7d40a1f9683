import Foundation
import QuakeTUI
import QuakeModel
import QuakeStore

/// One scene's browser as the runtime drives it: the state, the results engine it shows, and
/// the loop that carries out the update's reads of the store before anything is drawn.
///
/// The update (`BrowserState.update`) decides; this is the one place that carries out its jobs
/// on the store — `Effect.queryResults`, `Effect.readRows`, and with `performReads` the quake
/// reads — on the concrete `ResultsEngine`, and feeds what comes back to the update as events
/// (`Action.resultsAnswered`, `.resultsFailed`, `.rowsRead`, `.detailLoaded`, `.quakeRead` …).
/// No protocol stands between them: tests run it over a real store in a temp dir, and test the
/// update by feeding it those events (DECISIONS.md). Every other effect goes back to the runtime.
///
/// ```swift
/// let model = try BrowserModel(state: restored, container: container)
/// let effects = try model.performReads(model.send(.moveDown, at: Date()))
/// ```
public final class BrowserModel {
    /// Everything the browser knows (the update's value).
    public internal(set) var state: BrowserState
    /// The results engine over the store (exact at once when made with `budget: nil`).
    public let results: ResultsEngine
    /// The generation of the newest snapshot taken of `results`.
    private var generation = 0

    public var layout: DisplayLayout { state.layout }
    public var listHeight: Int { state.listHeight }

    /// A model over `container` whose every answer is exact at once (no provisional windows):
    /// for tests and tools; the browser gives its own engine (`init(state:source:)`).
    public convenience init(state: AppState, container: PersistentContainer) throws {
        let results = try ResultsEngine(container: container, request: state.request, budget: nil)
        do { try self.init(state: state, source: results) } catch {
            results.close()
            throw error
        }
    }

    /// A model over `source` (configured here for the state's request if it is not already).
    public init(state: AppState, source: ResultsEngine) throws {
        var state = state
        let fallback = state.fallBackFromDistanceSortWithoutHome()
        results = source
        if source.request != state.request { try source.configure(state.request) }
        generation = 1
        self.state = BrowserState(app: state, results: source.snapshot(generation: generation))
        if let fallback { self.state.status.message = fallback }
        // The rows on screen, read into the results without an update: the selection is the
        // saved one until `restore` places it.
        self.state.results = try snapshotWithRows(self.state.results)
    }

    public func close() { results.close() }

    // MARK: Actions

    /// Applies `action` at `now` (the runtime reads the clock once per action) and returns the
    /// effects for the runtime, the reads of the results carried out.
    ///
    /// A query the engine cannot answer comes back to the update as `Action.resultsFailed`,
    /// which puts the state back and says so on the status line.
    ///
    /// - Throws: what the engine reported for the rows on screen; the state is then
    ///   exactly as it was before the action, and `failureMessage(for:_:)` says what failed.
    @discardableResult
    public func send(_ action: Action, at now: Date) throws -> [Effect] {
        let before = state
        do { return try run(state.update(action, at: now)) } catch {
            recover(before)
            throw error
        }
    }

    /// `send(_:at:)` at the time of the last action: for answers to effects, and tests.
    @discardableResult
    public func send(_ action: Action) throws -> [Effect] { try send(action, at: state.now) }

    // MARK: The background count

    /// A background count's answer, as the engine posted it (`ResultsEngine.onCounted`): taken
    /// into the engine, then given to the update as an event carrying its results
    /// (`Action.resultsSettled`: the snapshot, the count it answers, where the selected quake
    /// lands) or its failure (`Action.countFailed`). Returns that action and the effects for the
    /// runtime; nil when it answers a count replaced since.
    public func takeCount(_ answer: ResultsEngine.CountAnswer, at now: Date? = nil) throws -> (action: Action, effects: [Effect])? {
        guard let count = results.pendingCount, answer.generation == count else { return nil }
        let action: Action
        do {
            try results.setCollapsedSections(state.collapsedSections)
            guard let settlement = try results.settle(answer) else { return nil }
            let code = state.selectedCode
            let anchor = try code.flatMap { try anchorOffset(of: $0) }
            generation += 1
            action = .resultsSettled(SettledResults(count: count, snapshot: results.snapshot(generation: generation),
                                                    anchorCode: code, anchor: anchor, withinBudget: settlement.withinBudget))
        } catch {
            action = .countFailed(count: count, reason: Self.readFailure(error))
        }
        return (action, try send(action, at: now ?? state.now))
    }

    // MARK: Restoration

    /// Puts the cursor back on the restored selection and the list back at the restored top row.
    /// A selection that no longer exists or no longer matches falls back to its nearest row.
    public func restore(selectedCode: String?, topCode: String?) throws {
        try restore(AppState.RestoredSelection(selectedCode: selectedCode, topCode: topCode))
    }

    /// Puts the screen back as it was saved, for a terminal of `size` (`BrowserState.restore`),
    /// after finding the saved quakes in the results. No effects: nothing needs saving.
    public func restore(_ saved: AppState.RestoredSelection, size: Size? = nil) throws {
        try results.setCollapsedSections(state.collapsedSections)
        var saved = saved
        var anchor: Int?
        var isStored = true
        if let code = saved.selectedCode {
            if let id = saved.selectedSection, results.sections.contains(where: { $0.id == id }) {
                isStored = try results.eventCode(naming: code) != nil
            } else {
                // A quake merged into another since (ComCat's ids) is that event's row now.
                if let event = try eventCode(naming: code) { saved.selectedCode = event }
                // The anchor first: a provisional window may be re-read around it.
                anchor = try results.anchor(code: saved.selectedCode ?? code)
            }
        }
        var found = ResultsQuery(step: .locate, anchor: saved.selectedCode, collapsed: state.collapsedSections,
                                 purpose: .keepSelection(line: saved.selectionLine ?? 0))
        var located: [String: Int] = [:]
        if saved.selectedCode != nil, saved.selectionLine == nil, let top = saved.topCode {
            found.locate = [top]
            located[top] = try results.offset(ofCode: top)
        }
        generation += 1
        let answer = ResultsAnswer(query: found, snapshot: results.snapshot(generation: generation),
                                   anchor: anchor, located: located)
        _ = try run(state.restore(saved, size: size, found: answer, selectedIsStored: isStored))
    }

    /// The code of the event `code` names when that is not a row of its own: another agency's
    /// report in the event, or a code ComCat merged into it (`Connection.eventCode(naming:)`).
    private func eventCode(naming code: String) throws -> String? {
        guard let event = try results.eventCode(naming: code), event != code else { return nil }
        return event
    }

    /// Where the selected quake `code` lands now: its row; the row of the event it names when it
    /// is no row of its own any more (another process merged it into a ComCat event, or made
    /// another agency's report the event's shown one); else its nearest neighbour's.
    private func anchorOffset(of code: String) throws -> Int? {
        try results.anchor(code: eventCode(naming: code) ?? code)
    }

    // MARK: The frame

    /// The frame for the current state, after reading any row on screen not read yet (after a
    /// failure, say; normally every action's reads were carried out already).
    public func screenModel(_ context: FrameContext) throws -> ScreenModel {
        _ = try run(state.rowReads())
        return state.screenModel(context)
    }

    public var pendingReads: [Effect] { state.pendingReads }

    /// The computations the restored state is waiting for (the statistics view or the Map tab
    /// was open when the scene was saved).
    public func resumeStatistics() -> [Effect] { state.resumeStatistics() }

    /// The sequence a restored open sequence view (`A`) is waiting for, its forecast from `now`.
    public func resumeSequence(at now: Date) -> [Effect] { state.resumeSequence(at: now) }

    // MARK: Carrying out the reads of the results

    /// Carries out `Effect.queryResults` and `Effect.readRows` on the engine, feeding the
    /// answers to the update, until none is left; returns the other effects in order.
    private func run(_ effects: [Effect]) throws -> [Effect] {
        // Rows the engine could not give (fewer than its count said) are asked for once; rows it
        // gave are asked for again if the update no longer holds them.
        var short: Set<String> = []
        return try carryOut(effects, { state.update($0) }) { effect in
            switch effect {
            case .queryResults(let query):
                // A failure is an answer too: the update puts its state back and says what failed.
                do { return .answered(.resultsAnswered(try answer(query))) } catch {
                    return .answered(.resultsFailed(query, reason: Self.readFailure(error)))
                }
            case .readRows(let ranges, let generation) where generation == self.generation && !short.contains("\(generation) \(ranges)"):
                var rows = LoadedRows()
                for range in ranges {
                    let read = try results.rows(in: range)
                    if read.count < range.count { short.insert("\(generation) \(ranges)") }
                    rows.add(start: range.lowerBound, rows: read)
                }
                return .answered(.rowsRead(rows, generation: generation))
            case .readRows: return .dropped  // for an older snapshot, or one the engine could not give
            default: return .notARead
            }
        }
    }

    /// The effects `read` answers, carried out and their answers applied with `apply`, until none
    /// is left; the others returned in order (a scene save once).
    private func carryOut(_ effects: [Effect], _ apply: (Action) throws -> [Effect],
                          read: (Effect) throws -> Reading) throws -> [Effect] {
        var rest: [Effect] = []
        var queue = effects[...]
        while let effect = queue.popFirst() {
            switch try read(effect) {
            case .answered(let answer): queue += try apply(answer)
            case .dropped: break
            case .notARead: if effect != .saveScene || !rest.contains(.saveScene) { rest.append(effect) }
            }
        }
        return rest
    }

    /// What `carryOut`'s reader made of an effect.
    private enum Reading {
        case answered(Action)
        case dropped
        /// Not a read of this reader: returned to the caller.
        case notARead
    }

    /// The engine's answer to `query`: the step carried out, then where the selected quake
    /// lands and where the quakes asked for are.
    private func answer(_ query: ResultsQuery) throws -> ResultsAnswer {
        if case .resume(let request) = query.step { return try resume(request, query) }
        try results.setCollapsedSections(query.collapsed)
        var changed = true
        switch query.step {
        case .configure(let request):
            // A provisional window holds a screen above and below the selection, however tall
            // (80 rows or more; a test may ask for more).
            results.provisionalMargin = max(80, state.rows + 20, results.provisionalMargin)
            try results.configure(request, around: query.anchor, tryingExactly: query.triesExactly)
        case .merge: changed = try results.merge(around: query.anchor) != nil
        case .locate: break
        case .resume: break  // answered above
        case .next(let codes, let place, let forward):
            // Nothing changes: the results as shown, with what was found.
            let found = try results.next(among: codes, from: place, forward: forward)
            return ResultsAnswer(query: query, snapshot: state.results, changed: false, found: found)
        }
        // Nothing changed: the results as shown, rows and all.
        guard changed else { return ResultsAnswer(query: query, snapshot: state.results, changed: false) }
        // The anchor first: a provisional window may be re-read around it.
        let anchor = query.step == .locate ? nil : try query.anchor.flatMap { try anchorOffset(of: $0) }
        var located: [String: Int] = [:]
        for code in query.locate {
            var offset = try results.offset(ofCode: code)
            if offset == nil, let event = try eventCode(naming: code) { offset = try results.offset(ofCode: event) }
            located[code] = offset
        }
        generation += 1
        return ResultsAnswer(query: query, snapshot: results.snapshot(generation: generation), anchor: anchor, located: located)
    }

    /// The results after a failure: the engine on `request` again if a failed step left it
    /// elsewhere, then its sections as they are; the selection's place and the folded sections
    /// are best effort (a read failing again leaves them to the next key).
    private func resume(_ request: SectionedFetchRequest, _ query: ResultsQuery) throws -> ResultsAnswer {
        if results.request != request { try results.configure(request, tryingExactly: query.triesExactly) }
        try? results.setCollapsedSections(query.collapsed)
        let anchor = query.anchor.flatMap { try? anchorOffset(of: $0) }
        generation += 1
        return ResultsAnswer(query: query, snapshot: results.snapshot(generation: generation), anchor: anchor)
    }

    /// After an action whose rows could not be read: the state as it was before it, and the
    /// engine on its request again.
    private func recover(_ before: BrowserState) {
        state = before
        if results.request != state.request {
            try? results.configure(state.request, tryingExactly: state.exactAttempts.tries(state.request))
        }
        generation += 1
        // The results handed in whole, without an update: held keys wait for the next action.
        // Rows that cannot be read now are read before the next frame (`screenModel`).
        let snapshot = results.snapshot(generation: generation)
        state.replaceResults((try? snapshotWithRows(snapshot)) ?? snapshot)
    }

    /// `snapshot` with the rows the state's screen would show of it.
    private func snapshotWithRows(_ snapshot: ResultsSnapshot) throws -> ResultsSnapshot {
        var probe = state
        probe.results = snapshot
        probe.relayout()
        probe.clampCursor()
        probe.clampScroll()
        var filled = snapshot
        for case .readRows(let ranges, _) in probe.rowReads() {
            for range in ranges { filled.rows.add(start: range.lowerBound, rows: try results.rows(in: range)) }
        }
        return filled
    }
}

extension BrowserModel {
    /// Performs the read effects in `effects` (`loadDetail`, `readQuake`) on the results
    /// engine and sends their results back as actions; returns the other effects, for the runtime
    /// (and the effects those actions produced). The runtime calls this first, so every frame is
    /// drawn after its reads.
    public func performReads(_ effects: [Effect]) throws -> [Effect] {
        try carryOut(effects, { try send($0) }) { effect in
            switch effect {
            case .loadDetail(let code): .answered(.detailLoaded(code: code, try results.quake(code: code)))
            case .readStoredValues(let values, let command):
                .answered(.storedValuesRead(values, command: command, values: try results.storedValues(values)))
            case .readQuake(let code, let use): .answered(.quakeRead(code: code, try results.quake(code: code), for: use))
            default: .notARead
            }
        }
    }

    /// What the status line says when `action` failed with `error`: what was being done, and why.
    public static func failureMessage(for action: Action, _ error: any Error) -> String {
        "\(action.whatFailed): \(readFailure(error))"
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
            if error.isDiskFull { return StoreError.noRoomWhileReading(store: nil) }
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
