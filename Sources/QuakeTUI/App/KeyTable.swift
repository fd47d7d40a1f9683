/// Every key of the browser (SPEC §8), written once: which action it means in each mode, and the
/// line the help overlay shows for it. `KeyMap` answers keys from it; `KeyHelp` lists the lines
/// that have help, in this order, for `?`, `quaketui --help` and README's key table (a test).
///
/// A key a mode does not bind does nothing, except that search and the detail view hand theirs
/// to the list (`KeyMap.modes(for:)`).
public enum KeyTable {
    /// Lines one notch of the mouse wheel scrolls.
    public static let wheelLines = 3

    /// The `:` key's help: every command the line takes, read from `FilterCommand.names`, so a
    /// new command is in `?`, `--help` and `/` find as soon as it is parsed (a test).
    public static let commandsHelp = "commands: " + FilterCommand.names.joined(separator: " ")

    public static let entries: [KeyBinding] = [
        // Everywhere, before the mode's own keys.
        KeyBinding(.always, .bind(.resize) { key, _ in
            if case .resize(let columns, let rows) = key { .resize(columns: columns, rows: rows) } else { nil }
        }),
        KeyBinding(.always, .bind(.terminate, to: .quit)),
        // ctrl-c arrives as a key in raw mode; it quits as `q` does (help names `q`), from any
        // field, overlay or question too, where `q` is text or an answer (issue 57: in the `:`
        // line it did nothing).
        KeyBinding(.always, .bind(.control("c"), to: .quit)),
        // Focus reports (mode 1004): what arrived while the pane was away (issue 55).
        KeyBinding(.always, .bind(.key(.focusIn), to: .focusChanged(true)), .bind(.key(.focusOut), to: .focusChanged(false))),
        // A paste is text for the field being edited, whatever it holds (`BrowserModel.paste`).
        KeyBinding(.always, .bind(.paste) { key, _ in if case .paste(let text) = key { .paste(text) } else { nil } }),

        // The list (the detail view and search hand it the keys they do not take).
        KeyBinding(.list, help: ("↑ ↓  j k", "previous / next quake"),
                   hints: [StatusHint("j/k", "move", in: .list, .statistics, .sequence, priority: 1), StatusHint("↑↓", "list", in: .search, priority: 3)],
                   .bind(.up, "k", to: .moveUp), .bind(.down, "j", to: .moveDown)),
        KeyBinding(.list, help: ("PgUp PgDn  ctrl-b ctrl-f", "page up / down"),
                   .bind(.pageUp, .control("b"), to: .pageUp), .bind(.pageDown, .control("f"), to: .pageDown)),
        KeyBinding(.list, help: ("ctrl-u ctrl-d", "half a page up / down"),
                   .bind(.control("u"), to: .halfPageUp), .bind(.control("d"), to: .halfPageDown)),
        KeyBinding(.list, help: ("g G  Home End", "first quake / last quake"),
                   .bind(.home, "g", to: .first), .bind(.end, "G", to: .last)),
        KeyBinding(.list, help: ("[  ]", "this or previous / next section"),
                   .bind("[", to: .previousSection), .bind("]", to: .nextSection)),
        KeyBinding(.list, help: ("Enter", "open the detail view"), hints: [StatusHint("Enter", "open", in: .list, .statistics, .sequence, priority: 2)], .bind(.enter, to: .openDetail)),
        KeyBinding(.detail, .ignore(.enter)),
        KeyBinding(.list, help: ("Esc", "back / close search"),
                   .bind(.escape) { _, state in state.searchText.isEmpty ? nil : .cancelSearch }),
        KeyBinding(.detail, hints: [StatusHint("Esc", "back", in: .detail, priority: 1)], .bind(.escape, to: .closeDetail)),
        KeyBinding(.list, help: ("Tab shift-Tab  1 2 3 4", "Detail, Map, Notes, Reports tabs"),
                   hints: [StatusHint("Tab", "next tab", in: .detail, priority: 2), StatusHint("1-4", "tabs", in: .detail, priority: 3)],
                   .bind(.tab, to: .nextTab), .bind(.backTab, to: .previousTab),
                   .bind("1", to: .selectTab(.detail)), .bind("2", to: .selectTab(.map)), .bind("3", to: .selectTab(.notes)),
                   .bind("4", to: .selectTab(.reports))),
        KeyBinding(.detail, help: ("+  -", "zoom the map in / out (world, region, local)"),
                   .bind("+", to: .zoomMap(1)), .bind("-", to: .zoomMap(-1))),
        KeyBinding(.list, help: ("=", "statistics of the list (= or Esc closes)"), .bind("=", to: .toggleStatistics)),
        KeyBinding(.statistics, hints: [StatusHint("Esc", "back", in: .statistics, priority: 0)], .bind(.escape, to: .toggleStatistics)),
        KeyBinding(.list, help: ("A", "aftershocks and forecast (A or Esc closes)"), .bind("A", to: .toggleSequence)),
        KeyBinding(.sequence, hints: [StatusHint("Esc", "back", in: .sequence, priority: 0)], .bind(.escape, to: .closeSequence)),
        KeyBinding(.list, help: ("/", "search (Enter keeps, Esc clears)"), hints: [StatusHint("/", "search", in: .list, .statistics, .sequence, priority: 3)],
                   .bind("/", to: .beginSearch)),
        KeyBinding(.list, help: (":", commandsHelp), .bind(":", to: .beginCommand)),
        // Editing the search and the `:` line: the same keys, one `LineEditor` each.
        KeyBinding(.search, help: ("← → Home End ctrl-a ctrl-e", "move in the search or : line"),
                   hints: [StatusHint("←→", "move", in: .search, priority: 4)], rules: Array(lineEditing(Action.searchEdit)[0..<6])),
        KeyBinding(.search, help: ("Delete  ctrl-w  ctrl-u", "delete char / word / to start"),
                   hints: [StatusHint("ctrl-w", "word", in: .search, priority: 5), StatusHint("ctrl-u", "to start", in: .search, priority: 6)],
                   rules: Array(lineEditing(Action.searchEdit)[6...])),
        KeyBinding(.commandLine, hints: [StatusHint("ctrl-w", "word", in: .commandLine, priority: 5)], rules: lineEditing(Action.commandEdit)),
        KeyBinding(.list, help: ("s  S", "next sort order / reverse"), hints: [StatusHint("s", "sort", in: .list, .statistics, .sequence, priority: 4)],
                   .bind("s", to: .nextSortOrder), .bind("S", to: .reverseSortDirection)),
        KeyBinding(.list, help: ("c", "column headers on / off"), .bind("c", to: .toggleColumnHeaders)),
        KeyBinding(.list, help: ("space", "collapse / expand section"), hints: [StatusHint("space", "fold", in: .list, .statistics, .sequence, priority: 5)],
                   .bind(" ", to: .toggleSection)),
        KeyBinding(.list, help: ("m", "minimum magnitude"), hints: [StatusHint("m", "min mag", in: .list, .statistics, .sequence, priority: 6)],
                   .bind("m", to: .cycleMinimumMagnitude)),
        KeyBinding(.list, help: ("@", "set home to the selected quake"), .bind("@", to: .setHomeToSelection)),
        KeyBinding(.list, help: ("~", "only quakes near home (nearRadius)"), .bind("~", to: .toggleNearHome)),
        KeyBinding(.list, help: ("r  F5  ctrl-r", "refresh in the background"), hints: [StatusHint("r", "refresh", in: .list, .statistics, .sequence, priority: 7)],
                   .bind("r", .key(.function(5)), .control("r"), to: .refresh)),
        KeyBinding(.list, help: ("n  N", "next / previous new quake (marked ●)"),
                   .bind("n", to: .nextNewQuake), .bind("N", to: .previousNewQuake)),
        KeyBinding(.list, help: ("a", "mark all quakes seen (the ● and ◆ marks)"), .bind("a", to: .markAllSeen)),
        KeyBinding(.list, help: ("e", "edit notes (ctrl-s saves, Esc asks, cancels)"),
                   hints: [StatusHint("e", "edit", in: .detail, priority: 4, tab: .notes)], .bind("e", to: .beginEditing)),
        KeyBinding(.list, help: ("H", "handoff from another pane"), .bind("H", to: .handoff)),
        KeyBinding(.list, help: ("o  y", "open / copy the event page"),
                   .bind("o", to: .openInBrowser), .bind("y", to: .copyLink)),
        KeyBinding(.list, help: ("L", "message log (every message, whole)"),
                   hints: [StatusHint("L", "whole message", in: .list, .statistics, .sequence, .detail, place: .besideCutMessage)], .bind("L", to: .toggleMessageLog)),
        KeyBinding(.list, help: ("?", "this help"), hints: [StatusHint("?", "help", in: .list, .statistics, .sequence, .detail, place: .kept)], .bind("?", to: .toggleHelp)),
        // Over the help, the list's keys for its ends scroll the help to its ends (the log's are below).
        KeyBinding(.help, help: ("g G  Home End", "in ? and L: to the top / the end"),
                   .bind("g", .home, to: .scrollHelp(.min)), .bind("G", .end, to: .scrollHelp(.max))),
        KeyBinding(.help, help: ("/", "in ? and L: find (Enter keeps, Esc clears)"),
                   hints: [StatusHint("/", "find", in: .help, priority: 2)], .bind("/", to: .beginOverlayFind)),
        KeyBinding(.list, help: ("q  Q", "quit / close the scene (asks first)"), hints: [StatusHint("q", "quit", in: .list, .statistics, .sequence, .detail, priority: 8)],
                   .bind("q", to: .quit), .bind("Q", to: .closeScene)),
        // ctrl-z never reaches the table: the terminal stops the process on SIGTSTP.
        KeyBinding(.always, help: ("ctrl-l  ctrl-z", "redraw / suspend (fg returns)"), .bind(.control("l"), to: .redraw)),
        // Clicks need the frame they land on: `KeyMap.action(forClickAt:_:in:)` hit-tests them.
        KeyBinding(.list, help: ("mouse", "click selects, wheel scrolls, click a tab"),
                   .bind(.wheelUp, to: .scroll(lines: -wheelLines)), .bind(.wheelDown, to: .scroll(lines: wheelLines))),

        // A question on the status line: only its answers count (`L` cannot open the log under it).
        KeyBinding(.confirmation, .bind("y", "Y", to: .answer(.yes)), .bind("n", "N", .escape, to: .answer(.no)),
                   .ignore(.wheelUp, .wheelDown)),
        KeyBinding(.notesConflict, .bind("m", to: .answer(.keepMine)), .bind("t", to: .answer(.keepTheirs)),
                   .bind("b", to: .answer(.keepBoth)), .bind(.escape, to: .answer(.no)), .ignore(.wheelUp, .wheelDown)),

        // Last in the list: any other key (`h`, `w`, `ctrl-o`, F2) says it does nothing here and
        // where the keys are, instead of nothing at all (issue 56.8). Keys bound above win.
        KeyBinding(.list, .bind(.anyKey) { key, _ in
            switch key {
            case .click, .wheelUp, .wheelDown, .paste, .resize, .terminate, .focusIn, .focusOut: nil
            default: .unboundKey(key.description)
            }
        }),

        // The message log.
        KeyBinding(.messageLog, hints: [StatusHint("j/k", "scroll", in: .messageLog, priority: 1),
                                        StatusHint("/", "find", in: .messageLog, priority: 2),
                                        StatusHint("Esc", "close", in: .messageLog, place: .kept)],
                   .bind("j", .down, to: .scrollMessageLog(1)), .bind("k", .up, to: .scrollMessageLog(-1)),
                   .bind(.pageDown, .control("d"), .control("f"), " ", to: .scrollMessageLog(10)),
                   .bind(.pageUp, .control("u"), .control("b"), to: .scrollMessageLog(-10)),
                   .bind("g", .home, to: .scrollMessageLog(.min)), .bind("G", .end, to: .scrollMessageLog(.max)),
                   .bind("L", "q", .escape, .enter, to: .toggleMessageLog), .bind("/", to: .beginOverlayFind),
                   .bind(.wheelUp, to: .scrollMessageLog(-wheelLines)), .bind(.wheelDown, to: .scrollMessageLog(wheelLines))),

        // The help overlay.
        KeyBinding(.help, hints: [StatusHint("?", "close help", in: .help, priority: 1), StatusHint("Esc", "close", in: .help, place: .kept)],
                   .bind("j", .down, to: .scrollHelp(1)), .bind("k", .up, to: .scrollHelp(-1)),
                   .bind("?", "q", .escape, .enter, to: .dismissOverlay),
                   .bind(.wheelUp, to: .scrollHelp(-wheelLines)), .bind(.wheelDown, to: .scrollHelp(wheelLines))),

        // Typing what `/` finds in the help or the log: the overlay's lines narrow as it is typed.
        KeyBinding(.overlayFind, hints: [StatusHint("Enter", "keep", in: .overlayFind, priority: 1),
                                         StatusHint("Esc", "clear", in: .overlayFind, priority: 2)],
                   .bind(.anyCharacter) { key, _ in key.typedText.map(Action.overlayFindInput) },
                   .bind(.backspace, to: .overlayFindBackspace), .bind(.enter, to: .endOverlayFind(keep: true)),
                   .bind(.escape, to: .endOverlayFind(keep: false))),

        // The `:` command line (its editing keys are the search field's, below).
        KeyBinding(.commandLine, hints: [StatusHint("Tab", "complete", in: .commandLine, priority: 1),
                                         StatusHint("Enter", "run", in: .commandLine, priority: 2),
                                         StatusHint("↑↓", "history", in: .commandLine, priority: 3),
                                         StatusHint("Esc", "cancel", in: .commandLine, priority: 4)],
                   .bind(.anyCharacter) { key, _ in key.typedText.map(Action.commandInput) },
                   .bind(.backspace, to: .commandBackspace), .bind(.enter, to: .runCommand),
                   .bind(.escape, to: .cancelCommand), .bind(.up, to: .commandHistory(-1)), .bind(.down, to: .commandHistory(1)),
                   .bind(.tab, to: .completeCommand),
                   .bind(.wheelUp, to: .scroll(lines: -wheelLines)), .bind(.wheelDown, to: .scroll(lines: wheelLines))),

        // The notes editor: every other key edits.
        KeyBinding(.notesEditor, hints: [StatusHint("ctrl-s", "save", in: .notesEditor, priority: 1),
                                         StatusHint("Esc", "cancel", in: .notesEditor, priority: 2)],
                   .bind(.control("s"), to: .saveNotes), .bind(.escape, to: .cancelEditing),
                   .bind(.wheelUp, to: .scroll(lines: -wheelLines)), .bind(.wheelDown, to: .scroll(lines: wheelLines)),
                   .bind(.anyKey) { key, _ in .editorKey(key) }),

        // Typing a search: ↑ ↓, Tab and the rest move the list.
        KeyBinding(.search, hints: [StatusHint("Enter", "keep", in: .search, priority: 1), StatusHint("Esc", "clear", in: .search, priority: 2)],
                   .bind(.anyCharacter) { key, _ in key.typedText.map(Action.searchInput) },
                   .bind(.backspace, to: .searchEdit(.backspace)), .bind(.enter, to: .commitSearch),
                   .bind(.escape, to: .cancelSearch)),
    ]

