import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

/// The one table of keys (issue 27): each entry binds keys in a mode and carries the help line
/// for them, so what `KeyMap` answers and what `?`, `--help` and README say come from the same rows.
@Suite struct KeyTableTests {
    /// A state in which `mode` is the front mode (and `always` the first).
    static func state(in mode: KeyMode) -> AppState {
        var state = AppState(sceneID: "t")
        state.selectedCode = "a"
        switch mode {
        case .always, .list: break
        case .confirmation: state.confirmation = .closeScene
        case .notesConflict: state.confirmation = .notesConflict(code: "a", theirs: "t")
        case .messageLog: state.logVisible = true
        case .help: state.helpVisible = true
        case .overlayFind:
            state.helpVisible = true
            state.isOverlayFinding = true
        case .commandLine: state.commandLine = CommandPrompt()
        case .notesEditor:
            state.detailPresented = true
            state.detailTab = .notes
            state.editor = NotesDraft(code: "a", text: "", cursor: 0)
        case .search: state.isSearching = true
        case .detail: state.detailPresented = true
        case .statistics: state.statistics.isPresented = true
        case .sequence: state.sequence.mainshock = "a"
        }
        return state
    }

    @Test(arguments: KeyMode.allCases)
    func everyModeIsReachedAndBindsKeys(_ mode: KeyMode) {
        let modes = KeyMap.modes(for: Self.state(in: mode))
        #expect(modes.first == .always)
        #expect(mode == .always || modes.dropFirst().first == mode, "\(modes)")
        #expect(KeyTable.entries.contains { $0.mode == mode })
    }

    /// A key bound twice in one mode would mean whichever came first: the table must say one thing.
    @Test(arguments: KeyMode.allCases)
    func noKeyIsBoundTwiceInAMode(_ mode: KeyMode) {
        let patterns = KeyTable.entries.filter { $0.mode == mode }.flatMap(\.rules).flatMap(\.keys)
        #expect(Set(patterns).count == patterns.count, "\(patterns)")
        // Nor in `always` and a mode under it: `always` would hide the mode's binding.
        if mode != .always {
            let always = Set(KeyTable.entries.filter { $0.mode == .always }.flatMap(\.rules).flatMap(\.keys))
            #expect(always.isDisjoint(with: patterns))
        }
    }

    /// Every key an entry binds in its own mode means that entry's action through `KeyMap`.
    @Test func keyMapAnswersEveryBindingOfTheTable() {
        for entry in KeyTable.entries {
            let state = Self.state(in: entry.mode)
            for rule in entry.rules {
                guard case .send(let action) = rule.action else { continue }
                for case .key(let key) in rule.keys {
                    #expect(KeyMap.action(for: key, in: state) == action, "\(key) in \(entry.mode)")
                }
            }
        }
    }

    /// The help line of an entry names every key it binds (as `Key.description` spells it; the
    /// wheel is the `mouse` line), so no binding hides behind another's help.
    @Test func everyHelpLineNamesTheKeysItBinds() {
        for entry in KeyTable.entries {
            guard let help = entry.help else { continue }
            let named = Set(help.keys.split(separator: " ").map(String.init))
            for pattern in entry.rules.flatMap(\.keys) {
                let name: String = switch pattern {
                case .key(let key): key.description
                case .wheelUp, .wheelDown: "mouse"
                default: "\(pattern)"
                }
                #expect(named.contains(name), "\(name) is bound by the line \(help.keys)")
            }
        }
    }

    /// `?`, `--help` and README read the entries with help, in the table's order.
    @Test func helpIsTheTablesHelpLines() {
        let lines = KeyTable.entries.compactMap(\.help)
        #expect(KeyHelp.entries.map(\.keys) == lines.map(\.keys))
        #expect(KeyHelp.entries.map(\.action) == lines.map(\.action))
        #expect(HelpOverlay.entries.map(\.keys) == lines.map(\.keys))
    }

    /// Typed characters become text in the fields; anything the notes editor does not bind edits.
    @Test func familiesPassTheKeyOn() {
        #expect(KeyMap.action(for: .character("é"), in: Self.state(in: .search)) == .searchInput("é"))
        #expect(KeyMap.action(for: .character(" "), in: Self.state(in: .commandLine)) == .commandInput(" "))
        #expect(KeyMap.action(for: .function(5), in: Self.state(in: .notesEditor)) == .editorKey(.function(5)))
        #expect(KeyMap.action(for: .function(5), in: Self.state(in: .commandLine)) == nil)
        // The detail view takes Enter (nothing) rather than handing it to the list (open).
        #expect(KeyMap.action(for: .enter, in: Self.state(in: .detail)) == nil)
    }
}

