/// Which action a key means, given what has focus (SPEC §8): the modes `state` stacks, top first,
/// looked up in `KeyTable`. Pure, so every key is testable.
///
/// ```swift
/// KeyMap.action(for: .character("j"), in: state)  // .moveDown in the list, .scrollHelp(1) over help
/// ```
///
/// Mouse clicks need the frame they land on; the runtime hit-tests them with
/// `BrowserModel.action(forClickAt:in:)`.
public enum KeyMap {
    public static func action(for key: Key, in state: AppState) -> Action? {
        for mode in modes(for: state) {
            if let bound = lookup[mode]?.action(for: key) { return bound.action(for: key, in: state) }
        }
        return nil
    }

    /// The modes that read keys in `state`, top first: `always`, then the overlay, question or
    /// field in front; search and the detail view sit over the list, which takes what they leave.
    public static func modes(for state: AppState) -> [KeyMode] {
        let front: [KeyMode]
        if case .notesConflict? = state.confirmation { front = [.notesConflict] }
        else if state.confirmation != nil { front = [.confirmation] }
        else if state.logVisible { front = [.messageLog] }
        else if state.helpVisible { front = [.help] }
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
