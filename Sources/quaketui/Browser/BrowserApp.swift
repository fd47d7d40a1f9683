import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// The browser's runtime: one scene in one terminal. Keys and outside events become
/// `Action`s for the `BrowserModel`; its `Effect`s are carried out here (scene storage, app
/// storage, notes, refresh, handoff); every change is drawn as a new frame.
///
/// Threads: the loop runs on the main thread. The store observer, app-storage watcher,
/// activity watcher, refresh and notes writer run on their own queues and talk to the loop
/// only through the `ActionInbox`, whose wake-up pipe the loop blocks on in `poll(2)` beside
/// the terminal: an idle browser sleeps until a key, a posted action, a signal or the clock.
@MainActor
final class BrowserApp {
    /// While tests wait for the `idle` trace line: how often to look whether the scene is on disk.
    static let flushCheckMilliseconds = 25
    /// Relative times ("5 min ago") are redrawn at least this often.
    static let clockRedrawSeconds = 15.0

    private let session: SceneSession
    private let container: PersistentContainer
    private let appStorage: AppStorage
    private let activities: ActivityCenter
    private let model: BrowserModel
    /// The model's results source, to keep its section snapshot after the first frame.
    private let results: ResultsEngine
    /// The saved selection and scroll, put back once the terminal's size is known.
    private let restored: AppState.RestoredSelection
    private let inbox: ActionInbox
    private var observer: StoreChangeObserver?
    private var tokens: [ObservationToken] = []
    private var refresh: FeedImporter?
    /// The statistics view's reader and the Map tab's (issue 32), each opened the first time
    /// it is asked: a density count never interrupts the statistics, nor the other way round.
    private var statisticsReader: LatestReader<ViewContext>?
    private var densityReader: LatestReader<ViewContext>?
    /// The statistics last computed, kept per list, method and store change (issue 54): the
    /// same list again with no commit since is answered at once, without declustering again.
    private let statisticsCache = StatisticsCache()
    /// The list's declustering reader (`:decluster`, issue 54), opened the first time it is
    /// asked, and the backgrounds it computed last.
    private var declusterReader: LatestReader<ViewContext>?
    private let declusterCache = DeclusterCache()
    /// The sequence view's reader (issue 54), opened the first time it is asked.
    private var sequenceReader: LatestReader<ViewContext>?
    /// Reads the quakes that arrived after a commit (`readArrivals`), one read at a time: the
    /// next starts from where the last one's answer left the scene's cursor.
    private var arrivalsReader: LatestReader<ViewContext>?
    private var arrivalsReading = false
    /// A commit came while a read ran: read again once its answer is in.
    private var arrivalsAgain = false
    /// An arrivals answer kept back while the list catches up with the commits it read (a
    /// merge over its budget, counted again in the background, the list exact as of before):
    /// taken in once the count is, so that the header's total and its `N new`, and the rows and
    /// their ● marks, say the same commit. No other read starts meanwhile.
    private var arrivalsKept: Result<QuakeArrivals, any Error>?
    /// Whether a frame waits for the arrivals read after a commit, for the same reason: the rows
    /// a commit brought are drawn with their marks and counted in `N new`.
    private var arrivalsWait = ArrivalsWait()
    /// The automatic refresh, new-quake marks and alerts (issue 13).
    private var live: LiveMonitor?
    private var lastFrame: ScreenModel?
    /// When the commits other processes made are merged (issue 57: one merge for a stream of them).
    private var mergePace = MergePace()
    private var isDone = false
    /// Why the scene could not be saved on `q`: the browser then exits 1 (issue 17).
    private var finalSaveError: (any Error)?
    private let trace = FrameTrace(environment: ProcessInfo.processInfo.environment)
    /// For the trace's key lines (`FrameTrace.key`), on its clock: when the key in hand was read,
    /// and since when it can have waited (`Terminal.keyWaitingSince`).
    private var keyRead: Int64 = 0
    private var keyWaitingSince: Int64 = 0