    /// The status line's hints in `mode` (the detail view, if any, on `tab`), in table order:
    /// what the keys do now, so a field that has the keys (where `?` and `L` type themselves) shows
    /// no `? help`. Each names keys its entry binds there (a test checks).
    public static func statusHints(in mode: KeyMode, tab: DetailTab? = nil) -> [StatusHint] {
        entries.flatMap(\.hints).filter { $0.isShown(in: mode, tab: tab) }
    }

    /// The ranked hints of `mode` by priority, most wanted first (what the `:` line shows).
    public static func rankedHints(in mode: KeyMode, tab: DetailTab? = nil) -> [StatusHint] {
        let ranked = statusHints(in: mode, tab: tab).enumerated().compactMap { index, hint in
            if case .priority(let priority) = hint.place { (hint, priority, index) } else { nil }
        }
        return ranked.sorted { ($0.1, $0.2) < ($1.1, $1.2) }.map(\.0)
    }

    /// The editing keys of a one-line field, the search and the `:` line alike (`LineEditor`):
    /// the moves, their emacs keys, then the deletions (Backspace is each field's own).
    static func lineEditing(_ action: @escaping @Sendable (LineEdit) -> Action) -> [KeyBinding.Rule] {
        [.bind(.left, to: action(.left)), .bind(.right, to: action(.right)), .bind(.home, to: action(.home)), .bind(.end, to: action(.end)),
         .bind(.control("a"), to: action(.home)), .bind(.control("e"), to: action(.end)),
         .bind(.delete, to: action(.deleteForward)), .bind(.control("w"), to: action(.deleteWordBackward)),
         .bind(.control("u"), to: action(.deleteToStart))]
    }
}

