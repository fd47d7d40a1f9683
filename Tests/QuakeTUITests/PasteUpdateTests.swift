import Foundation
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Issue 28.2 in the update: a paste (`Key.paste` → `Action.paste`) goes whole into the field
/// being edited, cleaned for it, and nowhere else; whole states compared.
@Suite struct PasteUpdateTests {
    static let pasted = "Tokyo\r\nJapan\u{1B}[A\tq\u{7}"

    @Test func aPasteIsAnActionOfItsOwnInEveryFocus() throws {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        #expect(KeyMap.action(for: .paste(Self.pasted), in: model.state) == .paste(Self.pasted))
        model.state.helpVisible = true
        #expect(KeyMap.action(for: .paste("q"), in: model.state) == .paste("q"))
    }

    @Test func intoTheSearchAsOneLineWithOneRefetch() throws {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        try model.send(.beginSearch)
        try model.send(.searchInput("Ari"))
        var expected = model.state
        try model.send(.paste("ca\r\nChile"))
        let searched = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        try searched.send(.beginSearch)
        try searched.send(.searchInput("Arica Chile"))
        expected = searched.state
        expected.messageLog = model.state.messageLog
        #expect(model.state == expected)
        #expect(model.state.searchText == "Arica Chile" && model.state.isSearching)
    }

    @Test func intoTheCommandLineAsOneLine() throws {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        try model.send(.beginCommand)
        try model.send(.commandInput("depth "))
        var expected = model.state
        try model.send(.paste(Self.pasted))
        expected.commandLine?.text = "depth Tokyo Japan[A q"
        expected.commandLine?.cursor = 21
        #expect(model.state == expected)
    }

    @Test func intoTheNotesWithItsLineBreaks() throws {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        let code = try #require(model.state.selectedCode)
        try model.send(.beginEditing)
        try model.send(.detailLoaded(code: code, nil))
        try model.send(.editorKey(.character(">")))
        var expected = model.state
        try model.send(.paste(Self.pasted))
        expected.editor?.editor.text = ">Tokyo\nJapan[A    q"
        expected.editor?.editor.cursor = 19
        #expect(model.state == expected)
    }

    /// Issue 57: the notes hold `NotesEditor.capacity` characters; what a paste or a key adds past
    /// it is left out, and the status line says how much, as the one-line fields do.
    @Test func theNotesHoldTheirCapacityAndSayWhatWasLeftOut() throws {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        let code = try #require(model.state.selectedCode)
        try model.send(.beginEditing)
        try model.send(.detailLoaded(code: code, nil))
        try model.send(.editorKey(.character(">")))
        try model.send(.paste(String(repeating: "ab", count: NotesEditor.capacity)))
        let kept = ">" + String(repeating: "ab", count: NotesEditor.capacity / 2 - 1) + "a"
        #expect(model.state.editor?.editor.text == kept)
        #expect(model.state.editor?.editor.cursor == NotesEditor.capacity)
        #expect(model.state.status.message == "The notes editor holds at most 16,384 characters: 16,385 pasted characters left out")
        // Full: a typed character is left out and said; Backspace makes room for one.
        try model.send(.editorKey(.character("z")))
        #expect(model.state.editor?.editor.text == kept)
        #expect(model.state.status.message == "The notes editor holds at most 16,384 characters: 1 typed character left out")
        try model.send(.editorKey(.backspace))
        try model.send(.editorKey(.character("z")))
        #expect(model.state.editor?.editor.text == String(kept.dropLast()) + "z")
    }

    /// Nothing being edited (the list, the help, the log, a question): nothing happens but the
    /// status line saying so; a `q` or `a` in the paste never runs.
    @Test func withNoFieldItDoesNothingButSaySo() throws {
        for focus in ["list", "help", "log"] {
            let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
            if focus == "help" { try model.send(.toggleHelp) }
            if focus == "log" { try model.send(.toggleMessageLog) }
            var expected = model.state
            let effects = try model.send(KeyMap.action(for: .paste("qQa@m"), in: model.state)!)
            // (With the log open, the line it gains is scene state: saved.)
            #expect(effects == (focus == "log" ? [.saveScene] : []), "\(focus)")
            expected.status.message = BrowserState.pasteIgnoredMessage
            expected.messageLog = model.state.messageLog
            if focus == "list" { expected.restoredPlacement = nil }  // the first key ends the restored screen
            #expect(model.state == expected, "\(focus)")
            #expect(model.state.messageLog.entries.last?.text == BrowserState.pasteIgnoredMessage)
        }
    }

    /// The help's and the log's `/` find is a field too: a paste goes into it (it said "Paste
    /// ignored: nothing is being edited").
    @Test func intoTheFindOfTheHelpAndTheLog() throws {
        for focus in ["help", "log"] {
            let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
            try model.send(focus == "help" ? .toggleHelp : .toggleMessageLog)
            try model.send(KeyMap.action(for: .character("/"), in: model.state)!)
            #expect(model.state.isOverlayFinding, "\(focus)")
            let message = model.state.status.message
            try model.send(KeyMap.action(for: .paste("so\nrt"), in: model.state)!)
            #expect(model.state.overlayFind == "so rt", "\(focus)")
            #expect(model.state.status.message == message, "\(focus)")
        }
    }

    @Test(arguments: [
        ("a\r\nb\rc\nd", "a b c d", "a\nb\nc\nd"), ("\u{1B}[31mred\u{1B}[0m", "[31mred[0m", "[31mred[0m"),
        ("tab\there", "tab here", "tab    here"), ("\u{0}\u{7F}\u{85}x\u{9B}", " x", "\nx"), ("東京", "東京", "東京"),
    ] as [(String, String, String)])
    func pastedTextIsCleanedForTheField(raw: String, line: String, lines: String) {
        #expect(PastedText.line(raw) == line)
        #expect(PastedText.lines(raw) == lines)
    }
}