/// The status line's short hints are the table's (`KeyBinding.hints`), not a second table of
/// meanings: every key they name must be one the table binds in that context, to the action of the
/// entry that carries the hint, so a key rebound elsewhere cannot leave a stale hint.
@Suite struct StatusHintKeyTests {
    /// `j/k` → j, k; `↑↓` → ↑, ↓; `1-4` → 1, 2, 3, 4; otherwise the key's own name.
    static func keys(named hint: String) -> [Key] {
        let candidates: [Key] = [.up, .down, .enter, .escape, .tab, .backTab, .character(" ")]
            + (33...126).map { Key.character(Character(Unicode.Scalar(UInt8($0)))) }
            + "abcdefghijklmnopqrstuvwxyz".map { Key.control($0) }
        func key(_ name: String) -> Key? { candidates.first { $0.description == name } }
        if let whole = key(hint) { return [whole] }
        if hint == "↑↓" { return [.up, .down] }
        if hint == "←→" { return [.left, .right] }
        if hint == "1-4" { return ["1", "2", "3", "4"].map { Key.character($0) } }
        return hint.split(separator: "/").compactMap { key(String($0)) }
    }

    /// A state in which `mode` has the keys, the detail view (if any) on `tab`.
    static func state(in mode: KeyMode, tab: DetailTab?) -> AppState {
        var state = KeyTableTests.state(in: mode)
        if let tab {
            state.detailPresented = true
            state.detailTab = tab
        }
        return state
    }

