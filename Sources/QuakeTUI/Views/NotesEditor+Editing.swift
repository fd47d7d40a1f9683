extension NotesEditor {
    /// Applies an editing key: characters insert, `Enter` breaks the line, `Backspace` and
    /// `Delete` remove, arrows, `Home` and `End` move (by logical line). Returns false for keys
    /// that are not editing keys (`ctrl-s`, `Esc`), which the app handles.
    public mutating func apply(_ key: Key) -> Bool {
        var characters = Array(text)
        cursor = min(max(0, cursor), characters.count)
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .enter:
            characters.insert("\n", at: cursor)
            cursor += 1
        case .tab:
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

    /// Inserts `text` (a paste, already cleaned by `PastedText.lines`) at the cursor, which
    /// moves past it.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        var characters = Array(self.text)
        cursor = min(max(0, cursor), characters.count)
        let inserted = Array(text)
        characters.insert(contentsOf: inserted, at: cursor)
        cursor += inserted.count
        self.text = String(characters)
        isDirty = true
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