    init(session: SceneSession) throws {
        self.session = session
        let state = session.state
        inbox = ActionInbox(wakeUp: try WakeUpPipe())
        container = try PersistentContainer(directory: URL(fileURLWithPath: state.path), upgrading: SchemaUpgrade.say)
        do {
            appStorage = try AppStorage(state: state)
            container.preferAgencies(from: appStorage)
            activities = try ActivityCenter(state: state)
            // Something real to show on first launch, offline: the bundled sample (new stores only).
            _ = try SampleCatalogue.importIntoNewStore(container)
            var appState = AppState(sceneID: session.id.rawValue, settings: AppSettings(appStorage))
            restored = appState.restore(from: session.storage, now: Int64(Date().timeIntervalSince1970 * 1000))
            if let seconds = Self.awaySeconds(ProcessInfo.processInfo.environment) { appState.live.awayAfter = seconds }
            appState.isSample = try container.viewContext.read { try SampleCatalogue.isSample($0) }
            // Never wait on a key: a slow request is answered by a provisional window first.
            let results = try ResultsEngine(container: container, request: appState.request,
                                                  budget: Self.windowBudget(ProcessInfo.processInfo.environment))
            results.mergeBudget = Self.mergeBudget(ProcessInfo.processInfo.environment)
            self.results = results
            let inbox = inbox
            results.onCounted = { inbox.post(.counted($0)) }
            do { model = try BrowserModel(state: appState, source: results) } catch {
                results.close()
                throw error
            }
        } catch {
            container.close()
            throw error
        }
    }

    /// Runs until `q`, `Q` or SIGINT/SIGTERM/SIGHUP; the terminal is restored however it ends.
    func run() throws {
        defer {
            stopWatching()
            // For tests: the browser's own time for `q` ends here (the terminal restored).
            trace?.event("quit \(FrameTrace.now())")
        }
        try Terminal.run { terminal in
            // The scroll offset depends on the list's height: restore for the real size.
            try model.restore(restored, size: terminal.size)
            var restoredEffects: [Effect] = []
            do { restoredEffects = try model.performReads(model.pendingReads) } catch {
                show(BrowserModel.failureMessage(for: .openDetail, error))
            }
            // A statistics view or Map tab open when the scene was saved counts again.
            for effect in restoredEffects + model.resumeStatistics() + model.resumeSequence(at: Date()) { try perform(effect, terminal) }
            // Files set aside, values reset: said once, all together.
            let notices = takeNotices()
            if !notices.isEmpty { try send(.showNotices(notices), terminal) }
            if model.state.isSample { try send(.refresh, terminal) }
            try draw(terminal)
            session.storage.markFirstFrameDrawn()
            results.keepSnapshot()
            // Watching starts after the first frame, which it would only delay; a commit made
            // since the fetch is caught by one merge (a no-op when there is none).
            try startWatching()
            inbox.post(.storeChanged)
            try startLiveMonitor(terminal)
            var lastDraw = Date()
            var lastTerminalCheck = Date()
            var settled = false
            var drawPending = false
            while !isDone {
                var changed = false
                // Block until something happens: a key, a posted action, a signal, the clock, a
                // merge coming due. Only a traced run waiting for its scene to reach the disk looks sooner.
                let untilClock = Int((Self.clockRedrawSeconds - Date().timeIntervalSince(lastDraw)) * 1000) + 1
                var timeout = max(0, untilClock)
                if trace != nil, !settled { timeout = min(timeout, Self.flushCheckMilliseconds) }
                if let untilMerge = mergePace.milliseconds(untilDueAt: Self.monotonicSeconds()) { timeout = min(timeout, untilMerge) }
                if let untilDraw = arrivalsWait.milliseconds(untilDrawAt: Self.monotonicSeconds()) { timeout = min(timeout, untilDraw) }
                var tookKey = false
                // A key typed while the loop was busy is taken first, without waiting; else the
                // loop waits. Either way the terminal knows since when the key can have waited.
                var typed = readTyped(terminal, timeoutMilliseconds: 0)
                if typed.isEmpty { typed = readTyped(terminal, timeoutMilliseconds: timeout, wakeUp: inbox.wakeUp) }
                if !typed.isEmpty {
                    // Keys already typed behind the first (three Backspaces sent at once) are
                    // handled before the frame, which shows them all: one drawing, not one per
                    // key, within a frame's time so that a long run of them is still seen moving.
                    let began = Self.monotonicSeconds()
                    repeat {
                        try handle(&typed, terminal)
                        if typed.isEmpty { typed = readTyped(terminal, timeoutMilliseconds: 0) }
                    } while !isDone && !typed.isEmpty && Self.monotonicSeconds() - began < Self.typeaheadSeconds
                    // Those the time did not reach are read first next turn, after any signal.
                    if !isDone { terminal.putBack(typed, waitingSince: keyWaitingSince) }
                    changed = true
                    tookKey = true
                }
                for posted in inbox.drain() where !isDone {
                    switch posted {
                    case .action(let action): try send(action, terminal)
                    case .counted(let answer): try takeCount(answer, terminal)
                    case .arrivals(let result): try takeArrivals(result, terminal)
                    }
                    changed = true
                }
                // The list has caught up with the commits the kept arrivals read (or moved on).
                if let kept = arrivalsKept, !model.state.results.isCatchingUp, !isDone {
                    try takeArrivals(kept, terminal)
                    changed = true
                }
                if isDone { break }
                // Commits elsewhere (a delete's hundreds of batches) are merged together, a key first.
                if inbox.takeStoreChange() { mergePace.noteChange() }
                // Its time counts the frame drawn for it too.
                var mergeBegan: Double?
                if mergePace.isDue(at: Self.monotonicSeconds(), afterKey: tookKey) {
                    mergeBegan = Self.monotonicSeconds()
                    try send(.storeChanged, terminal)
                    changed = true
                    if isDone { break }
                }
                // A failed background save (a full disk) shows at once, not only at exit.
                let notices = takeNotices()
                if !notices.isEmpty {
                    _ = try? model.send(.showNotices(notices), at: Date())
                    changed = true
                }
                // A terminal hung up without SIGHUP reaching us makes poll(2) report it readable
                // (or POLLHUP) at once, so the loop is awake to see it; at most once a second.
                if Date().timeIntervalSince(lastTerminalCheck) > 1 {
                    lastTerminalCheck = Date()
                    if isatty(STDIN_FILENO) == 0 {
                        var hangUp: ArraySlice<Key> = [.terminate(signal: SIGHUP)]
                        try handle(&hangUp, terminal)
                    }
                }
                drawPending = drawPending || changed
                let marksBehind = (arrivalsReading && arrivalsKept == nil) || mergePace.isPending
                if !arrivalsWait.holdsFrame(at: Self.monotonicSeconds(), marksBehind: marksBehind, afterKey: tookKey),
                   drawPending || Date().timeIntervalSince(lastDraw) > Self.clockRedrawSeconds {
                    try draw(terminal)
                    lastDraw = Date()
                    settled = false
                    drawPending = false
                }
                if let mergeBegan {
                    let took = Self.monotonicSeconds() - mergeBegan
                    mergePace.merged(at: mergeBegan, took: took)
                    trace?.event("merge \(Int64(took * 1e9))")
                }
                // For tests: nothing left to do and the scene is on disk, so a kill -9 now loses
                // nothing, and no view waits for a background answer (the screen is final).
                if !changed, !drawPending, !settled, let trace, session.storage.isFlushed, model.results.pendingCount == nil,
                   !mergePace.isPending, !arrivalsReading, !model.state.awaitsBackgroundAnswer {
                    trace.event("idle")
                    settled = true
                }
            }
        }
        if let finalSaveError { throw CommandError("the scene could not be saved: \(finalSaveError)") }
    }

