import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Issue 15's rough edges: a place with a tab or newline, a missing magnitude, the read error
/// that spoke of a write, and the questions before work is lost.
@Suite struct RoughEdgesTests {
    @Test(arguments: [60, 80, 120])
    func aPlaceWithTabsOrNewlinesShowsNoStrayEllipsis(columns: Int) {
        let width = ListView.Columns(width: columns, timeOfDayOnly: true).place
        // Exactly as wide as the place column once its controls are spaces collapsed.
        let words = String(repeating: "x", count: max(1, width - 7))
        let lines: [ListLine] = [
            .section(SectionLine(id: "d", title: "Monday, 6 May 2024", count: 2)),
            .quake(QuakeLine(code: "a", magnitude: nil, place: "\(words)\tHawaii\n", time: Fixtures.now)),
            .quake(QuakeLine(code: "b", magnitude: 2, place: "\tNear Hilo,\nHawaii\r\n", time: Fixtures.now)),
        ]
        let text = Screen.render(Fixtures.model(columns: columns, lines: lines)).lines
        let first = text[3], second = text[4]  // below the header, the column headers and the section
        #expect(!first.contains("…") && first.contains("\(words) Hawaii"), "\(first)")
        #expect(second.contains("Near Hilo, Hawaii"), "\(second)")
        #expect(first.trimmingCharacters(in: .whitespaces).hasPrefix("—"), "a missing magnitude shows —: \(first)")
    }

    @Test func aFailedReadNeverSaysNothingWasChanged() {
        for code: StoreError.Code in [.busy, .sqlite, .cancelled, .diskFull] {
            let error = StoreError(code, path: "/s/quakes.sqlite",
                                   underlyingError: SQLiteError(extendedCode: 5, message: "database is locked"))
            let text = error.readingDescription
            #expect(!text.lowercased().contains("nothing was changed"), "\(text)")
            #expect(text.contains("/s/quakes.sqlite") && text.contains("Press ctrl-l"), "\(text)")
        }
    }

    /// Sends as the runtime does: the reads an action asks for (the detail row a draft starts
    /// from) are answered before its other effects.
    static func send(_ model: BrowserModel, _ action: Action) throws -> [Effect] {
        try model.performReads(model.send(action))
    }

    @Test func escOnAChangedDraftAndQAskFirst() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        try model.restore(selectedCode: "q20", topCode: nil)
        func press(_ key: Key) throws -> [Effect] {
            guard let action = KeyMap.action(for: key, in: model.state) else { return [] }
            return try Self.send(model, action)
        }
        _ = try press(.character("e"))
        _ = try press(.escape)
        #expect(model.state.editor == nil, "an unchanged draft closes at once")
        _ = try press(.character("e"))
        _ = try press(.character("x"))
        _ = try press(.escape)
        #expect(model.state.confirmation == .discardDraft && model.state.editor?.text == "x")
        #expect(model.state.status.message?.contains("Discard the changes") == true)
        _ = try press(.character("j"))  // not an answer: nothing happens
        #expect(model.state.confirmation == .discardDraft)
        _ = try press(.character("n"))
        #expect(model.state.confirmation == nil && model.state.editor?.text == "x")
        _ = try press(.escape)
        _ = try press(.character("y"))
        #expect(model.state.editor == nil)
        _ = try press(.escape)  // close the detail
        #expect(try press(.character("Q")).isEmpty && model.state.confirmation == .closeScene)
        #expect(try press(.escape).isEmpty && model.state.confirmation == nil)
        _ = try press(.character("Q"))
        #expect(try press(.character("y")) == [.closeScene])
    }

    @Test func aNotesConflictOffersMineTheirsOrBoth() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        try model.restore(selectedCode: "q20", topCode: nil)
        _ = try Self.send(model, .beginEditing)
        for character in "mine" { _ = try Self.send(model, .editorKey(.character(character))) }
        #expect(try Self.send(model, .saveNotes) == [.saveNotesIfUnchanged(code: "q20", text: "mine", expected: "")])
        _ = try Self.send(model, .notesConflict(code: "q20", theirs: "theirs"))
        #expect(model.state.confirmation == .notesConflict(code: "q20", theirs: "theirs"))
        #expect(KeyMap.action(for: .character("b"), in: model.state) == .answer(.keepBoth))
        let both = try Self.send(model, .answer(.keepBoth))
        // The draft changed too, so the scene is saved with it.
        #expect(both == [.saveScene, .saveNotesIfUnchanged(code: "q20", text: "theirs\nmine", expected: "theirs")], "\(both)")
        _ = try Self.send(model, .notesConflict(code: "q20", theirs: "other"))
        #expect(try Self.send(model, .answer(.keepMine))
                == [.saveNotesIfUnchanged(code: "q20", text: "theirs\nmine", expected: "other")])
        _ = try Self.send(model, .notesConflict(code: "q20", theirs: "third"))
        #expect(try Self.send(model, .answer(.keepTheirs)) == [.saveScene] && model.state.editor == nil)
        #expect(model.state.messageLog.entries.contains { $0.text.contains("changed in another pane") })
    }
}
