import Foundation
import QuakeModel
@testable import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

@Suite struct BrowserModelTests {
    static let utc = AppSettings(timeZone: .utc)

    /// 3 days × 5 quakes, magnitudes 1…5 within each day; q<day><i>, newer = larger index.
    static func records() -> [QuakeRecord] {
        var records: [QuakeRecord] = []
        for day in 0..<3 {
            for i in 0..<5 {
                records.append(.fixture("q\(day)\(i)", magnitude: Double(i + 1), place: "Place \(day)\(i), Region \(i % 2)",
                                        time: 1_700_006_400_000 + Int64(day) * 86_400_000 + Int64(i) * 60_000))
            }
        }
        return records
    }

    /// The quakes of `records()` in a real store in a temp dir (closed when the test process
    /// exits, if not before).
    static func makeSource() -> ModelStore { ModelStore(records()) }

    static func makeModel(_ source: ModelStore, rows: Int = 12) throws -> BrowserModel {
        try BrowserModel(state: AppState(sceneID: "t", settings: utc, columns: 80, rows: rows), source: source)
    }

    @Test func theCursorStartsOnTheFirstQuakeAndMovesBetweenQuakes() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: nil, topCode: nil)
        #expect(model.state.cursorLine == 1)
        #expect(model.state.selectedCode == "q24")  // newest first
        var expected = model.state
        try model.send(.moveDown)
        expected.cursorLine = 2
        expected.selectedCode = "q23"
        expected.restoredPlacement = nil  // the first key ends the restored screen
        #expect(model.state == expected)
        try model.send(.last)
        #expect(model.state.selectedCode == "q00")
        #expect(model.state.cursorLine == model.layout.lineCount - 1)
        #expect(model.state.topLine == model.layout.lineCount - model.listHeight)
        try model.send(.first)
        #expect(model.state.cursorLine == 1 && model.state.topLine == 0)  // the first quake, its header above
        #expect(model.state.selectedCode == "q24")
    }

    @Test func sortingKeepsTheSelectedQuakeOnTheSameScreenLine() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "q12", topCode: nil)
        let screenRow = model.state.cursorLine - model.state.topLine
        let effects = try model.send(.nextSortOrder)
        #expect(effects == [.saveScene])
        #expect(model.state.sort == QuakeSortDescriptor(.magnitude))
        #expect(model.state.selectedCode == "q12")
        #expect(model.results.sections.map(\.id) == ["M 5", "M 4", "M 3", "M 2", "M 1"])
        #expect(model.state.cursorLine - model.state.topLine == screenRow)
        try model.send(.reverseSortDirection)
        #expect(model.state.sort.ascending)
        #expect(model.state.selectedCode == "q12")
    }

    @Test func searchNarrowsAsYouTypeAndEscapeClearsIt() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "q24", topCode: nil)
        try model.send(.beginSearch)
        for character in "place 1" { try model.send(.searchInput(String(character))) }
        // Every word in any order (issue 53): "Place 1x" and the places whose region is "Region 1".
        #expect(model.results.count == 9)
        let matching: Set<String> = ["q10", "q11", "q12", "q13", "q14", "q01", "q03", "q21", "q23"]
        #expect(model.state.selectedCode.map(matching.contains) == true)  // handed to the nearest match
        try model.send(.searchEdit(.backspace))  // "place " matches everything again
        #expect(model.results.count == 15)
        try model.send(.searchInput("2"))
        try model.send(.commitSearch)
        #expect(!model.state.isSearching && model.state.searchText == "place 2")
        try model.send(.beginSearch)
        try model.send(.cancelSearch)
        #expect(model.state.searchText.isEmpty && model.results.count == 15)
    }

    @Test func collapsingASectionPutsTheCursorOnItsHeader() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "q22", topCode: nil)
        try model.send(.toggleSection)
        let id = model.results.sections[0].id
        #expect(model.state.collapsedSections == [id])
        #expect(model.state.cursorLine == 0)
        #expect(model.layout.lineCount == 1 + 1 + 5 + 1 + 5)
        try model.send(.moveDown)
        #expect(model.layout.line(at: model.state.cursorLine) == .row(section: 1, offset: 5))  // past the expanded header
        try model.send(.moveUp)
        #expect(model.state.cursorLine == 0)  // the collapsed header is a stop
        try model.send(.toggleSection)
        #expect(model.state.collapsedSections.isEmpty)
    }

    @Test func aCommitFromAnotherWriterAppearsAndTheSelectionStays() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "q13", topCode: nil)
        let screenRow = model.state.cursorLine - model.state.topLine
        try source.upsert(.fixture("new1", time: 1_700_006_400_000 + 2 * 86_400_000 + 3_600_000))
        try source.upsert(.fixture("new2", time: 1_700_006_400_000 + 9 * 86_400_000))
        try model.send(.storeChanged)
        #expect(model.results.count == 17)
        #expect(model.state.selectedCode == "q13")
        #expect(model.state.cursorLine - model.state.topLine == screenRow)
        // The selected quake is deleted elsewhere: its neighbour takes over.
        try source.delete(code: "q13")
        try model.send(.storeChanged)
        #expect(model.state.selectedCode == "q12")
    }

    /// Another process merges the selected quake into another (ComCat listed its code among the
    /// other's ids): the selection follows it to the quake it was merged into, not to the
    /// neighbour that takes its place, and the open detail reads that quake.
    @Test func aSelectedQuakeMergedElsewhereTakesTheSelectionToItsEvent() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "q13", topCode: nil)
        try model.send(.openDetail)
        let writer = try source.store.container.newBackgroundContext(author: "other")
        defer { writer.close() }
        let merged = try writer.performAndWait { tx in
            try tx.mergeComCatAliases(ComCatAliases(aliases: [.init(alias: "q13", code: "q21")], generated: 1_800_000_000_000))
        }
        #expect(merged == 1)
        let effects = try model.send(.storeChanged)
        #expect(model.results.count == 14)
        #expect(model.state.selectedCode == "q21")
        #expect(effects.contains(.loadDetail(code: "q21")), "\(effects)")
        // A quake deleted outright still hands the selection to its neighbour.
        try model.restore(selectedCode: "q12", topCode: nil)
        try source.delete(code: "q12")
        try model.send(.storeChanged)
        #expect(model.state.selectedCode == "q11")
    }

    /// The same when the store is slow: the list in magnitude order, the merge over its budget is
    /// counted again in the background (as in a section holding half of 5,000,000 quakes), and the
    /// count's answer takes the selection to the quake it was merged into, in another section.
    @Test func aSelectedQuakeMergedElsewhereWhileCountsArePendingGoesToItsEvent() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let (model, counts) = try source.provisionalModel(AppState(sceneID: "t", settings: Self.utc, columns: 80, rows: 12))
        try model.restore(selectedCode: "q13", topCode: nil)
        counts.goProvisional()
        try model.send(.nextSortOrder)
        try counts.settle(model)
        #expect(model.state.selectedCode == "q13" && model.state.sort.order != .time)
        let writer = try source.store.container.newBackgroundContext(author: "other")
        defer { writer.close() }
        try writer.performAndWait { tx in
            _ = try tx.mergeComCatAliases(ComCatAliases(aliases: [.init(alias: "q13", code: "q21")], generated: 1_800_000_000_000))
        }
        model.results.mergeBudget = .seconds(10)
        model.results.digestCountedSection = 0  // every section's place counted over the digest: over budget
        try model.send(.storeChanged)
        #expect(model.results.pendingCount != nil)
        while model.results.pendingCount != nil { #expect(try counts.actOnCount(model, waiting: true)) }
        #expect(model.results.count == 14)
        #expect(model.state.selectedCode == "q21")
    }

    /// A search that matched nothing, cleared: the cursor comes back on the first quake, not
    /// on the expanded header above it, which no key selects (and which `Enter` would fold).
    @Test func aSearchThatMatchedNothingClearedSelectsTheFirstQuake() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "q13", topCode: nil)
        for action in [Action.beginSearch, .searchInput("zzzz"), .commitSearch] { try model.send(action) }
        #expect(model.results.count == 0 && model.state.selectedCode == nil)
        try model.send(.cancelSearch)
        #expect(model.results.count == 15)
        #expect(model.layout.line(at: model.state.cursorLine) == .row(section: 0, offset: 0))
        #expect(model.state.selectedCode == "q24" && model.state.selectedSection == nil)
    }

    @Test func notesEditingProducesASaveAndSurvivesAsADraft() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "q20", topCode: nil)
        // The draft starts from the stored notes: a read the runtime performs, answered by an action.
        #expect(try model.send(.beginEditing) == [.saveScene, .loadDetail(code: "q20")])
        #expect(model.state.editor == nil && model.state.notesRequest == "q20")
        _ = try model.performReads([.loadDetail(code: "q20")])
        #expect(model.state.detailPresented && model.state.detailTab == .notes)
        for character in "felt it" { try model.send(.editorKey(.character(character))) }
        try model.send(.editorKey(.home))
        try model.send(.editorKey(.character(">")))
        #expect(model.state.editor?.code == "q20")
        #expect(model.state.editor?.text == ">felt it" && model.state.editor?.cursor == 1)
        let effects = try model.send(.saveNotes)
        #expect(effects == [.saveNotesIfUnchanged(code: "q20", text: ">felt it", expected: "")])
        try model.send(.notesSaved(code: "q20"))
        #expect(model.state.editor == nil)
    }

    @Test func openingTheDetailAdvertisesTheQuake() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: "q11", topCode: nil)
        #expect(try model.send(.openDetail) == [.saveScene, .advertise(code: "q11"), .loadDetail(code: "q11")])
        _ = try model.performReads([.loadDetail(code: "q11")])
        // The Map tab draws the list as density: counted in the background (issue 32).
        let list = SectionedFetchRequest(predicate: model.state.request.predicate, timeZone: model.state.request.timeZone)
        #expect(try model.send(.nextTab) == [.saveScene, .computeDensity(list, window: .world(cellDegrees: 1), generation: 1)])
        #expect(model.state.detailTab == .map)
        try model.send(.closeDetail)
        #expect(!model.state.detailPresented)
        // Continuing another scene's activity selects and opens that quake.
        #expect(try model.send(.continueActivity(code: "q02")) == [.saveScene, .advertise(code: "q02"), .loadDetail(code: "q02")])
        #expect(model.state.selectedCode == "q02" && model.state.detailPresented)
    }

    @Test func restoringAScrollPositionAndAVanishedSelection() throws {
        let source = Self.makeSource()
        defer { source.close() }
        let model = try Self.makeModel(source, rows: 12)
        defer { model.close() }
        try model.restore(selectedCode: "q13", topCode: "q14")
        #expect(model.state.selectedCode == "q13")
        #expect(model.state.topCode == "q14")
        #expect(model.state.topLine == 6)  // with q14's section header above it, as it was saved
        let other = try Self.makeModel(source, rows: 12)
        defer { other.close() }
        try other.restore(selectedCode: "gone-forever", topCode: nil)
        #expect(other.state.selectedCode == "q24")
    }
}