    /// `$QUAKETUI_AWAY_SECONDS`: how long the pane must be without focus for its return to say
    /// what arrived meanwhile (`LiveState.awayAfter`, 600 by default); for tests.
    static func awaySeconds(_ environment: [String: String]) -> TimeInterval? {
        guard let text = environment["QUAKETUI_AWAY_SECONDS"], let seconds = Double(text), seconds >= 0, seconds.isFinite
        else { return nil }
        return seconds
    }

    /// How long keys typed ahead are handled before a frame shows them.
    static let typeaheadSeconds = 0.016

    /// The loop's clock for `MergePace`: monotonic seconds.
    private static func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// How long a new request may take before a provisional window answers it:
    /// `QUAKETUI_WINDOW_BUDGET_MS` (tests use 0 to force the provisional path), 6 ms by default.
    static func windowBudget(_ environment: [String: String]) -> Duration? {
        milliseconds(environment["QUAKETUI_WINDOW_BUDGET_MS"]) ?? .milliseconds(6)
    }

    /// How long a merge of other processes' commits may hold the loop before the list is
    /// counted again in the background (`ResultsEngine.mergeBudget`): `QUAKETUI_MERGE_BUDGET_MS`
    /// (0: any merge that needs more than a few steps), 4 ms by default.
    static func mergeBudget(_ environment: [String: String]) -> Duration? {
        milliseconds(environment["QUAKETUI_MERGE_BUDGET_MS"]) ?? .milliseconds(4)
    }

    /// A budget in whole milliseconds, as the environment gives it (nil: unset or not one).
    private static func milliseconds(_ text: String?) -> Duration? {
        guard let text, let milliseconds = Int(text), milliseconds >= 0 else { return nil }
        return .milliseconds(milliseconds)
    }

