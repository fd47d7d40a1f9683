import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// AppState ↔ scene storage (SPEC §4.1), and the frame a restored scene draws, on real files.
@Suite struct SceneRestorationTests {
    static func storage(_ dir: TemporaryDirectory) throws -> SceneStorage {
        let state = try StateDirectory(path: dir.path).prepared()
        return try SceneStorage(state: state, scene: SceneID(validating: "t"))
    }

    @Test func everySceneKeyRoundTripsThroughTheFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var state = AppState(sceneID: "t", sort: QuakeSortDescriptor(.region, ascending: false), searchText: "São")
        state.collapsedSections = ["alaska", "chile"]
        state.selectedCode = "us1"
        state.topCode = "us0"
        state.detailPresented = true
        state.detailTab = .map
        state.editor = NotesDraft(code: "us1", text: "felt\nit", cursor: 3)
        state.selectedSection = "chile"
        (state.cursorLine, state.topLine) = (17, 12)
        state.isSearching = true
        (state.helpVisible, state.helpOffset) = (true, 4)
        state.live.seen = ArrivalCursor(token: HistoryToken(rawValue: 7), maxID: 42)
        state.live.looked = LiveState.Looked(cursor: ArrivalCursor(token: HistoryToken(rawValue: 9), maxID: 44),
                                             time: Date(timeIntervalSince1970: 1_700_000_123))
        state.nearHome = true
        state.messageLog.append("Notes saved", isError: false, at: Date(timeIntervalSince1970: 1_700_000_000))
        (state.logVisible, state.logOffset) = (true, 2)
        state.commandLine = CommandPrompt(text: "depth 10-", cursor: 6)
        state.live.alerted = ["us1"]
        state.columnHeaders = false
        state.statistics.isPresented = true
        state.map.zoom = .local
        state.sequence.mainshock = "us0"
        state.decluster.method = .reasenberg
        (state.overlayFind, state.isOverlayFinding) = ("sort", true)
        let storage = try Self.storage(dir)
        try state.save(to: storage)
        // Every key of the one table (SceneKeys) is saved, and nothing else.
        #expect(Set(storage.allItems.keys) == Set(SceneKeys.names))
        // 14 + filters, commandHistory, seenArrival, nearHome + the message log (3), the : line, alerts,
        // the search cursor, column headers, the statistics view, the map's scale, the sequence
        // view's mainshock, what `/` finds in the help or the log and whether it is typed, where and
        // when the scene last showed arrivals to someone looking, the list's declustering
        #expect(SceneKeys.names.count == 32)
        try storage.close()