extension Key {
    /// The text a printable key types, or nil.
    var typedText: String? { if case .character(let character) = self { String(character) } else { nil } }
}

/// Which action a key means, given what has focus (SPEC §8): the modes `state` stacks, top first,
/// looked up in `KeyTable`. Pure, so every key is testable.
///
/// ```swift
/// KeyMap.action(for: .character("j"), in: state)  // .moveDown in the list, .scrollHelp(1) over help
/// ```
///
/// Mouse clicks need the frame they land on: `action(forClickAt:_:in:)` hit-tests them.
public enum KeyMap {
    public static func action(for key: Key, in state: AppState) -> Action? {
        for mode in modes(for: state) {
            if let bound = lookup[mode]?.action(for: key) { return bound.action(for: key, in: state) }
        }
        return nil
    }

    /// The action the first of `keys` (typed together, read at once) means, and how many of them
    /// it takes: a search letter takes the search letters typed behind it too, joined
    /// (`.searchInput("abc")`), so a fast typist gets one refetch for the burst rather than one
    /// per letter queued behind a slow one. Every other key takes itself alone.
    ///
    /// ```swift
    /// KeyMap.action(for: [.character("a"), .character("b"), .down], in: searching)  // (.searchInput("ab"), 2)
    /// ```
    public static func action(for keys: ArraySlice<Key>, in state: AppState) -> (action: Action?, keys: Int) {
        guard let first = keys.first else { return (nil, 0) }
        let action = action(for: first, in: state)
        guard case .searchInput(var text)? = action else { return (action, 1) }
        var taken = 1
        // A search letter leaves the modes as they were: the ones behind it read the same way.
        for key in keys.dropFirst() {
            guard case .searchInput(let more)? = self.action(for: key, in: state) else { break }
            text += more
            taken += 1
        }
        return (.searchInput(text), taken)
    }