    // MARK: Keys and actions

    /// Reads the next key (waiting up to `timeoutMilliseconds`) and every key decoded with it:
    /// typed together, they go to the key table together.
    private func readTyped(_ terminal: Terminal, timeoutMilliseconds: Int, wakeUp: WakeUpPipe? = nil) -> ArraySlice<Key> {
        let key = wakeUp.map { terminal.readKey(timeoutMilliseconds: timeoutMilliseconds, wakeUp: $0) }
            ?? terminal.readKey(timeoutMilliseconds: timeoutMilliseconds)
        guard let key else { return [] }
        keyRead = FrameTrace.now()
        keyWaitingSince = terminal.keyWaitingSince
        return [key] + terminal.takeTypedWithIt()
    }

    /// Handles the first of the keys read together, taking it out of `keys` with those its
    /// action takes too: the key table (a click: the frame it lands on) joins a burst of search
    /// letters behind the first into one action, so one refetch.
    private func handle(_ keys: inout ArraySlice<Key>, _ terminal: Terminal) throws {
        guard let key = keys.first else { return }
        if case .terminate = key {
            // SIGTERM/SIGHUP: flush only, so a launch killed while restoring still trips the crash guard.
            _ = try? model.state.app.save(to: session.storage)
            try? session.storage.flush()
            refresh?.cancel()
            isDone = true
            keys = []
            return
        }
        let action: Action?, taken: Int
        if case .click(let x, let y) = key, let frame = lastFrame {
            (action, taken) = (KeyMap.action(forClickAt: x, y, in: frame), 1)
        } else {
            (action, taken) = KeyMap.action(for: keys, in: model.state)
        }
        keys.removeFirst(taken)
        if let action { try send(action, terminal) }
        switch key {
        case .resize: break
        // Focus reports are not keys a person typed: traced apart, so tests count keys as sent.
        case .focusIn, .focusOut: trace?.event("focus")
        default: for _ in 0..<taken { trace?.key(read: keyRead, waitingSince: keyWaitingSince) }
        }
    }

    /// Applies an action and carries out its effects. A failure (a busy or broken store, a
    /// full disk) is shown on the status line rather than ending the session.
    private func send(_ action: Action, _ terminal: Terminal) throws {
        var action = action
        // Read when handled, not when the watcher fired: the latest values, so a notice that
        // waited in the inbox behind later `m` presses cannot bring back an older value.
        if case .settingsChanged = action { action = .settingsChanged(AppSettings(appStorage)) }
        let effects: [Effect]
        do {
            // Reads (the detail row) first, so the frame drawn next shows what they read.
            effects = try model.performReads(model.send(action, at: Date()))
        } catch {
            // The model left its state as it was before the action; say what failed.
            show(BrowserModel.failureMessage(for: action, error))
            return
        }
        for effect in effects { try perform(effect, terminal) }
        if case .storeChanged = action {
            readArrivals()
            try checkSample(terminal)
        }
    }

    /// Takes a background count's answer into the model (`BrowserModel.takeCount`: the update
    /// gets it as an action carrying its results) and carries out what it asks.
    private func takeCount(_ answer: ResultsEngine.CountAnswer, _ terminal: Terminal) throws {
        let effects: [Effect]
        do {
            guard let taken = try model.takeCount(answer, at: Date()) else { return }
            effects = try model.performReads(taken.effects)
        } catch {
            show("\(Action.countFailure): \(BrowserModel.readFailure(error))")
            return
        }
        for effect in effects { try perform(effect, terminal) }
        if model.results.pendingCount == nil { trace?.event("counted") }
    }

    /// What the last scene save kept (the notes draft is left out when it is too large).
    private var lastSceneSave = SceneSave.whole

