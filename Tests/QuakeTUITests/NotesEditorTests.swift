import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

@Suite struct NotesEditorTests {
    @Test func typingAndDeleting() {
        var editor = NotesEditor(text: "", cursor: 0, isEditing: true)
        for key: Key in [.character("a"), .character("東"), .enter, .character("c"), .left, .backspace] {
            let handled = editor.apply(key)
            #expect(handled)
        }
        #expect(editor.text == "a東c")
        #expect(editor.cursor == 2)
        #expect(editor.isDirty)
        _ = editor.apply(.delete)
        #expect(editor.text == "a東")
        _ = editor.apply(.delete)  // at the end: nothing to delete
        #expect(editor.text == "a東")
    }

    @Test func movingByLogicalLines() {
        var editor = NotesEditor(text: "first line\nab\nthird", cursor: 8, isEditing: true)
        _ = editor.apply(.down)
        #expect(editor.cursor == 13)  // clamped to the end of "ab"
        _ = editor.apply(.down)
        #expect(editor.cursor == 16)  // column 2 of "third"
        _ = editor.apply(.home)
        #expect(editor.cursor == 14)
        _ = editor.apply(.end)
        #expect(editor.cursor == 19)
        _ = editor.apply(.up)
        #expect(editor.cursor == 13)
        _ = editor.apply(.up)
        #expect(editor.cursor == 2)
        _ = editor.apply(.up)
        #expect(editor.cursor == 0)
        #expect(!editor.isDirty)
    }

    @Test func appKeysAreNotConsumed() {
        var editor = NotesEditor(text: "x", cursor: 1, isEditing: true)
        let save = editor.apply(.control("s"))
        let cancel = editor.apply(.escape)
        #expect(!save && !cancel)
        #expect(editor.text == "x")
    }
}

@Suite struct ScrollbarTests {
    @Test func thumbTracksTheScrollPosition() {
        #expect(ListView.scrollbarThumb(first: 0, total: 10, rows: 10) == nil)
        #expect(ListView.scrollbarThumb(first: 0, total: 100, rows: 10) == 0..<1)
        #expect(ListView.scrollbarThumb(first: 90, total: 100, rows: 10) == 9..<10)
        #expect(ListView.scrollbarThumb(first: 45, total: 100, rows: 10) == 5..<6)
        #expect(ListView.scrollbarThumb(first: 0, total: 20, rows: 10) == 0..<5)
        #expect(ListView.scrollbarThumb(first: 10, total: 20, rows: 10) == 5..<10)
    }
}
