/// The help overlay: every key of the browser (SPEC §8) in a centred box.
enum HelpOverlay {
    /// Key groups and their meaning, in the order shown: the help lines of the one table (``KeyTable``).
    static var entries: [(keys: String, action: String)] { KeyHelp.entries }

    /// The box for a screen: as large as the entries need, at most the screen.
    static func box(in bounds: Rect) -> Rect {
        let keyWidth = entries.map { TextWidth.of($0.keys) }.max()!
        let actionWidth = entries.map { TextWidth.of($0.action) }.max()!
        return bounds.centered(width: keyWidth + actionWidth + 7, height: entries.count + 2)
    }

    /// How many entries fit at once, and so how far the help can scroll.
    static func visibleEntries(in bounds: Rect) -> Int { max(0, box(in: bounds).height - 2) }

    static func render(in bounds: Rect, offset: Int, into buffer: inout CellBuffer) {
        let box = box(in: bounds)
        guard box.width >= 10, box.height >= 3 else { return }
        drawBox(box, title: " Keys ", into: &buffer)
        let inner = box.inset(dx: 2, dy: 1)
        let visible = inner.height
        let first = min(max(0, offset), max(0, entries.count - visible))
        let keyWidth = entries.map { TextWidth.of($0.keys) }.max()!
        let keysColumn = min(keyWidth, max(0, inner.width / 2))
        for (row, entry) in entries.dropFirst(first).prefix(visible).enumerated() {
            let y = inner.y + row
            buffer.put(entry.keys, at: Point(x: inner.x, y: y), style: .role(.accent, [.bold]), maxWidth: keysColumn)
            buffer.put(entry.action, at: Point(x: inner.x + keysColumn + 2, y: y),
                       maxWidth: inner.maxX - inner.x - keysColumn - 2)
        }
        let more = first + visible < entries.count
        let footer = more ? " ↓ more: j/k " : (first > 0 ? " ↑ j/k " : " ? or Esc closes ")
        buffer.put(footer, at: Point(x: box.x + 2, y: box.maxY - 1), style: .role(more ? .accent : .dim),
                   maxWidth: box.width - 4)
    }

    /// A rounded box with a title, cleared inside.
    static func drawBox(_ box: Rect, title: String, into buffer: inout CellBuffer) {
        buffer.fill(box)
        let border = Style.role(.border)
        let horizontal = String(repeating: "─", count: max(0, box.width - 2))
        buffer.put("╭" + horizontal + "╮", at: Point(x: box.x, y: box.y), style: border)
        buffer.put("╰" + horizontal + "╯", at: Point(x: box.x, y: box.maxY - 1), style: border)
        for y in (box.y + 1)..<(box.maxY - 1) {
            buffer.put("│", at: Point(x: box.x, y: y), style: border)
            buffer.put("│", at: Point(x: box.maxX - 1, y: y), style: border)
        }
        buffer.put(title, at: Point(x: box.x + 2, y: box.y), style: .role(.header, [.bold]), maxWidth: box.width - 4)
    }
}