    private func perform(_ effect: Effect, _ terminal: Terminal) throws {
        switch effect {
        case .saveScene:
            do {
                let saved = try model.state.app.save(to: session.storage)
                // Said once, when the draft stops fitting: not over every question that follows.
                if lastSceneSave == .whole, let message = saved.message { show(message) }
                lastSceneSave = saved
            } catch { show("Scene not saved: \(error)") }
        case .saveNotes(let code, let text): saveNotes(text, code: code)
        case .saveNotesIfUnchanged(let code, let text, let expected): saveNotes(text, code: code, expected: expected)
        case .saveSettings(let settings):
            do { try settings.save(to: appStorage) } catch {
                show("Setting not saved: \(error)")
            }
        case .saveHome(let point):
            do { try appStorage.set(HomeLocation(latitude: point.latitude, longitude: point.longitude), for: AppKeys.home) } catch {
                show("Home not saved: \(error)")
            }
        case .startRefresh(let feed): startRefresh(feed)
        case .advertise(let code):
            activities.advertiseInBackground(.showQuake(code: code), from: session.id)
        case .continueHandoff:
            if let code = activities.mostRecent(excludingScene: session.id)?.quakeCode {
                try send(.continueActivity(code: code), terminal)
            } else {
                show("No other pane has shown a quake yet; open one there with Enter, then press H here.", error: false)
            }
        case .redraw: terminal.redraw()
        case .loadDetail, .readStoredValues, .queryResults, .readRows: break  // performed by the model before any other effect
        case .openURL(let url):
            switch WebBrowser.open(url, environment: ProcessInfo.processInfo.environment) {
            case .opened(let command):
                show("Opened \(url) with \(URL(fileURLWithPath: command).lastPathComponent)", error: false)
            case .unavailable(let tried):
                show("No browser found (tried \(tried)): set BROWSER, or copy the address with y: \(url)")
            }
        case .copyToClipboard(let text): terminal.copyToClipboard(text)
        case .readQuake: break  // performed by model.performReads, as .loadDetail
        case .quit:
            refresh?.cancel()
            _ = try? model.state.app.save(to: session.storage)
            do { try session.close() } catch { finalSaveError = error }
            isDone = true
        case .closeScene:
            refresh?.cancel()
            session.closeAndDelete()
            isDone = true
        case .alert(let alert):
            guard live?.alert(alert, posting: inbox) == true else { break }
            terminal.bell()
            // Opted in (`alertNotification`): the terminal's own notification too, outside the pane.
            if let kind = TerminalNotification.Kind(rawValue: appStorage.value(for: AppKeys.alertNotification)) {
                let settings = model.state.settings
                terminal.notify(kind, title: "quaketui", body: alert.sentence(miles: settings.distanceUnit == .mi, homeName: settings.homeName),
                                insideTmux: !(ProcessInfo.processInfo.environment["TMUX"] ?? "").isEmpty)
            }
        case .computeStatistics(let request, let declustering, let generation):
            computeStatistics(request, declustering: declustering, generation: generation)
        case .computeDensity(let request, let window, let generation): computeDensity(request, window: window, generation: generation)
        case .cancelStatistics: statisticsReader?.cancel()
        case .cancelDensity: densityReader?.cancel()
        case .computeSequence(let code, let now, let generation): computeSequence(code, now: now, generation: generation)
        case .cancelSequence: sequenceReader?.cancel()
        case .declusterList(let request, let method, let generation): declusterList(request, method: method, generation: generation)
        case .cancelListDeclustering: declusterReader?.cancel()
        }
    }

    /// Declusters the list `request` holds on the declustering reader's own connection (a newer
    /// request interrupting this one), from `declusterCache` when it holds the same list and
    /// method with no commit since; the progress (at most ten a second) and the answer come back
    /// through the inbox with `generation`.
    private func declusterList(_ request: SectionedFetchRequest, method: Declustering, generation: Int) {
        let reader: LatestReader<ViewContext>
        do {
            reader = try backgroundReader(\.declusterReader)
        } catch {
            _ = try? model.send(.listDeclusteringFailed(generation: generation, message: BrowserModel.readFailure(error)))
            return
        }
        let inbox = inbox, cache = declusterCache
        reader.submit(generation: generation, { db in
            var lastPost = Date.distantPast
            return try db.declusteredSet(of: request, method: method, keptIn: cache, progress: { fraction in
                guard Date().timeIntervalSince(lastPost) >= 0.1 else { return }
                lastPost = Date()
                inbox.post(.listDeclusteringProgress(generation: generation, fraction: fraction))
            })
        }) { generation, result in
            switch result {
            case .success(let kept): inbox.post(.listDeclustered(generation: generation, kept))
            case .failure(let error):
                inbox.post(.listDeclusteringFailed(generation: generation, message: BrowserModel.readFailure(error)))
            }
        }
    }

