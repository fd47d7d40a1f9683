extension NotesEditor {
    /// Characters a note holds (issue 57): a few pages. Every key redraws and re-wraps the whole
    /// note (a pasted megabyte took a second a key, and several behind a running delete), and
    /// the draft is kept in the scene file, which stays under 64 KiB. What is typed or pasted
    /// past it is left out, and the status line says how much, as the one-line fields do.
    public static let capacity = 16_384

    /// Applies an editing key: characters insert, `Enter` breaks the line, `Backspace` and
    /// `Delete` remove, arrows, `Home` and `End` move (by logical line). Returns false for keys
    /// that are not editing keys (`ctrl-s`, `Esc`), which the app handles. A character that
    /// does not fit (``capacity``) is not inserted: ``leftOut`` then counts it.
    public mutating func apply(_ key: Key) -> Bool {
        var characters = Array(text)
        cursor = min(max(0, cursor), characters.count)
        let room = Self.capacity - characters.count
        switch key {
        case .character(let character):
            guard room >= 1 else { return true }
            characters.insert(character, at: cursor)
            cursor += 1
        case .enter:
            guard room >= 1 else { return true }
            characters.insert("\n", at: cursor)
            cursor += 1
        case .tab:
            guard room >= 4 else { return true }
            characters.insert(contentsOf: "    ", at: cursor)
            cursor += 4
        case .backspace:
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case .left:
            cursor = max(0, cursor - 1)
            return true
        case .right:
            cursor = min(characters.count, cursor + 1)
            return true
        case .home:
            cursor = Self.lineStart(characters, cursor)
            return true
        case .end:
            cursor = Self.lineEnd(characters, cursor)
            return true
        case .up, .down:
            let start = Self.lineStart(characters, cursor)
            let column = cursor - start
            if key == .up {
                guard start > 0 else { cursor = 0; return true }
                let previousStart = Self.lineStart(characters, start - 1)
                cursor = min(previousStart + column, start - 1)
            } else {
                let end = Self.lineEnd(characters, cursor)
                guard end < characters.count else { cursor = characters.count; return true }
                cursor = min(end + 1 + column, Self.lineEnd(characters, end + 1))
            }
            return true
        default:
            return false
        }
        text = String(characters)
        isDirty = true
        return true
    }

    /// Whether `key` would insert text the note has no room for (``capacity``).
    public func isFull(for key: Key) -> Bool {
        let room = Self.capacity - text.count
        switch key {
        case .character, .enter: return room < 1
        case .tab: return room < 4
        default: return false
        }
    }

    /// Inserts as much of `text` (a paste, already cleaned by `PastedText.lines`) at the cursor
    /// as the note has room for (``capacity``); the cursor moves past it.
    /// - Returns: how many characters of `text` did not fit (0: all of them did).
    @discardableResult
    public mutating func insert(_ text: String) -> Int {
        guard !text.isEmpty else { return 0 }
        var characters = Array(self.text)
        cursor = min(max(0, cursor), characters.count)
        // Only what fits is made characters; the rest is counted (a 1 MB paste made a million
        // `Character`s on the loop: a second, issue 57).
        let room = max(0, Self.capacity - characters.count)
        let inserted = Array(text.prefix(room))
        guard !inserted.isEmpty else { return text.count }
        characters.insert(contentsOf: inserted, at: cursor)
        cursor += inserted.count
        self.text = String(characters)
        isDirty = true
        return inserted.count < room ? 0 : text.count - inserted.count
    }

    /// The offset of the first character of the logical line containing `offset`.
    static func lineStart(_ characters: [Character], _ offset: Int) -> Int {
        var index = offset
        while index > 0, characters[index - 1] != "\n" { index -= 1 }
        return index
    }

    /// The offset of the newline (or end of text) ending the logical line containing `offset`.
    static func lineEnd(_ characters: [Character], _ offset: Int) -> Int {
        var index = offset
        while index < characters.count, characters[index] != "\n" { index += 1 }
        return index
    }
}
