import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// The update, through `BrowserModel` over a real store in a temp dir and alone with events fed
/// to it (answers, failures): whole states compared, and failures shown to leave the state
/// exactly as it was but for what the status line says.
@Suite struct BrowserUpdateTests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_700_006_400_000  // 2023-11-15 00:00 UTC

    /// 3 days × 4 quakes: f<day><i>, newer = larger index; "Alaska" on odd i, "Chile" on even.
    static func makeSource() -> ModelStore {
        var records: [QuakeRecord] = []
        for index in 0..<3 {
            for i in 0..<4 {
                let place: String = i % 2 == 1 ? "\(i) km N of Anchorage, Alaska" : "\(i) km S of Arica, Chile"
                let time: Int64 = start + Int64(index) * day + Int64(i) * 60_000
                records.append(.fixture("f\(index)\(i)", magnitude: Double(i + 2), place: place, time: time))
            }
        }
        return ModelStore(records)
    }

    static func makeModel(_ source: ModelStore, rows: Int = 12) throws -> BrowserModel {
        let model = try BrowserModel(state: AppState(sceneID: "t", settings: AppSettings(timeZone: .utc), columns: 80, rows: rows),
                                     source: source)
        try model.restore(AppState.RestoredSelection())
        return model
    }

    /// The display lines of sections holding `counts` rows, all expanded.
    static func layout(_ counts: [Int]) -> DisplayLayout {
        let sections = counts.enumerated().map { QuakeSection(id: "s\($0.offset)", title: "", count: $0.element) }
        let starts = counts.indices.map { counts[..<$0].reduce(0, +) }
        return DisplayLayout(sections: sections, sectionStarts: starts, collapsed: [])
    }

    static func text(_ model: BrowserModel) throws -> [String] {
        Screen.render(try model.screenModel(FrameContext(now: start + 4 * day, isLive: true, localTimeZone: .gmt))).lines
    }

    @Test func movingDownChangesOnlyTheCursorAndTheSelection() throws {
        let model = try Self.makeModel(Self.makeSource())
        var expected = model.state
        #expect(try model.send(.moveDown) == [.saveScene])
        expected.cursorLine = 2
        expected.selectedCode = "f22"
        expected.restoredPlacement = nil  // the first key ends the restored screen
        #expect(model.state == expected)
    }

    /// The update reads no clock: the time comes with the action, from the runtime.
    @Test func theTimeComesWithTheAction() throws {
        let model = try Self.makeModel(Self.makeSource())
        var expected = model.state
        let logged = Date(timeIntervalSince1970: 1_700_000_000)
        try model.send(.showMessage("Refresh failed", isError: true), at: logged)
        expected.now = logged
        expected.status.message = "Refresh failed"
        expected.status.isError = true
        expected.messageLog.append("Refresh failed", isError: true, at: logged)
        #expect(model.state == expected)
        // `:since` counts back from the time of the Enter that runs it.
        try model.send(.beginCommand)
        try model.send(.commandInput("since 1d"))
        let enter = Date(timeIntervalSince1970: 1_700_100_000)
        try model.send(.runCommand, at: enter)
        #expect(model.state.now == enter)
        #expect(model.state.rowFilters == [.time(from: 1_700_100_000_000 - Self.day, until: nil)])
        #expect(model.state.messageLog.entries.last?.time == enter)
    }

    @Test func aSearchKeystrokeRefetchesAndKeepsTheSelectedQuakeOnItsLine() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        try model.send(.moveDown)  // f22, Chile, line 2
        try model.send(.beginSearch)
        var expected = model.state
        #expect(try model.send(.searchInput("c")) == [.saveScene])
        expected.searchText = "c"
        expected.results.request = expected.request  // the source's answer: the same sections
        // "c" is in every place ("Anchorage", "Arica", "Chile"): nothing moves.
        #expect(model.state == expected)
        #expect(try model.send(.searchInput("h")) == [.saveScene])  // "ch": Anchorage and Chile
        expected.searchText = "ch"
        expected.results.request = expected.request
        #expect(model.state == expected)
        try model.send(.searchInput("i"))  // "chi": Chile only; f23 goes, f22 is its day's first row now
        expected.searchText = "chi"
        expected.cursorLine = 1
        expected.topCode = "f22"
        expected.layout = Self.layout([2, 2, 2])
        expected.results = model.state.results  // the sections and rows the store answered
        #expect(model.state == expected)
        #expect(model.results.count == 6)
        #expect(try Self.text(model)[0].contains("6"))
    }

    /// A model searching for "a".
    static func searchingA() throws -> (ModelStore, BrowserModel) {
        let source = Self.makeSource()
        let model = try Self.makeModel(source)
        try model.send(.beginSearch)
        try model.send(.searchInput("a"))
        return (source, model)
    }

    /// An error of the store's that is neither SQLite's nor the store's own.
    struct DiskError: Error, CustomStringConvertible {
        var description: String { "disk I/O error" }
    }

    /// What the runtime posts when the store cannot answer (`BrowserModel.readFailure(DiskError())`).
    static let diskError = "Could not read the store: disk I/O error. Press ctrl-l to try again; if it persists, quit and relaunch."

    /// `action` given to the pure update with every answer the runtime could post being a
    /// failure: each `Effect.queryResults` answered by `Action.resultsFailed` (a resume
    /// included), rows never read. The effects left over.
    static func failingEveryQuery(_ state: inout BrowserState, _ action: Action, reason: String) -> [Effect] {
        var queue = state.update(action)[...]
        var rest: [Effect] = []
        while let effect = queue.popFirst() {
            switch effect {
            case .queryResults(let query): queue += state.update(.resultsFailed(query, reason: reason))
            case .readRows: break  // a read that fails posts nothing
            default: rest.append(effect)
            }
        }
        return rest
    }

    /// The store cannot run the search, nor put the list back: the update leaves its state as
    /// it was, but for the status line (and the log), which says what failed and why.
    @Test func aSearchTheStoreCannotRunLeavesTheStateAsItWasAndSaysWhy() throws {
        let (source, model) = try Self.searchingA()
        defer { source.close() }
        let before = model.state
        var state = before
        _ = Self.failingEveryQuery(&state, .searchInput("l"), reason: Self.diskError)
        var expected = before
        expected.status.message = "The list could not be read again: " + Self.diskError
        expected.status.isError = true
        expected.messageLog = state.messageLog
        #expect(state == expected)
        #expect(state.messageLog.entries.suffix(2).map(\.text)
                == ["The search could not be applied: " + Self.diskError, "The list could not be read again: " + Self.diskError])
        // What the runtime posts for such an error, and says when the rows cannot be read either.
        #expect(BrowserModel.readFailure(DiskError()) == Self.diskError)
        #expect(BrowserModel.failureMessage(for: .searchInput("l"), DiskError()) == "The search could not be applied: " + Self.diskError)
    }

    /// A read error that passes (one EIO): the failure comes back to the update as an event,
    /// which puts the search back as it was and says what failed, and asks for the list again;
    /// its answer (the same results) leaves the state as before but for the message. A late
    /// failure of a query no longer awaited changes nothing.
    @Test func aSearchThatFailsOnceIsPutBackByTheUpdateAndSaysSo() throws {
        let (source, model) = try Self.searchingA()
        defer { source.close() }
        let before = model.state
        var state = before
        let asked = state.update(.searchInput("l"))
        guard case .queryResults(let search)? = asked.first(where: { if case .queryResults = $0 { true } else { false } }) else {
            Issue.record("no query for the search: \(asked)")
            return
        }
        #expect(state.searchText == "al")
        let retried = state.update(.resultsFailed(search, reason: Self.diskError))
        #expect(retried == [.saveScene, .queryResults(ResultsQuery(step: .resume(before.request), anchor: before.selectedCode,
                                                       collapsed: before.collapsedSections,
                                                       purpose: .keepSelection(line: before.cursorLine - before.topLine)))])
        guard case .queryResults(let resume)? = retried.last else { return }
        _ = state.update(.resultsAnswered(ResultsAnswer(query: resume, snapshot: state.results, changed: false)))
        let message = "The search could not be applied: " + Self.diskError
        var expected = before
        expected.status.message = message
        expected.status.isError = true
        expected.messageLog = state.messageLog
        #expect(state == expected)
        #expect(state.messageLog.entries.last?.text == message)
        // The failure of the search again, late: not awaited, nothing changes.
        let settled = state
        #expect(state.update(.resultsFailed(search, reason: Self.diskError)) == [])
        #expect(state == settled)
        // The model, on the real store, searches on from the same state as usual.
        try model.send(.searchInput("l"))
        #expect(model.state.searchText == "al" && model.state.status.message == nil
                    && model.results.request == model.state.request)
    }

    /// Issue 29: one EIO reading the store surfaced as "database disk image is malformed" on the
    /// status line (the fault sweep's browser scene trials), though `integrity_check` was ok.
    @Test func aReadErrorSQLiteCallsMalformedIsNotCalledDamaged() {
        let malformed = SQLiteError(extendedCode: SQLiteError.corrupt, message: "database disk image is malformed")
        let message = BrowserModel.failureMessage(for: .nextSortOrder, malformed)
        #expect(!message.contains("malformed"), "\(message)")
        #expect(message == "The list could not be sorted: Could not read the store (a read failed); it is not known to be damaged. "
                + "Press ctrl-l to try again; if it persists, quit and run quaketui info.")
        let eio = SQLiteError(extendedCode: SQLiteError.ioError, message: "disk I/O error", systemErrno: EIO)
        #expect(BrowserModel.readFailure(eio).hasPrefix("Could not read the store (Input/output error); it is not known to be damaged."))
    }

    /// A read that finds no room was writing in the temporary directory (a distance sort's
    /// table, SQLite's sorts) or, rarely, beside the store: it names both, and what to do.
    @Test func aFullDiskWhileReadingNamesTheTemporaryDirectory() {
        let full = SQLiteError(extendedCode: SQLiteError.full, message: "database or disk is full")
        func expected(_ store: String) -> String {
            "Could not read the store: no room left in the temporary directory \(FileManager.default.temporaryDirectory.path) "
                + "(a distance or intensity sort keeps its table there, and SQLite its large sorts) or \(store). Free some "
                + "space, or relaunch with TMPDIR set to a directory with room. Press ctrl-l to try again."
        }
        #expect(BrowserModel.readFailure(full) == expected("beside the store"))
        #expect(BrowserModel.readFailure(StoreError(full, path: "/s/quakes.sqlite")) == expected("beside the store /s/quakes.sqlite"))
    }

    /// The fault sweep's notes trials: one EIO reading the arrivals showed "New quakes could not
    /// be read: SQLite error 11: database disk image is malformed" (raw, and damage it was not).
    @Test func arrivalsThatCannotBeReadAreAReadFailureNotRawSQLite() {
        let malformed = SQLiteError(extendedCode: SQLiteError.corrupt, message: "database disk image is malformed")
        #expect(BrowserModel.arrivalsFailure(malformed) == "New quakes could not be read: Could not read the store (a read failed); "
                + "it is not known to be damaged. Press ctrl-l to try again; if it persists, quit and run quaketui info.")
    }

    /// Sorts, the minimum magnitude, a merge and a handoff the store cannot answer: each leaves
    /// the state as it was, but for the status line and the log, which say why.
    @Test func aSortOrAMergeTheStoreCannotRunLeavesTheStateAsItWas() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        try model.send(.pageDown)
        let before = model.state
        let locked = "Could not read the store: database is locked. Press ctrl-l to try again; if it persists, quit and relaunch."
        for action in [Action.nextSortOrder, .reverseSortDirection, .cycleMinimumMagnitude, .storeChanged,
                       .continueActivity(code: "f00")] {
            var state = before
            _ = Self.failingEveryQuery(&state, action, reason: locked)
            var expected = before
            expected.status = state.status
            expected.messageLog = state.messageLog
            if state.status.message != nil {
                #expect(state.status.isError && state.status.message?.hasSuffix(locked) == true, "\(action)")
            }
            expected.restoredPlacement = state.restoredPlacement
            #expect(state == expected, "\(action)")
        }
    }

    @Test func theDetailIsReadByAnEffectAndDrawnFromState() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source, rows: 30)
        var expected = model.state
        let effects = try model.send(.openDetail)
        #expect(effects == [.saveScene, .advertise(code: "f23"), .loadDetail(code: "f23")])
        expected.detailPresented = true
        expected.restoredPlacement = nil  // the first key ends the restored screen
        #expect(model.state == expected)
        #expect(try model.performReads(effects) == [.saveScene, .advertise(code: "f23")])
        expected.detail = LoadedQuake(code: "f23", quake: try source.quake(code: "f23"))
        #expect(model.state == expected)
        #expect(try Self.text(model).contains { $0.contains("Anchorage, Alaska") && $0.contains("3 km N") })
        // An answer for a quake no longer selected is dropped.
        try model.send(.moveDown)
        let moved = model.state
        try model.send(.detailLoaded(code: "f23", nil))
        #expect(model.state == moved)
        // Closing the detail drops the copy; the next open reads again.
        try model.send(.closeDetail)
        #expect(model.state.detail == nil)
    }

    /// `o`, `y` and `@` act on the quake as stored: the update asks for it (`Effect.readQuake`)
    /// and acts when it comes back (`Action.quakeRead`), reading nothing itself.
    @Test func oYAndAtReadTheQuakeByAnEffect() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        let page = "https://earthquake.usgs.gov/earthquakes/eventpage/f23"
        var expected = model.state
        #expect(try model.send(.openInBrowser) == [.readQuake(code: "f23", for: .openPage)])
        expected.restoredPlacement = nil  // the first key ends the restored screen
        #expect(model.state == expected)
        #expect(try model.send(.quakeRead(code: "f23", source.quake(code: "f23"), for: .openPage)) == [.openURL(page)])
        #expect(model.state == expected)
        #expect(try model.performReads(model.send(.copyLink)) == [.copyToClipboard(page)])
        expected.status.message = "Copied \(page) (through the terminal: in tmux, set-clipboard on)"
        expected.messageLog = model.state.messageLog
        #expect(model.state == expected)
        #expect(model.state.messageLog.entries.map(\.text) == [expected.status.message])
        // A quake without a web page: `y` copies its code; one gone from the store meanwhile: select another.
        var plain = try #require(try source.quake(code: "f23")).record
        plain.url = "javascript:alert(1)"
        try model.send(.quakeRead(code: "f23", StoredQuake(id: 12, record: plain, notes: nil), for: .copyPage))
        #expect(model.state.status.message == "Copied f23 (through the terminal: in tmux, set-clipboard on)")
        try model.send(.quakeRead(code: "f23", StoredQuake(id: 12, record: plain, notes: nil), for: .openPage))
        #expect(model.state.status.message == "Quake f23 has no event page in its feed; y copies its code")
        try source.delete(code: "f23")
        #expect(try model.performReads(model.send(.setHomeToSelection)) == [])
        #expect(model.state.status.message == "Select a quake first: @ sets home to the selected quake's location")
        #expect(model.state.settings.home == nil)
    }

    @Test func openingAQuakeTheMinimumMagnitudeHidesReadsItToSaySo() throws {
        let model = try Self.makeModel(Self.makeSource())
        try model.send(.cycleMinimumMagnitude)  // 2.5: the M 2 quakes (f<day>0) go
        #expect(try model.send(.continueActivity(code: "f00")) == [.readQuake(code: "f00", for: .explainHidden)])
        _ = try model.performReads([.readQuake(code: "f00", for: .explainHidden)])
        #expect(model.state.status.message == "Quake f00 (M 2.0) is hidden by the minimum magnitude 2.5, shared by every pane: "
                    + "press m until all magnitudes show")
        #expect(try model.performReads(model.send(.continueActivity(code: "gone"))) == [])
        #expect(model.state.status.message == "Quake gone is not in the store; import or refresh first")
        #expect(model.state.status.isError)
    }

    @Test func notesEditingWaitsForTheStoredNotes() throws {
        let source = Self.makeSource()
        defer { source.close() }
        try source.setNotes("felt strongly", code: "f23")
        let model = try Self.makeModel(source)
        try model.send(.storeChanged)
        var expected = model.state
        let effects = try model.send(.beginEditing)
        #expect(effects == [.saveScene, .loadDetail(code: "f23")])
        expected.detailPresented = true
        expected.detailTab = .notes
        expected.notesRequest = "f23"
        expected.restoredPlacement = nil  // the first key ends the restored screen
        #expect(model.state == expected)
        _ = try model.performReads(effects)
        expected.notesRequest = nil
        expected.detail = LoadedQuake(code: "f23", quake: try source.quake(code: "f23"))
        expected.editor = NotesDraft(code: "f23", text: "felt strongly", cursor: 13)
        expected.editor?.base = "felt strongly"  // what a save checks the store still holds
        #expect(model.state == expected)
    }

    @Test func aMergeReloadsTheDetailItShows() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        _ = try model.performReads(model.send(.openDetail))
        try source.setNotes("aftershock", code: "f23")
        let effects = try model.send(.storeChanged)
        #expect(effects == [.loadDetail(code: "f23")])
        _ = try model.performReads(effects)
        #expect(model.state.detail?.quake?.notes == "aftershock")
        // A merge that changed nothing reads nothing.
        #expect(try model.send(.storeChanged) == [])
    }

    @Test func aCommitElsewhereKeepsTheSelectionOnItsLine() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        try model.send(.moveDown)
        try model.send(.moveDown)  // f21
        var expected = model.state
        try source.upsert(.fixture("new", magnitude: 5, place: "Near Hilo, Hawaii", time: Self.start + 2 * Self.day + 3_600_000))
        #expect(try model.send(.storeChanged) == [.saveScene])  // the top quake changed
        // The new quake sorts above f21 in its day: the list scrolls by one, the cursor stays on its screen line.
        expected.cursorLine += 1
        expected.topLine += 1
        expected.topCode = "new"
        expected.layout = Self.layout([5, 4, 4])
        expected.results = model.state.results  // the sections and rows the store answered
        #expect(model.state == expected)
        try source.delete(code: "f21")
        try model.send(.storeChanged)
        #expect(model.state.selectedCode == "f20")  // its neighbour takes over
        #expect(model.state.selectionLine == expected.selectionLine)
    }
}