    /// Reads the sequence after `code` on the sequence reader's own connection, a newer request
    /// interrupting this one; the answer comes back through the inbox with `generation`.
    private func computeSequence(_ code: String, now: Int64, generation: Int) {
        let reader: LatestReader<ViewContext>
        do {
            reader = try backgroundReader(\.sequenceReader)
        } catch {
            _ = try? model.send(.sequenceFailed(generation: generation, message: BrowserModel.readFailure(error)))
            return
        }
        let inbox = inbox
        reader.submit(generation: generation, { db in try db.aftershockSequence(of: code, now: now) }) { generation, result in
            switch result {
            case .success(.success(let sequence)): inbox.post(.sequenceComputed(generation: generation, sequence))
            case .success(.failure(let unavailable)): inbox.post(.sequenceFailed(generation: generation, message: unavailable.message))
            case .failure(let error): inbox.post(.sequenceFailed(generation: generation, message: BrowserModel.readFailure(error)))
            }
        }
    }

    /// Computes the statistics of `request` on the statistics reader's own connection, a newer
    /// request interrupting this one; the answer comes back through the inbox with `generation`.
    /// The same list and method with no commit since is answered from `statisticsCache` at once.
    /// Otherwise the counts come first (`Action.statisticsPartial`, from the digest), then the
    /// same with the magnitude types and moment, which read the quakes one by one; declustered
    /// statistics come once, of the background, with the declustering's progress on the way
    /// (`Action.statisticsProgress`, at most ten a second).
    private func computeStatistics(_ request: SectionedFetchRequest, declustering: Declustering?, generation: Int) {
        let reader: LatestReader<ViewContext>
        do {
            reader = try backgroundReader(\.statisticsReader)
        } catch {
            _ = try? model.send(.statisticsFailed(generation: generation, message: BrowserModel.readFailure(error)))
            return
        }
        let inbox = inbox, cache = statisticsCache
        reader.submit(generation: generation, { db in
            var lastPost = Date.distantPast
            return try db.catalogueStatistics(of: request, declustering: declustering, keptIn: cache, partial: { counts in
                inbox.post(.statisticsPartial(generation: generation, counts))
            }, progress: { fraction in
                guard Date().timeIntervalSince(lastPost) >= 0.1 else { return }
                lastPost = Date()
                inbox.post(.statisticsProgress(generation: generation, fraction: fraction))
            })
        }) { generation, result in
            switch result {
            case .success(let statistics): inbox.post(.statisticsComputed(generation: generation, statistics))
            case .failure(let error):
                inbox.post(.statisticsFailed(generation: generation, message: BrowserModel.readFailure(error)))
            }
        }
    }

    /// The background reader kept in `slot`, opened on its own connection at first use.
    private func backgroundReader(_ slot: ReferenceWritableKeyPath<BrowserApp, LatestReader<ViewContext>?>) throws -> LatestReader<ViewContext> {
        if let reader = self[keyPath: slot] { return reader }
        let reader = try LatestReader(container: container)
        self[keyPath: slot] = reader
        return reader
    }

    /// Counts the list per cell of the Map tab's window on the density reader's own connection.
    private func computeDensity(_ request: SectionedFetchRequest, window: GridWindow, generation: Int) {
        let reader: LatestReader<ViewContext>
        do {
            reader = try backgroundReader(\.densityReader)
        } catch {
            show("The map's density could not be counted: \(BrowserModel.readFailure(error))")
            return
        }
        let inbox = inbox
        reader.submit(generation: generation, { db in try db.densityGrid(of: request, in: window) }) { generation, result in
            switch result {
            case .success(let grid): inbox.post(.densityComputed(generation: generation, grid))
            case .failure(let error):
                inbox.post(.showMessage("The map's density could not be counted: \(BrowserModel.readFailure(error))", isError: true))
            }
        }
    }

    private func takeNotices() -> [String] {
        BrowserNotices.take(from: [session.storage.takeNotice, appStorage.takeNotice])
    }

    private func show(_ message: String, error: Bool = true) {
        _ = try? model.send(.showMessage(message, isError: error), at: Date())
    }

    private func draw(_ terminal: Terminal) throws {
        let frame: ScreenModel
        do {
            frame = try model.screenModel(FrameContext(now: Int64(Date().timeIntervalSince1970 * 1000),
                                                       isLive: observer != nil))
        } catch {
            show(BrowserModel.readFailure(error))
            return
        }
        lastFrame = frame
        let drawn = Screen.render(frame)
        terminal.present(drawn)
        trace?.frame(rows: model.results.rowsMaterialized, drawn: drawn)
    }

    // MARK: The outside world