    /// The action `key` means in the browser's scene state.
    public static func action(for key: Key, in state: BrowserState) -> Action? { action(for: key, in: state.app) }

    /// The action the first of `keys` means in the browser's scene state, and how many it takes.
    public static func action(for keys: ArraySlice<Key>, in state: BrowserState) -> (action: Action?, keys: Int) {
        action(for: keys, in: state.app)
    }

    /// The action for a left click at a cell of `frame` (the frame last drawn).
    public static func action(forClickAt x: Int, _ y: Int, in frame: ScreenModel) -> Action? {
        switch Screen.hitTest(frame, x: x, y: y) {
        case .listLine(let index):
            // A click on the sticky header selects that header, scrolled back into place.
            if index == 0, let header = frame.list.stickyHeaderLine { .selectLine(header) }
            else { .selectLine(frame.list.firstLineIndex + index) }
        case .tab(let tab): .selectTab(tab)
        default: nil
        }
    }

    /// The modes that read keys in `state`, top first: `always`, then the overlay, question or
    /// field in front; search and the detail view sit over the list, which takes what they leave.
    public static func modes(for state: AppState) -> [KeyMode] {
        let front: [KeyMode]
        if case .notesConflict? = state.confirmation { front = [.notesConflict] }
        else if state.confirmation != nil { front = [.confirmation] }
        else if state.logVisible || state.helpVisible {
            front = [state.isOverlayFinding ? .overlayFind : state.logVisible ? .messageLog : .help]
        }
        else if state.commandLine != nil { front = [.commandLine] }
        else if state.isEditing { front = [.notesEditor] }
        else { front = (state.isSearching ? [.search] : []) + (state.detailPresented ? [.detail] : [])
            + (state.statistics.isPresented ? [.statistics] : []) + (state.sequence.isPresented ? [.sequence] : []) + [.list] }
        return [.always] + front
    }

    /// One mode's keys: single keys by value, then the families (`anyCharacter`, `anyKey` …) in
    /// table order.
    struct ModeKeys {
        var single: [Key: KeyAction] = [:]
        var families: [(KeyPattern, KeyAction)] = []

        func action(for key: Key) -> KeyAction? {
            single[key] ?? families.first { $0.0.matches(key) }?.1
        }
    }

    /// `KeyTable.entries` by mode; a key bound twice in a mode keeps its first binding (a test
    /// checks the table has none).
    static let lookup: [KeyMode: ModeKeys] = {
        var lookup: [KeyMode: ModeKeys] = [:]
        for entry in KeyTable.entries {
            for rule in entry.rules {
                for pattern in rule.keys {
                    if case .key(let key) = pattern {
                        if lookup[entry.mode, default: ModeKeys()].single[key] == nil {
                            lookup[entry.mode, default: ModeKeys()].single[key] = rule.action
                        }
                    } else {
                        lookup[entry.mode, default: ModeKeys()].families.append((pattern, rule.action))
                    }
                }
            }
        }
        return lookup
    }()
}
