extension Screen {
    /// The `:` command line over the status line (as vim and k9s draw theirs): the text with a
    /// cursor, and what the keys do when there is room.
    static func renderCommandPrompt(_ text: String, cursor: Int? = nil, in rect: Rect, into buffer: inout CellBuffer) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect)
        let hint = KeyTable.rankedHints(in: .commandLine).map { "\($0.keys) \($0.action)" }.joined(separator: "  ")
        let hintWidth = TextWidth.of(hint)
        let room = rect.width - 1 - (rect.width > hintWidth + 30 ? hintWidth + 2 : 0)
        // The cursor stays in view: a long line loses its start, or its end past the cursor.
        let characters = Array(text)
        let at = min(max(0, cursor ?? characters.count), characters.count)
        var before = ":" + String(characters[..<at])
        var after = String(characters[at...])
        while TextWidth.of(before) + 1 + TextWidth.of(after) > room, !(before.isEmpty && after.isEmpty) {
            if !after.isEmpty, TextWidth.of(after) > room / 2 || before.isEmpty { after.removeLast() } else { before.removeFirst() }
        }
        let x = rect.x + buffer.put(before + "▏" + after, at: Point(x: rect.x, y: rect.y), style: .role(.accent, [.bold]),
                                    maxWidth: room, ellipsis: false)
        if room < rect.width - 1, x < rect.maxX - hintWidth {
            buffer.put(hint, at: Point(x: rect.maxX - hintWidth - 1, y: rect.y), style: .role(.dim))
        }
    }
}
