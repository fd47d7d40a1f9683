/// The Notes tab: the text word-wrapped to the pane, with a cursor while editing.
enum NotesView {
    /// One wrapped line: the Character offsets of `text` it shows.
    struct WrappedLine: Equatable {
        var range: Range<Int>
    }

    static func render(_ notes: NotesEditor, in rect: Rect, into buffer: inout CellBuffer) {
        let inner = rect.inset(dx: 1, dy: 0)
        guard inner.height >= 3, inner.width >= 4 else { return }
        let title = notes.isEditing ? "Editing notes" + (notes.isDirty ? " (unsaved)" : "") : "Notes"
        buffer.put(title, at: Point(x: inner.x, y: inner.y), style: .role(notes.isEditing ? .warning : .header, [.bold]),
                   maxWidth: inner.width)
        let textArea = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        let characters = Array(notes.text)
        if characters.isEmpty, !notes.isEditing {
            buffer.put("No notes. Press e to write some.", at: Point(x: textArea.x, y: textArea.y), style: .role(.dim),
                       maxWidth: textArea.width)
            return
        }
        let lines = wrap(characters, width: textArea.width - 1)
        let cursor = min(max(0, notes.cursor), characters.count)
        let cursorLine = notes.isEditing ? line(containing: cursor, in: lines) : 0
        // Scroll so the cursor stays visible.
        let first = max(0, cursorLine - textArea.height + 1)
        for (offset, line) in lines.dropFirst(first).prefix(textArea.height).enumerated() {
            let y = textArea.y + offset
            var x = textArea.x
            for index in line.range {
                let character = characters[index]
                if character == "\n" { continue }
                let style: Style = notes.isEditing && index == cursor ? Style(attributes: [.reverse]) : .plain
                x += buffer.put(String(character), at: Point(x: x, y: y), style: style, maxWidth: textArea.maxX - x)
            }
            if notes.isEditing, first + offset == cursorLine, !line.range.contains(cursor) || cursor == characters.count
                || characters[cursor] == "\n" {
                buffer.put(" ", at: Point(x: x, y: y), style: Style(attributes: [.reverse]))
            }
        }
    }

    /// Wraps text at spaces to `width` columns (hard-wrapping words longer than a line);
    /// a newline ends a line and belongs to it.
    static func wrap(_ characters: [Character], width: Int) -> [WrappedLine] {
        guard width > 0 else { return [WrappedLine(range: 0..<characters.count)] }
        var lines: [WrappedLine] = []
        var start = 0
        var used = 0
        var lastSpace: Int?
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                lines.append(WrappedLine(range: start..<(index + 1)))
                start = index + 1
                used = 0
                lastSpace = nil
                index += 1
                continue
            }
            let w = TextWidth.of(character)
            if used + w > width, index > start {
                let breakAt = lastSpace.map { $0 + 1 } ?? index
                lines.append(WrappedLine(range: start..<breakAt))
                start = breakAt
                used = characters[start..<index].reduce(0) { $0 + TextWidth.of($1) }
                lastSpace = nil
                continue
            }
            if character == " " { lastSpace = index }
            used += w
            index += 1
        }
        lines.append(WrappedLine(range: start..<characters.count))
        return lines
    }

    /// The wrapped line the cursor is on (the last line for the end of the text).
    static func line(containing cursor: Int, in lines: [WrappedLine]) -> Int {
        for (index, line) in lines.enumerated() where line.range.contains(cursor) { return index }
        return max(0, lines.count - 1)
    }
}