        var restored = AppState(sceneID: "t")
        let selection = restored.restore(from: try Self.storage(dir), now: relaunchNow)
        #expect(selection == .init(selectedCode: "us1", topCode: "us0", selectedSection: "chile", selectionLine: 5))
        #expect(restored.sort == state.sort && restored.searchText == "São" && restored.isSearching)
        #expect(restored.overlayFind == "sort" && restored.isOverlayFinding)
        #expect(restored.helpVisible && restored.helpOffset == 4)
        #expect(restored.collapsedSections == state.collapsedSections)
        #expect(restored.detailPresented && restored.detailTab == .map)
        #expect(restored.editor == state.editor)
        #expect(restored.messageLog == state.messageLog && restored.logVisible && restored.logOffset == 2)
        #expect(restored.commandLine == state.commandLine && restored.live.alerted == ["us1"])
        #expect(restored.columnHeaders == false && !restored.showsColumnHeaders)
        #expect(restored.statistics.isPresented && restored.map.zoom == .local)
        #expect(restored.sequence.mainshock == "us0")
        #expect(restored.decluster.method == .reasenberg && restored.statistics.declustering == .reasenberg)
        #expect(restored.live.seen == state.live.seen && restored.live.looked == state.live.looked)
    }

    /// Issue 31: the depth sort is saved as `depth` and comes back, direction included.
    @Test(arguments: [true, false])
    func theDepthSortRoundTripsThroughTheFile(ascending: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = AppState(sceneID: "t", sort: QuakeSortDescriptor(.depth, ascending: ascending))
        let storage = try Self.storage(dir)
        try state.save(to: storage)
        #expect(storage.allItems[SceneKeys.sortOrder.name] == .string("depth"))
        try storage.close()
        var restored = AppState(sceneID: "t")
        _ = restored.restore(from: try Self.storage(dir), now: relaunchNow)
        #expect(restored.sort == QuakeSortDescriptor(.depth, ascending: ascending))
        // The scene file's list of orders is the store's, in the order `s` cycles.
        #expect(SceneKeys.sortOrders == QuakeSortOrder.allCases.map(\.rawValue))
    }

    /// `.saveSettings` writes every setting that changed, not only the minimum magnitude, and
    /// leaves alone one another process changed meanwhile.
    @Test func savingSettingsWritesEveryChangedOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = try StateDirectory(path: dir.path).prepared()
        let storage = try AppStorage(state: state)
        var settings = AppSettings(storage)
        settings.minimumMagnitude = 4.5
        settings.timeZone = .utc
        settings.distanceUnit = .mi
        settings.refreshFeed = "significant_week"
        try settings.save(to: storage)
        #expect(AppSettings(try AppStorage(state: state)) == settings)

        let other = try AppStorage(state: state)
        try other.set("km", for: AppKeys.distanceUnit)   // another pane, meanwhile
        var next = settings
        next.minimumMagnitude = 6
        try next.save(to: storage)                       // storage's cache still says "mi"
        let read = AppSettings(try AppStorage(state: state))
        #expect(read.minimumMagnitude == 6)
        #expect(read.distanceUnit == .km, "an unchanged setting is not written back")
    }

    /// Issue 57: a draft too large for the scene file (a note of longer than the editor holds,
    /// stored by hand) no longer keeps the rest of the scene from being saved: it is saved
    /// without the draft, and the answer says so for the status line.
    @Test func aDraftTooLargeForTheFileIsLeftOutAndTheRestSaved() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let storage = try Self.storage(dir)
        var state = AppState(sceneID: "t", sort: QuakeSortDescriptor(.magnitude, ascending: true))
        state.editor = NotesDraft(code: "us1", text: "short", cursor: 5)
        #expect(try state.save(to: storage) == .whole)
        #expect(storage.value(for: SceneKeys.editDraft) == EditDraft(code: "us1", text: "short", cursor: 5))
        for size in [SceneStorage.maximumFileSize - 1_000, 70_000] {
            state.editor = NotesDraft(code: "us1", text: String(repeating: "x", count: size), cursor: 0)
            state.sort = QuakeSortDescriptor(.region, ascending: false)
            let saved = try state.save(to: storage)
            #expect(saved == .withoutDraft(characters: size))
            #expect(saved.message == "The notes draft (\(CountFormat.grouped(size)) characters) is too large to keep in the scene file "
                    + "(64 KiB), so a relaunch would not bring it back; the rest of the scene is saved. ctrl-s saves the notes to the store")
            #expect(storage.value(for: SceneKeys.editDraft) == nil)
            #expect(storage.value(for: SceneKeys.sortOrder) == "region")
            state.sort = QuakeSortDescriptor(.magnitude, ascending: true)
        }
    }

    @Test func aMissingSceneFileGivesTheDefaults() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var state = AppState(sceneID: "t")
        let selection = state.restore(from: try Self.storage(dir), now: relaunchNow)
        #expect(selection == .init(selectedCode: nil, topCode: nil))
        #expect(state.sort == QuakeSortDescriptor(.time) && !state.sort.ascending)
        #expect(!state.detailPresented && state.detailTab == .detail && state.editor == nil)
    }

    @Test func aRestoredSceneDrawsItsSelectionDetailAndDraft() throws {
        let source = BrowserModelTests.makeSource()
        var state = AppState(sceneID: "t", settings: BrowserModelTests.utc, columns: 130, rows: 14)
        state.detailPresented = true
        state.detailTab = .notes
        state.editor = NotesDraft(code: "q12", text: "felt it", cursor: 7)
        let model = try BrowserModel(state: state, source: source)
        defer { model.close() }
        try model.restore(selectedCode: "q12", topCode: "q14")
        #expect(model.pendingReads == [.loadDetail(code: "q12")])  // the runtime reads before the first frame
        _ = try model.performReads(model.pendingReads)
        let frame = try model.screenModel(FrameContext(now: 1_700_300_000_000, isLive: true,
                                                       localTimeZone: TimeZone(identifier: "UTC")!))
        var selected = QuakeLine(code: "q12", magnitude: 3, place: "Place 12, Region 0", time: 1_700_006_400_000 + 86_400_000 + 120_000,
                                 depth: 10, latitude: -33.4, longitude: -70.6)
        selected.eventType = "earthquake"  // the fixture's type, which the row's mark reads
        selected.magType = "mb"  // and its magnitude type, beside the magnitude
        #expect(frame.list.selectedIndex.map { frame.list.lines[$0] } == .quake(selected))
        #expect(frame.detail?.notes.text == "felt it" && frame.detail?.notes.isEditing == true)
        assertSnapshot(Screen.render(frame), named: "restored-scene-130x14")
    }
}
