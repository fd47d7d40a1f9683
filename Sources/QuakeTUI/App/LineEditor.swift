/// One line of text being typed, and where typing inserts: the search field and the `:` line
/// both edit theirs with it, bound to the same keys in `KeyTable` (`KeyTable.lineEditing`).
///
/// ```swift
/// var line = LineEditor(text: "near tokyo")
/// line.apply(.deleteWordBackward)   // "near ", cursor 5
/// line.apply(.home); line.insert("x") // "xnear "
/// ```
public struct LineEditor: Equatable, Sendable {
    public private(set) var text: String
    /// Where typing inserts, in characters from the start (0…`text.count`).
    public private(set) var cursor: Int

    /// A line holding `text`, the cursor at `cursor` (clamped; nil: at the end).
    public init(text: String = "", cursor: Int? = nil) {
        self.text = text
        self.cursor = min(max(0, cursor ?? text.count), text.count)
    }

    /// Characters one line holds (issue 57). The search runs its text against every quake on
    /// each change and the `:` line is a filter: neither is a page long, and a pasted file would
    /// make every key's work grow with it. (An HTML `<input>` or a GTK entry caps the same way.)
    public static let capacity = 1_024

    /// Inserts as much of `inserted` at the cursor as the line has room for (`capacity`); the
    /// cursor moves past it. Linear in the line and the text inserted.
    /// - Returns: how many characters of `inserted` did not fit (0: all of them did).
    @discardableResult
    public mutating func insert(_ inserted: String) -> Int {
        let room = max(0, Self.capacity - text.count)
        let kept = inserted.prefix(room)
        let keptCount = kept.count
        text.insert(contentsOf: kept, at: text.index(text.startIndex, offsetBy: cursor))
        cursor += keptCount
        return keptCount == room ? inserted.count - keptCount : 0
    }

    /// Applies one editing key's meaning; returns whether the text changed (a move alone does not).
    @discardableResult
    public mutating func apply(_ edit: LineEdit) -> Bool {
        var characters = Array(text)
        let removed: Range<Int>
        switch edit {
        case .left: cursor = max(0, cursor - 1); return false
        case .right: cursor = min(characters.count, cursor + 1); return false
        case .home: cursor = 0; return false
        case .end: cursor = characters.count; return false
        case .backspace: removed = max(0, cursor - 1)..<cursor
        case .deleteForward: removed = cursor..<min(characters.count, cursor + 1)
        case .deleteToStart: removed = 0..<cursor
        case .deleteWordBackward:
            // The spaces before the cursor, then the word before them (as a shell's ctrl-w).
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            removed = start..<cursor
        }
        guard !removed.isEmpty else { return false }
        characters.removeSubrange(removed)
        text = String(characters)
        cursor = removed.lowerBound
        return true
    }
}

/// What an editing key does to a `LineEditor` (`KeyTable.lineEditing` binds them).
public enum LineEdit: Equatable, Sendable, CaseIterable {
    /// ← → Home End (ctrl-a ctrl-e): move the cursor.
    case left, right, home, end
    /// Backspace: the character before the cursor; Delete: the one under it.
    case backspace, deleteForward
    /// ctrl-w: the word before the cursor (and the spaces after it); ctrl-u: everything before the cursor.
    case deleteWordBackward, deleteToStart
}
