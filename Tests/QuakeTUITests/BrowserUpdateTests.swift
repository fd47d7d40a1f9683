import Foundation
import QuakeStore
@testable import QuakeTUI
import QuakeTestSupport
import Testing

/// The update against the in-memory results source: no SQLite, whole states compared, and a
/// source that fails to show that a failed action leaves the state exactly as it was.
@Suite struct BrowserUpdateTests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_700_006_400_000  // 2023-11-15 00:00 UTC

    /// 3 days × 4 quakes: f<day><i>, newer = larger index; "Alaska" on odd i, "Chile" on even.
    static func makeSource() -> InMemoryResultsSource {
        var records: [QuakeRecord] = []
        for index in 0..<3 {
            for i in 0..<4 {
                let place: String = i % 2 == 1 ? "\(i) km N of Anchorage, Alaska" : "\(i) km S of Arica, Chile"
                let time: Int64 = start + Int64(index) * day + Int64(i) * 60_000
                records.append(.fixture("f\(index)\(i)", magnitude: Double(i + 2), place: place, time: time))
            }
        }
        return InMemoryResultsSource(records)
    }

    static func makeModel(_ source: InMemoryResultsSource, rows: Int = 12) throws -> BrowserModel {
        let model = try BrowserModel(state: AppState(sceneID: "t", settings: AppSettings(timeZone: .utc), columns: 80, rows: rows),
                                     source: source)
        try model.restore(AppState.RestoredSelection())
        return model
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
        #expect(model.state == expected)
    }

    @Test func aSearchKeystrokeRefetchesAndKeepsTheSelectedQuakeOnItsLine() throws {
        let source = Self.makeSource()
        let model = try Self.makeModel(source)
        try model.send(.moveDown)  // f22, Chile, line 2
        try model.send(.beginSearch)
        var expected = model.state
        #expect(try model.send(.searchInput("c")) == [.saveScene])
        expected.searchText = "c"
        // "c" is in every place ("Anchorage", "Arica", "Chile"): nothing moves.
        #expect(model.state == expected)
        #expect(try model.send(.searchInput("h")) == [.saveScene])  // "ch": Anchorage and Chile
        expected.searchText = "ch"
        #expect(model.state == expected)
        try model.send(.searchInput("i"))  // "chi": Chile only; f23 goes, f22 is its day's first row now
        expected.searchText = "chi"
        expected.cursorLine = 1
        expected.topCode = "f22"
        #expect(model.state == expected)
        #expect(source.count == 6)
        #expect(try Self.text(model)[0].contains("6"))
    }

    @Test func aSearchTheSourceCannotRunLeavesTheStateAsItWas() throws {
        let source = Self.makeSource()
        let model = try Self.makeModel(source)
        try model.send(.beginSearch)
        try model.send(.searchInput("a"))
        let before = model.state
        let screen = try Self.text(model)
        source.failure = .init("disk I/O error")
        #expect(throws: InMemoryResultsSource.Failure("disk I/O error")) { try model.send(.searchInput("l")) }
        #expect(model.state == before)
        #expect(source.request == before.request)
        source.failure = nil
        #expect(try Self.text(model) == screen)
        #expect(BrowserModel.failureMessage(for: .searchInput("l"), InMemoryResultsSource.Failure("disk I/O error"))
                == "The search could not be applied: Could not read the store: disk I/O error. "
                    + "Press ctrl-l to try again; if it persists, quit and relaunch.")
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

    /// The fault sweep's notes trials: one EIO reading the arrivals showed "New quakes could not
    /// be read: SQLite error 11: database disk image is malformed" (raw, and damage it was not).
    @Test func arrivalsThatCannotBeReadAreAReadFailureNotRawSQLite() {
        let malformed = SQLiteError(extendedCode: SQLiteError.corrupt, message: "database disk image is malformed")
        #expect(BrowserModel.arrivalsFailure(malformed) == "New quakes could not be read: Could not read the store (a read failed); "
                + "it is not known to be damaged. Press ctrl-l to try again; if it persists, quit and run quaketui info.")
    }

    @Test func aSortOrAMergeTheSourceCannotRunLeavesTheStateAsItWas() throws {
        let source = Self.makeSource()
        let model = try Self.makeModel(source)
        try model.send(.pageDown)
        let before = model.state
        source.failure = .init("database is locked")
        for action in [Action.nextSortOrder, .reverseSortDirection, .cycleMinimumMagnitude, .storeChanged,
                       .continueActivity(code: "f00")] {
            #expect(throws: InMemoryResultsSource.Failure.self) { try model.send(action) }
            #expect(model.state == before, "\(action)")
        }
    }

    @Test func theDetailIsReadByAnEffectAndDrawnFromState() throws {
        let source = Self.makeSource()
        let model = try Self.makeModel(source, rows: 30)
        var expected = model.state
        let effects = try model.send(.openDetail)
        #expect(effects == [.saveScene, .advertise(code: "f23"), .loadDetail(code: "f23")])
        expected.detailPresented = true
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

    @Test func notesEditingWaitsForTheStoredNotes() throws {
        let source = Self.makeSource()
        source.setNotes("felt strongly", code: "f23")
        let model = try Self.makeModel(source)
        try model.send(.storeChanged)
        var expected = model.state
        let effects = try model.send(.beginEditing)
        #expect(effects == [.saveScene, .loadDetail(code: "f23")])
        expected.detailPresented = true
        expected.detailTab = .notes
        expected.notesRequest = "f23"
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
        let model = try Self.makeModel(source)
        _ = try model.performReads(model.send(.openDetail))
        source.setNotes("aftershock", code: "f23")
        let effects = try model.send(.storeChanged)
        #expect(effects == [.loadDetail(code: "f23")])
        _ = try model.performReads(effects)
        #expect(model.state.detail?.quake?.notes == "aftershock")
        // A merge that changed nothing reads nothing.
        #expect(try model.send(.storeChanged) == [])
    }

    @Test func aCommitElsewhereKeepsTheSelectionOnItsLine() throws {
        let source = Self.makeSource()
        let model = try Self.makeModel(source)
        try model.send(.moveDown)
        try model.send(.moveDown)  // f21
        var expected = model.state
        source.upsert(.fixture("new", magnitude: 5, place: "Near Hilo, Hawaii", time: Self.start + 2 * Self.day + 3_600_000))
        #expect(try model.send(.storeChanged) == [.saveScene])  // the top quake changed
        // The new quake sorts above f21 in its day: the list scrolls by one, the cursor stays on its screen line.
        expected.cursorLine += 1
        expected.topLine += 1
        expected.topCode = "new"
        #expect(model.state == expected)
        source.delete(code: "f21")
        try model.send(.storeChanged)
        #expect(model.state.selectedCode == "f20")  // its neighbour takes over
        #expect(model.state.selectionLine == expected.selectionLine)
    }
}