    private func startWatching() throws {
        let inbox = inbox
        do {
            observer = try StoreChangeObserver(container: container) { inbox.post(.storeChanged) }
        } catch {
            show("Live updates are off: \(error)")
        }
        let appStorage = appStorage
        let wakeUp = inbox.wakeUp
        session.storage.onNotice { wakeUp.wake() }
        appStorage.onNotice { wakeUp.wake() }
        tokens.append(appStorage.onChange { inbox.post(.settingsChanged(AppSettings(appStorage))) })
        tokens.append(activities.onActivity(for: session.id) { activity in
            if let code = activity.quakeCode { inbox.post(.continueActivity(code: code)) }
        })
    }

    private func stopWatching() {
        live?.stop()
        live = nil
        statisticsReader?.close()
        statisticsReader = nil
        densityReader?.close()
        densityReader = nil
        sequenceReader?.close()
        sequenceReader = nil
        arrivalsReader?.close()
        arrivalsReader = nil
        observer?.stop()
        observer = nil
        tokens.forEach { $0.cancel() }
        tokens.removeAll()
        model.close()
        container.close()
    }

    /// Starts the automatic refresh and takes the scene's first look at arrivals: the quakes
    /// that came while it was closed are marked (a new scene marks nothing yet).
    private func startLiveMonitor(_ terminal: Terminal) throws {
        let monitor = LiveMonitor(state: session.state, container: container, appStorage: appStorage)
        live = monitor
        monitor.start(posting: inbox)
        try deliverArrivals(terminal)
    }

    /// Quakes inserted since the last read, for the marks, the header count and alerts.
    private func deliverArrivals(_ terminal: Terminal) throws {
        guard let live else { return }
        let arrivals: QuakeArrivals
        do {
            arrivals = try live.arrivals(after: model.state.live.readThrough ?? model.state.live.seen, tracking: model.state.live.tracking,
                                         sinceLooked: model.state.live.lookedReadStart, nearRadius: model.state.settings.nearRadius)
        } catch {
            show(BrowserModel.arrivalsFailure(error))
            return
        }
        try send(.quakesArrived(arrivals), terminal)
    }

    /// After a commit: the quakes that arrived, read on the arrivals reader's own connection and
    /// posted back (`takeArrivals`), from the scene's cursor as it stands; while a read runs, one
    /// more follows it.
    private func readArrivals() {
        guard live != nil else { return }
        guard !arrivalsReading else {
            arrivalsAgain = true
            return
        }
        let reader: LatestReader<ViewContext>
        do {
            reader = try backgroundReader(\.arrivalsReader)
        } catch {
            show(BrowserModel.arrivalsFailure(error))
            return
        }
        arrivalsReading = true
        let live = model.state.live, rule = AlertRule(appStorage), nearRadius = model.state.settings.nearRadius, inbox = inbox
        reader.submit(generation: 0, { db in
            try LiveMonitor.arrivals(in: db, after: live.readThrough ?? live.seen, tracking: live.tracking,
                                     sinceLooked: live.lookedReadStart, rule: rule, nearRadius: nearRadius)
        }) { _, result in inbox.post(.arrivals(result)) }
    }

    /// Takes in the arrivals `readArrivals` read (or keeps them, `arrivalsKept`, while the list
    /// catches up with their commits), and reads again if a commit came meanwhile.
    private func takeArrivals(_ result: Result<QuakeArrivals, any Error>, _ terminal: Terminal) throws {
        if model.state.results.isCatchingUp {
            arrivalsKept = result
            return
        }
        arrivalsKept = nil
        arrivalsReading = false
        switch result {
        case .success(let arrivals): try send(.quakesArrived(arrivals), terminal)
        case .failure(let error): show(BrowserModel.arrivalsFailure(error))
        }
        if arrivalsAgain {
            arrivalsAgain = false
            readArrivals()
        }
    }

    /// After a commit anywhere: did a refresh or import replace the bundled sample?
    /// Sent as any action is: its reads (the list's first rows) and effects (the scene saved) carried out.
    private func checkSample(_ terminal: Terminal) throws {
        guard let isSample = try? container.viewContext.read({ try SampleCatalogue.isSample($0) }),
              isSample != model.state.isSample else { return }
        try send(.sampleChanged(isSample), terminal)
    }

