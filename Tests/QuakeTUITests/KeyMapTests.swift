import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

/// Every key of SPEC §8 in each focus: list, detail, search field, notes editor, help.
@Suite struct KeyMapTests {
    static let list = AppState(sceneID: "t")

    @Test(arguments: [
        (Key.character("j"), Action.moveDown), (.down, .moveDown), (.character("k"), .moveUp), (.up, .moveUp),
        (.pageDown, .pageDown), (.control("d"), .halfPageDown), (.pageUp, .pageUp), (.control("u"), .halfPageUp),
        (.control("f"), .pageDown), (.control("b"), .pageUp), (.home, .first), (.end, .last),
        (.character("["), .previousSection), (.character("]"), .nextSection),
        (.character("o"), .openInBrowser), (.character("y"), .copyLink),
        (.character("g"), .first), (.character("G"), .last), (.enter, .openDetail),
        (.tab, .nextTab), (.backTab, .previousTab), (.character("1"), .selectTab(.detail)),
        (.character("2"), .selectTab(.map)), (.character("3"), .selectTab(.notes)),
        (.character("/"), .beginSearch), (.character("s"), .nextSortOrder), (.character("S"), .reverseSortDirection),
        (.character(" "), .toggleSection), (.character("m"), .cycleMinimumMagnitude), (.character("r"), .refresh),
        (.character("e"), .beginEditing), (.character("H"), .handoff), (.character("?"), .toggleHelp),
        (.character("q"), .quit), (.character("Q"), .closeScene), (.character(":"), .beginCommand), (.character("L"), .toggleMessageLog), (.control("l"), .redraw),
        (.wheelDown(x: 3, y: 4), .scroll(lines: 3)), (.resize(columns: 50, rows: 20), .resize(columns: 50, rows: 20)),
        (.terminate(signal: 15), .quit),
    ])
    func listKeys(key: Key, action: Action) {
        #expect(KeyMap.action(for: key, in: Self.list) == action)
    }

    @Test func escapeClosesTheDetailThenClearsTheSearch() {
        var state = Self.list
        #expect(KeyMap.action(for: .escape, in: state) == nil)
        state.searchText = "alaska"
        #expect(KeyMap.action(for: .escape, in: state) == .cancelSearch)
        state.detailPresented = true
        #expect(KeyMap.action(for: .escape, in: state) == .closeDetail)
    }

    @Test func theSearchFieldTakesEveryCharacterLiterally() {
        var state = Self.list
        state.isSearching = true
        for character in "qQ?/ s*%_(\"" {
            #expect(KeyMap.action(for: .character(character), in: state) == .searchInput(String(character)))
        }
        #expect(KeyMap.action(for: .enter, in: state) == .commitSearch)
        #expect(KeyMap.action(for: .escape, in: state) == .cancelSearch)
        #expect(KeyMap.action(for: .backspace, in: state) == .searchEdit(.backspace))
        #expect(KeyMap.action(for: .down, in: state) == .moveDown)  // results stay navigable
    }

    /// Keys read together: a search letter takes the search letters behind it (one refetch for a
    /// burst), up to the first key that is not one; every other key takes itself alone.
    @Test func searchLettersTypedTogetherAreJoined() {
        var state = Self.list
        let burst: [Key] = [.character("a"), .character("k"), .character(" "), .down, .character("j")]
        let inList = KeyMap.action(for: burst[...], in: state)
        #expect(inList.action == .markAllSeen && inList.keys == 1)
        state.isSearching = true
        let joined = KeyMap.action(for: burst[...], in: state)
        #expect(joined.action == .searchInput("ak ") && joined.keys == 3)
        let next = KeyMap.action(for: burst.dropFirst(3), in: state)
        #expect(next.action == .moveDown && next.keys == 1)
        let empty = KeyMap.action(for: [][...], in: state)
        #expect(empty.action == nil && empty.keys == 0)
    }

    @Test func theNotesEditorTakesKeysUntilCtrlSOrEscape() {
        var state = Self.list
        state.selectedCode = "a"
        state.detailPresented = true
        state.detailTab = .notes
        state.editor = NotesDraft(code: "a", text: "", cursor: 0)
        for key in [Key.character("q"), .character("j"), .enter, .backspace, .left, .tab] {
            #expect(KeyMap.action(for: key, in: state) == .editorKey(key))
        }
        #expect(KeyMap.action(for: .control("s"), in: state) == .saveNotes)
        #expect(KeyMap.action(for: .escape, in: state) == .cancelEditing)
        // A draft on another tab does not capture keys.
        state.detailTab = .map
        #expect(KeyMap.action(for: .character("q"), in: state) == .quit)
    }

    @Test func theHelpOverlayScrollsAndCloses() {
        var state = Self.list
        state.helpVisible = true
        #expect(KeyMap.action(for: .character("j"), in: state) == .scrollHelp(1))
        #expect(KeyMap.action(for: .up, in: state) == .scrollHelp(-1))
        for key in [Key.character("?"), .escape, .character("q")] {
            #expect(KeyMap.action(for: key, in: state) == .dismissOverlay)
        }
        #expect(KeyMap.action(for: .character("r"), in: state) == nil)
    }
}
