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
        case .control("l"): return .redraw
        case .wheelUp: return state.helpVisible ? .scrollHelp(-wheelLines) : .scroll(lines: -wheelLines)
        case .wheelDown: return state.helpVisible ? .scrollHelp(wheelLines) : .scroll(lines: wheelLines)
        default: break
        }
        if state.helpVisible { return helpAction(for: key) }
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
        case .pageUp, .control("u"), .control("b"): return .pageUp
        case .pageDown, .control("d"), .control("f"): return .pageDown
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
        case .character("?"): return .toggleHelp
        case .character("q"), .control("c"): return .quit
        case .character("Q"): return .closeScene
        default: return nil
        }
    }
}
