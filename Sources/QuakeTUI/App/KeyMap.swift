/// Which action a key means, given what has focus: the help overlay, the notes editor, the
/// search field, the detail view or the list (SPEC §8). Pure, so every key is testable.
///
/// Mouse clicks need the frame they land on; the runtime hit-tests them with
/// `BrowserModel.action(forClickAt:in:)`.
public enum KeyMap {
    /// Lines one notch of the mouse wheel scrolls.
    public static let wheelLines = 3

    public static func action(for key: Key, in state: AppState) -> Action? {
        switch key {
        case .resize(let columns, let rows): return .resize(columns: columns, rows: rows)
        case .terminate: return .quit
        case .paste(let text): return .paste(text)
        case .control("l"): return .redraw
        case .wheelUp where state.confirmation != nil, .wheelDown where state.confirmation != nil: return nil
        case .wheelUp where state.logVisible: return .scrollMessageLog(-wheelLines)
        case .wheelDown where state.logVisible: return .scrollMessageLog(wheelLines)
        case .wheelUp: return state.helpVisible ? .scrollHelp(-wheelLines) : .scroll(lines: -wheelLines)
        case .wheelDown: return state.helpVisible ? .scrollHelp(wheelLines) : .scroll(lines: wheelLines)
        default: break
        }
        if let confirmation = state.confirmation { return confirmationAction(for: key, confirmation) }
        if state.logVisible { return messageLogAction(for: key) }
        if state.helpVisible { return helpAction(for: key) }
        if state.commandLine != nil { return commandAction(for: key) }
        if state.isEditing { return editorAction(for: key) }
        if state.isSearching, let action = searchAction(for: key) { return action }
        return browsingAction(for: key, in: state)
    }

    private static func helpAction(for key: Key) -> Action? {
        switch key {
        case .character("j"), .down: .scrollHelp(1)
        case .character("k"), .up: .scrollHelp(-1)
        case .character("?"), .character("q"), .escape, .enter: .dismissOverlay
        default: nil
        }
    }

    private static func messageLogAction(for key: Key) -> Action? {
        switch key {
        case .character("j"), .down: .scrollMessageLog(1)
        case .character("k"), .up: .scrollMessageLog(-1)
        case .pageDown, .control("d"), .control("f"), .character(" "): .scrollMessageLog(10)
        case .pageUp, .control("u"), .control("b"): .scrollMessageLog(-10)
        case .character("g"), .home: .scrollMessageLog(-MessageLog.limit * 100)
        case .character("L"), .character("q"), .escape, .enter: .toggleMessageLog
        default: nil
        }
    }

    /// While the status line asks a question, only its answers (and `L`, to read it whole) count.
    private static func confirmationAction(for key: Key, _ confirmation: Confirmation) -> Action? {
        if case .notesConflict = confirmation {
            switch key {
            case .character("m"): return .answer(.keepMine)
            case .character("t"): return .answer(.keepTheirs)
            case .character("b"): return .answer(.keepBoth)
            case .escape: return .answer(.no)
            default: return nil
            }
        }
        switch key {
        case .character("y"), .character("Y"): return .answer(.yes)
        case .character("n"), .character("N"), .escape: return .answer(.no)
        default: return nil
        }
    }

    private static func commandAction(for key: Key) -> Action? {
        switch key {
        case .character(let character): .commandInput(String(character))
        case .backspace: .commandBackspace
        case .enter: .runCommand
        case .escape: .cancelCommand
        case .up: .commandHistory(-1)
        case .down: .commandHistory(1)
        case .left, .right, .home, .end, .delete: .commandEdit(key)
        default: nil
        }
    }

    private static func editorAction(for key: Key) -> Action? {
        switch key {
        case .control("s"): .saveNotes
        case .escape: .cancelEditing
        default: .editorKey(key)
        }
    }

    /// Keys the search field takes; anything else (arrows, Tab …) falls through to browsing.
    private static func searchAction(for key: Key) -> Action? {
        switch key {
        case .character(let character): .searchInput(String(character))
        case .backspace: .searchBackspace
        case .enter: .commitSearch
        case .escape: .cancelSearch
        case .control("u"): .clearSearchText
        default: nil
        }
    }

    private static func browsingAction(for key: Key, in state: AppState) -> Action? {
        switch key {
        case .up, .character("k"): return .moveUp
        case .down, .character("j"): return .moveDown
        case .pageUp, .control("b"): return .pageUp
        case .pageDown, .control("f"): return .pageDown
        case .control("u"): return .halfPageUp
        case .control("d"): return .halfPageDown
        case .character("["): return .previousSection
        case .character("]"): return .nextSection
        case .home, .character("g"): return .first
        case .end, .character("G"): return .last
        case .enter: return state.detailPresented ? nil : .openDetail
        case .escape:
            if state.detailPresented { return .closeDetail }
            return state.searchText.isEmpty ? nil : .cancelSearch
        case .tab: return .nextTab
        case .backTab: return .previousTab
        case .character("1"): return .selectTab(.detail)
        case .character("2"): return .selectTab(.map)
        case .character("3"): return .selectTab(.notes)
        case .character("/"): return .beginSearch
        case .character("s"): return .nextSortOrder
        case .character("S"): return .reverseSortDirection
        case .character(" "): return .toggleSection
        case .character("m"): return .cycleMinimumMagnitude
        case .character("@"): return .setHomeToSelection
        case .character("~"): return .toggleNearHome
        case .character("r"): return .refresh
        case .character("e"): return .beginEditing
        case .character("H"): return .handoff
        case .character("o"): return .openInBrowser
        case .character("y"): return .copyLink
        case .character("?"): return .toggleHelp
        case .character("L"): return .toggleMessageLog
        case .character(":"): return .beginCommand
        case .character("q"), .control("c"): return .quit
        case .character("Q"): return .closeScene
        case .character("n"): return .nextNewQuake
        case .character("N"): return .previousNewQuake
        case .character("a"): return .markAllSeen
        default: return nil
        }
    }
}