    /// Saves notes on a background writer; with `expected`, only if the store still holds those
    /// notes (read in the same transaction), else the conflict goes back to the model.
    private func saveNotes(_ text: String, code: String, expected: String? = nil) {
        let container = container, inbox = inbox
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                let writer = try container.newBackgroundContext(author: "notes")
                defer { writer.close() }
                // Behind a long job (an import's one transaction) the save waits and says so; it
                // is never refused for a lock a quaketui writer holds (issue 57).
                writer.onLockWait = { wait in inbox.post(.showMessage("Saving the notes: \(wait.sentence)…", isError: false)) }
                let outcome: Action? = try writer.performAndWait { transaction in
                    if let expected, let current = try transaction.notes(forCode: code), current != expected {
                        return .notesConflict(code: code, theirs: current)
                    }
                    return try transaction.setNotes(text, forCode: code) ? nil : .showMessage(
                        "Quake \(code) is no longer in the store; notes not saved (the draft is kept)", isError: true)
                }
                inbox.post(outcome ?? .notesSaved(code: code))
            } catch {
                inbox.post(.showMessage("Notes not saved (the draft is kept): \(error)", isError: true))
            }
        }
    }

    /// Downloads the feed and imports it in the background, replacing the sample if shown.
    private func startRefresh(_ feed: String) {
        let importer: FeedImporter
        do {
            importer = try FeedImporter(container: container, author: "refresh")
        } catch {
            inbox.post(.refreshFinished(message: "Refresh failed: \(error)", failed: true, at: Date()))
            return
        }
        refresh = importer
        let inbox = inbox
        let url = FeedLocation.summaryFeedURL(feed)
        DispatchQueue.global(qos: .utility).async {
            do {
                let reader = try FeedLocation(argument: url.absoluteString).openReader()
                var lastPost = Date.distantPast
                let summary = try importer.run(reader, replacingSample: true, window: SummaryFeedWindow(url: url), progress: { progress in
                    guard Date().timeIntervalSince(lastPost) > 0.1 else { return }
                    lastPost = Date()
                    inbox.post(.refreshProgress(fraction: progress.fraction, label: "refreshing \(feed)"))
                })
                let replaced = summary.sampleReplaced.map { "; \($0.sentence)" } ?? ""
                inbox.post(.refreshFinished(message: "Refreshed \(feed): \(summary.sentence)\(replaced)", failed: false, at: Date()))
            } catch {
                // The status line is short: the feed name says where, the error says why.
                var reason = "\(error)"
                if reason.hasPrefix(url.absoluteString + ": ") { reason.removeFirst(url.absoluteString.count + 2) }
                inbox.post(.refreshFinished(message: "Refresh of \(feed) failed: \(reason)", failed: true, at: Date(),
                                            kind: (error as? FeedError)?.kind))
            }
        }
    }
}

// MARK: The loop's inbox

/// What other threads post for the main loop to handle between keys, in order: actions (store
/// changes, settings, refresh progress, handoff), and the results engine's answers of its
/// background count, which the loop's performer takes in (`BrowserModel.takeCount`) and hands
/// to the update as an action carrying its results. Posting writes to the wake-up pipe the
/// loop blocks on in `poll(2)`, so a post is handled at once and an idle loop never wakes to look.
final class ActionInbox: @unchecked Sendable {
    // @unchecked: `pending` is guarded by `lock`.
    private let lock = NSLock()
    private var pending: [Posted] = []
    /// Another process committed: one flag for any number of commits, taken apart from the
    /// other actions (the loop merges them at its own pace, `MergePace`).
    private var storeChanged = false
    let wakeUp: WakeUpPipe

    enum Posted {
        case action(Action)
        /// The engine's `onCounted`: a count's answer (its results, or its failure).
        case counted(ResultsEngine.CountAnswer)
        /// The quakes that arrived after a commit, read in the background (`readArrivals`).
        case arrivals(Result<QuakeArrivals, any Error>)
    }

    init(wakeUp: WakeUpPipe) { self.wakeUp = wakeUp }

    func post(_ action: Action) { post(.action(action)) }

    func post(_ posted: Posted) {
        defer { wakeUp.wake() }
        lock.lock()
        defer { lock.unlock() }
        // A burst of commits needs one merge, and only the newest progress matters.
        switch (posted, pending.last) {
        case (.action(.storeChanged), _): storeChanged = true
        case (.action(.refreshProgress), .action(.refreshProgress)?): pending[pending.count - 1] = posted
        default: pending.append(posted)
        }
    }

    /// Whether a commit was reported since the last call.
    func takeStoreChange() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { storeChanged = false }
        return storeChanged
    }

    /// What was posted since the last call, in order (not `.storeChanged`: `takeStoreChange()`).
    func drain() -> [Posted] {
        lock.lock()
        defer { lock.unlock() }
        let posted = pending
        pending.removeAll(keepingCapacity: true)
        return posted
    }
}
