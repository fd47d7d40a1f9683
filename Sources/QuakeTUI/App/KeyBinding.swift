/// One entry of the browser's key table (`KeyTable.entries`): in one mode, which keys mean which
/// action, the line `?` shows for them and their short hints on the status line. `KeyMap` reads
/// the actions, `KeyHelp` the help lines (the help overlay, `quaketui --help`, README's key table),
/// `StatusLineView` the hints, so a key cannot be bound without being documented in the same place.
///
/// ```swift
/// KeyBinding(.list, help: ("s  S", "next sort order / reverse"),
///            .bind("s", to: .nextSortOrder), .bind("S", to: .reverseSortDirection))
/// ```
///
/// This is bubbles' `key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "move up"))`
/// with the action and the mode in the same entry.
public struct KeyBinding: Sendable {
    /// Where the keys count.
    public var mode: KeyMode
    /// The keys and their meaning as the help overlay shows them; nil for keys described by the
    /// line of the key that opened the mode (`ctrl-s` in the notes editor is on the `e` line).
    public var help: (keys: String, action: String)?
    /// The status line's short hints for these keys (`j/k move`), in the modes that show them
    /// (the list's keys also show over the detail view and search, which hand them on).
    public var hints: [StatusHint]
    /// Each pattern's action, tried in order.
    public var rules: [Rule]

    public init(_ mode: KeyMode, help: (keys: String, action: String)? = nil, hints: [StatusHint] = [], _ rules: Rule...) {
        self.init(mode, help: help, hints: hints, rules: rules)
    }

    /// An entry of rules built elsewhere (`KeyTable.lineEditing`).
    public init(_ mode: KeyMode, help: (keys: String, action: String)? = nil, hints: [StatusHint] = [], rules: [Rule]) {
        self.mode = mode
        self.help = help
        self.hints = hints
        self.rules = rules
    }

    /// Keys that mean one action.
    public struct Rule: Sendable {
        public var keys: [KeyPattern]
        public var action: KeyAction

        /// `keys` mean `action` in every state of the mode.
        public static func bind(_ keys: KeyPattern..., to action: Action) -> Rule {
            Rule(keys: keys, action: .send(action))
        }

        /// `keys` are taken by the mode and do nothing (they do not reach a mode below it).
        public static func ignore(_ keys: KeyPattern...) -> Rule {
            Rule(keys: keys, action: .nothing)
        }

        /// `keys` mean what `decide` makes of the key and the state (nil: nothing).
        public static func bind(_ keys: KeyPattern..., decide: @escaping @Sendable (Key, AppState) -> Action?) -> Rule {
            Rule(keys: keys, action: .decide(decide))
        }
    }
}

/// What has the keys, from the top of the screen down: the first mode that holds decides, and a
/// key a mode does not bind goes to the mode below it only where `KeyMap.modes(for:)` stacks them
/// (search and detail over the list).
public enum KeyMode: Sendable, CaseIterable {
    /// In every mode, before the mode's own keys: resize, signals, `ctrl-l`.
    case always
    /// A yes/no question on the status line.
    case confirmation
    /// Another pane saved the notes being edited: keep mine, theirs or both.
    case notesConflict
    /// The message log (`L`).
    case messageLog
    /// The help overlay (`?`).
    case help
    /// The `:` command line.
    case commandLine
    /// Editing notes (`e`).
    case notesEditor
    /// Typing a search (`/`); other keys go to the list.
    case search
    /// The detail view (`Enter`); other keys go to the list.
    case detail
    /// The statistics view (`=`); other keys go to the list, whose list it shows.
    case statistics
    /// The sequence view (`A`); other keys go to the list.
    case sequence
    /// The list of quakes.
    case list
}

/// Which keys a rule matches: one key, or a family of them.
public enum KeyPattern: Hashable, Sendable, ExpressibleByUnicodeScalarLiteral {
    case key(Key)
    /// Any printable character (a text field's input).
    case anyCharacter
    /// A notch of the mouse wheel, wherever the pointer is.
    case wheelUp, wheelDown
    /// The terminal changed size.
    case resize
    /// SIGINT, SIGTERM or SIGHUP.
    case terminate
    /// Text the terminal pasted in one piece (bracketed paste).
    case paste
    /// Any key the mode binds no other way (the notes editor's typing and movement).
    case anyKey

    /// `"k"` is the key `k`.
    public init(unicodeScalarLiteral character: Character) { self = .key(.character(character)) }

    public static func control(_ letter: Character) -> KeyPattern { .key(.control(letter)) }
    public static let up = KeyPattern.key(.up), down = KeyPattern.key(.down)
    public static let pageUp = KeyPattern.key(.pageUp), pageDown = KeyPattern.key(.pageDown)
    public static let home = KeyPattern.key(.home), end = KeyPattern.key(.end)
    public static let enter = KeyPattern.key(.enter), escape = KeyPattern.key(.escape)
    public static let tab = KeyPattern.key(.tab), backTab = KeyPattern.key(.backTab)
    public static let backspace = KeyPattern.key(.backspace), delete = KeyPattern.key(.delete)
    public static let left = KeyPattern.key(.left), right = KeyPattern.key(.right)

    /// Whether `key` is one of this pattern's keys.
    public func matches(_ key: Key) -> Bool {
        switch (self, key) {
        case (.key(let bound), _): bound == key
        case (.anyCharacter, .character): true
        case (.wheelUp, .wheelUp), (.wheelDown, .wheelDown), (.resize, .resize), (.terminate, .terminate), (.paste, .paste): true
        case (.anyKey, _): true
        default: false
        }
    }

    /// One key rather than a family: a mode tries these first, so `ctrl-s` in the notes editor
    /// wins over its `anyKey`.
    public var isSingleKey: Bool { if case .key = self { true } else { false } }
}

/// What a bound key does.
public enum KeyAction: Sendable {
    /// Always this action.
    case send(Action)
    /// Nothing: the mode takes the key so that no mode below sees it.
    case nothing
    /// Depends on the key (a typed character) or the state (`Esc` in the list clears a search).
    case decide(@Sendable (Key, AppState) -> Action?)

    func action(for key: Key, in state: AppState) -> Action? {
        switch self {
        case .send(let action): action
        case .nothing: nil
        case .decide(let decide): decide(key, state)
        }
    }
}
