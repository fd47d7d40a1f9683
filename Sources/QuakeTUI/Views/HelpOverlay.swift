/// The help overlay: every key of the browser (SPEC §8) in a centred box, then what the
/// list's marks mean (`QuakeMark.legend`).
enum HelpOverlay {
    /// One line of the box: keys (or marks, each in its own style) and their meaning; a line
    /// without keys is a heading.
    struct Line {
        var keys: [(text: String, style: Style)]
        var action: String

        var keysWidth: Int { keys.reduce(0) { $0 + TextWidth.of($1.text) } + max(0, keys.count - 1) }
    }

    /// Key groups and their meaning, in the order shown: the help lines of the one table (``KeyTable``).
    static var entries: [(keys: String, action: String)] { KeyHelp.entries }

    /// Every line of the box: the keys, a blank line, the marks' heading and legend.
    static let lines: [Line] = entries.map { Line(keys: [($0.keys, .role(.accent, [.bold]))], action: $0.action) }
        + [Line(keys: [], action: ""), Line(keys: [], action: "Marks after the magnitude")]
        + QuakeMark.legend.map { Line(keys: $0.marks.map { ($0.glyph, $0.style) }, action: $0.meaning) }
        + [Line(keys: [], action: ""), Line(keys: [], action: "Other marks")]
        + QuakeMark.otherLegend.map { Line(keys: $0.marks.map { ($0.glyph, $0.style) }, action: $0.meaning) }

    /// The box for a screen: as large as the lines need, between the header and the status line
    /// (`ScreenLayout.overlayBox`).
    static func box(in bounds: Rect) -> Rect {
        let keyWidth = lines.map(\.keysWidth).max()!
        let actionWidth = lines.map { TextWidth.of($0.action) }.max()!
        return ScreenLayout.overlayBox(width: keyWidth + actionWidth + 7, height: lines.count + 2, in: bounds)
    }

    /// How many lines fit at once, and so how far the help can scroll.
    static func visibleEntries(in bounds: Rect) -> Int { max(0, box(in: bounds).height - 2) }

    static func render(in bounds: Rect, offset: Int, into buffer: inout CellBuffer) {
        let box = box(in: bounds)
        guard box.width >= 10, box.height >= 3 else { return }
        drawBox(box, title: " Keys ", into: &buffer)
        let inner = box.inset(dx: 2, dy: 1)
        let visible = inner.height
        let first = min(max(0, offset), max(0, lines.count - visible))
        let keyWidth = lines.map(\.keysWidth).max()!
        let keysColumn = min(keyWidth, max(0, inner.width / 2))
        for (row, line) in lines.dropFirst(first).prefix(visible).enumerated() {
            let y = inner.y + row
            guard !line.keys.isEmpty else {
                buffer.put(line.action, at: Point(x: inner.x, y: y), style: .role(.header, [.bold]), maxWidth: inner.width)
                continue
            }
            var x = inner.x
            for key in line.keys where x < inner.x + keysColumn {
                x += buffer.put(key.text, at: Point(x: x, y: y), style: key.style, maxWidth: inner.x + keysColumn - x) + 1
            }
            buffer.put(line.action, at: Point(x: inner.x + keysColumn + 2, y: y),
                       maxWidth: inner.maxX - inner.x - keysColumn - 2)
        }
        let more = first + visible < lines.count
        let footer = more ? " ↓ more: j/k G " : (first > 0 ? " ↑ k g " : " ? or Esc closes ")
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
