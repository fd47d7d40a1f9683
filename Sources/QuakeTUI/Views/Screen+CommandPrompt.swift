extension Screen {
    /// The `:` command line over the status line (as vim and k9s draw theirs): the text with a
    /// cursor, and what the keys do when there is room.
    static func renderCommandPrompt(_ text: String, in rect: Rect, into buffer: inout CellBuffer) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect)
        let hint = "Enter runs  ↑↓ history  Esc cancels"
        let hintWidth = TextWidth.of(hint)
        let room = rect.width - 1 - (rect.width > hintWidth + 30 ? hintWidth + 2 : 0)
        // The end of a long line stays in view.
        var shown = ":" + text
        while TextWidth.of(shown) + 1 > room, !shown.isEmpty { shown.removeFirst() }
        let x = rect.x + buffer.put(shown + "▏", at: Point(x: rect.x, y: rect.y), style: .role(.accent, [.bold]),
                                    maxWidth: room, ellipsis: false)
        if room < rect.width - 1, x < rect.maxX - hintWidth {
            buffer.put(hint, at: Point(x: rect.maxX - hintWidth - 1, y: rect.y), style: .role(.dim))
        }
    }
}
