extension Screen {
    /// The `:` command line over the status line (as vim and k9s draw theirs): the text with a
    /// cursor, and what the keys do when there is room, or in their place what the line says of its
    /// own input (a paste cut to the line's capacity), which the status line it covers would say.
    static func renderCommandPrompt(_ text: String, cursor: Int? = nil, message: String? = nil, in rect: Rect,
                                    into buffer: inout CellBuffer) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect)
        let hint = message ?? KeyTable.rankedHints(in: .commandLine).map { "\($0.keys) \($0.action)" }.joined(separator: "  ")
        let hintWidth = TextWidth.of(hint)
        let room = rect.width - 1 - (rect.width > hintWidth + 30 ? hintWidth + 2 : 0)
        // The cursor stays in view: a long line loses its start, or its end past the cursor.
        // Each side's width is kept as characters leave it: linear in the line (issue 57).
        let characters = Array(text)
        let at = min(max(0, cursor ?? characters.count), characters.count)
        let before: [Character] = [":"] + characters[..<at]
        let after = characters[at...]
        var (start, end) = (before.startIndex, after.endIndex)
        var beforeWidth = before.reduce(0) { $0 + TextWidth.of($1) }
        var afterWidth = after.reduce(0) { $0 + TextWidth.of($1) }
        while beforeWidth + 1 + afterWidth > room, start < before.endIndex || end > after.startIndex {
            if end > after.startIndex, afterWidth > room / 2 || start == before.endIndex {
                end -= 1
                afterWidth -= TextWidth.of(after[end])
            } else {
                beforeWidth -= TextWidth.of(before[start])
                start += 1
            }
        }
        let shown = String(before[start...]) + "▏" + String(after[..<end])
        let x = rect.x + buffer.put(shown, at: Point(x: rect.x, y: rect.y), style: .role(.accent, [.bold]),
                                    maxWidth: room, ellipsis: false)
        if room < rect.width - 1, x < rect.maxX - hintWidth {
            buffer.put(hint, at: Point(x: rect.maxX - hintWidth - 1, y: rect.y), style: message == nil ? .role(.dim) : .role(.warning))
        }
    }
}