    /// Each hint of the table names keys that its own entry binds, and in every mode (and tab)
    /// that shows it those keys reach that entry's action through `KeyMap`: a hint cannot name a
    /// key the table binds elsewhere, or one a mode in front takes.
    @Test func everyHintOfTheTableNamesKeysItsEntryBindsWhereItIsShown() throws {
        for entry in KeyTable.entries {
            for hint in entry.hints {
                let keys = Self.keys(named: hint.keys)
                #expect(!keys.isEmpty, "hint \(hint.keys) names no key")
                #expect(!hint.modes.isEmpty, "hint \(hint.keys) \(hint.action) is shown nowhere")
                for key in keys {
                    let rule = entry.rules.first { rule in rule.keys.contains(.key(key)) }
                    #expect(rule != nil, "hint \(hint.keys) \(hint.action): its entry does not bind \(key)")
                    guard case .send(let action)? = rule?.action else { continue }
                    for mode in hint.modes {
                        let state = Self.state(in: mode, tab: hint.tab)
                        #expect(KeyMap.action(for: key, in: state) == action,
                                "hint \(hint.keys) \(hint.action) in \(mode): \(key) means \(String(describing: KeyMap.action(for: key, in: state)))")
                    }
                }
            }
        }
    }

    /// Whatever the line shows, in every context, at every width, beside a message or not, is
    /// hints of the table for the mode `KeyMap` gives the keys to, and their keys are bound there.
    @Test func everyHintTheLineShowsIsTheTablesForTheModeThatHasTheKeys() throws {
        let size = Size(columns: 120, rows: 30)
        var prompt = ScreenModel(size: size)
        prompt.commandPrompt = ""
        var log = ScreenModel(size: size, detail: DetailModel(tab: .map, record: nil))
        log.messageLog = []
        var statistics = ScreenModel(size: size)
        statistics.statistics = StatisticsModel(statistics: nil, isPending: true)
        var contexts: [(ScreenModel, AppState)] = [
            (ScreenModel(size: size), KeyTableTests.state(in: .list)),
            (ScreenModel(size: size, showsHelp: true), KeyTableTests.state(in: .help)),
            (log, KeyTableTests.state(in: .messageLog)),
            (statistics, KeyTableTests.state(in: .statistics)),
            (ScreenModel(size: size, header: HeaderModel(isSearching: true)), KeyTableTests.state(in: .search)),
            (ScreenModel(size: size, detail: DetailModel(tab: .notes, record: nil, notes: NotesEditor(isEditing: true))),
             KeyTableTests.state(in: .notesEditor)),
            (prompt, KeyTableTests.state(in: .commandLine)),
        ]
        for tab in DetailTab.allCases {
            contexts.append((ScreenModel(size: size, detail: DetailModel(tab: tab, record: nil)), Self.state(in: .detail, tab: tab)))
        }
        for (model, state) in contexts {
            let mode = StatusLineView.hintMode(model)
            #expect(KeyMap.modes(for: state).dropFirst().first == mode, "\(KeyMap.modes(for: state)) \(mode)")
            let table = KeyTable.statusHints(in: mode, tab: model.detail?.tab).map { KeyHint($0.keys, $0.action) }
            for message in [nil, StatusLineView.MessageFit.whole, .cut] {
                for room in [0, 12, 30, 60, 200] {
                    let shown = StatusLineView.shownHints(model, room: room, message: message)
                    for hint in shown {
                        #expect(table.contains(hint), "\(hint) in \(mode)")
                        for key in Self.keys(named: hint.keys) {
                            #expect(KeyMap.action(for: key, in: state) != nil, "\(hint) in \(mode), \(String(describing: message))")
                        }
                    }
                    if message == nil { #expect(!shown.isEmpty, "\(mode) at \(room)") }
                }
            }
            // With room for all, the line shows every hint of its mode but the message's own.
            #expect(StatusLineView.shownHints(model, room: 200, message: nil).count
                    == table.count - StatusLineView.hints(for: model, .besideCutMessage).count)
        }
        // Under the message log its own keys, not the list's (`/ search` did nothing there; `/`
        // finds in the log now, issue 56.8).
        log.size = Size(columns: 100, rows: 12)
        let line = String(Screen.render(log).text.split(separator: "\n", omittingEmptySubsequences: false).last ?? "")
        #expect(line.trimmingCharacters(in: .whitespaces) == "j/k scroll  / find  Esc close")
    }

    @Test func everyHintNamesAKeyTheTableBindsThere() throws {
        var detail = KeyTableTests.state(in: .detail)
        let list = KeyTableTests.state(in: .list), search = KeyTableTests.state(in: .search)
        let help = KeyTableTests.state(in: .help), editing = KeyTableTests.state(in: .notesEditor)
        detail.detailTab = .notes
        let size = Size(columns: 120, rows: 30)
        var prompt = ScreenModel(size: size)
        prompt.commandPrompt = ""
        let contexts: [(ScreenModel, AppState)] = [
            (ScreenModel(size: size), list),
            (ScreenModel(size: size, showsHelp: true), help),
            (ScreenModel(size: size, header: HeaderModel(isSearching: true)), search),
            (ScreenModel(size: size, detail: DetailModel(tab: .notes, record: nil)), detail),
            (ScreenModel(size: size, detail: DetailModel(tab: .notes, record: nil, notes: NotesEditor(isEditing: true))), editing),
            (prompt, KeyTableTests.state(in: .commandLine)),
        ]
        for (model, state) in contexts {
            let hints = StatusLineView.defaultHints(model)
            #expect(!hints.isEmpty)
            for hint in hints {
                let keys = Self.keys(named: hint.keys)
                #expect(!keys.isEmpty, "hint \(hint.keys) names no key")
                for key in keys {
                    #expect(KeyMap.action(for: key, in: state) != nil, "hint \(hint.keys) \(hint.action) in \(KeyMap.modes(for: state))")
                }
            }
        }
    }

    /// While a field has the keys (search, the `:` line, notes), the hints say what keys do
    /// there now: none names a key that types itself (`?`, `L`), and each is bound to a key that
    /// does something other than typing.
    @Test func whileTypingTheHintsNameNoKeyThatTypes() throws {
        let size = Size(columns: 160, rows: 30)
        var search = ScreenModel(size: size, header: HeaderModel(isSearching: true))
        var command = ScreenModel(size: size)
        command.commandPrompt = "de"
        let notes = ScreenModel(size: size, detail: DetailModel(tab: .notes, record: nil, notes: NotesEditor(isEditing: true)))
        let contexts: [(ScreenModel, KeyMode)] = [(search, .search), (command, .commandLine), (notes, .notesEditor)]
        for (model, mode) in contexts {
            let hints = StatusLineView.defaultHints(model)
            #expect(hints.map(\.keys) == KeyTable.rankedHints(in: mode).map(\.keys))
            let state = KeyTableTests.state(in: mode)
            for hint in hints {
                for key in Self.keys(named: hint.keys) {
                    let action = KeyMap.action(for: key, in: state)
                    let types = switch action {
                    case .searchInput?, .commandInput?: true
                    case .editorKey(let key)?: if case .character = key { true } else { false }
                    default: action == nil
                    }
                    #expect(!types, "\(hint.keys) \(hint.action) in \(mode): \(String(describing: action))")
                }
            }
        }
        // The whole status line while searching, and under a message (no `? help`, no `L`).
        func statusLine(_ model: ScreenModel) -> String {
            String(Screen.render(model).text.split(separator: "\n", omittingEmptySubsequences: false).last ?? "")
                .trimmingCharacters(in: .whitespaces)
        }
        search.size = Size(columns: 100, rows: 12)
        #expect(statusLine(search) == "Enter keep  Esc clear  ↑↓ list  ←→ move  ctrl-w word  ctrl-u to start")
        search.status.message = StatusMessage(String(repeating: "a long message ", count: 10), isError: false)
        #expect(!statusLine(search).contains("help") && !statusLine(search).contains("L whole"))
        command.size = Size(columns: 100, rows: 12)
        #expect(statusLine(command) == ":de▏                                   Tab complete  Enter run  ↑↓ history  Esc cancel  ctrl-w word")
    }
}
