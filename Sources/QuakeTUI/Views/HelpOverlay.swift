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

    /// The widest meaning column the box makes room for: a longer meaning (the `:` line's list of
    /// commands) wraps in it rather than widening the box to the screen.
    static let widestAction = 60

    /// The box for a screen: as large as the lines need, between the header and the status line
    /// (`ScreenLayout.overlayBox`), as tall as the rows they wrap to at its width.
    static func box(in bounds: Rect) -> Rect {
        let keyWidth = lines.map(\.keysWidth).max()!
        let actionWidth = min(widestAction, lines.map { TextWidth.of($0.action) }.max()!)
        let width = ScreenLayout.overlayBox(width: keyWidth + actionWidth + 7, height: 0, in: bounds).width
        return ScreenLayout.overlayBox(width: width, height: rows(innerWidth: width - 4, lines).count + 2, in: bounds)
    }

    /// How many rows fit at once, and so how far the help can scroll.
    static func visibleEntries(in bounds: Rect) -> Int { max(0, box(in: bounds).height - 2) }

    /// The lines as the box shows them in `bounds`: a line whose keys or meaning do not fit
    /// their column goes on in the rows below it, wrapped at spaces (issue 56.10: at 60×15 the
    /// meanings were cut, `this or previous / next sec…`). What `helpOffset` scrolls by.
    ///
    /// With `finding` (`/`), only the lines whose keys or meaning hold it (in any case), or a
    /// line saying none does.
    static func rows(in bounds: Rect, finding: String = "") -> [Line] {
        rows(innerWidth: box(in: bounds).width - 4, finding.isEmpty ? lines : found(finding))
    }

    /// `lines` as rows inside a box `innerWidth` wide.
    private static func rows(innerWidth: Int, _ lines: [Line]) -> [Line] {
        guard innerWidth > 0 else { return lines }
        let keysColumn = self.keysColumn(innerWidth)
        let actionWidth = max(1, innerWidth - keysColumn - 2)
        func wrapped(_ text: String, _ width: Int) -> [String] {
            let characters = Array(text)
            return NotesView.wrap(characters, width: max(1, width)).map {
                String(characters[$0.range]).trimmingCharacters(in: .whitespaces)
            }
        }
        var rows: [Line] = []
        for line in lines {
            guard !line.keys.isEmpty else {
                rows += wrapped(line.action, innerWidth).map { Line(keys: [], action: $0) }
                continue
            }
            let actions = wrapped(line.action, actionWidth)
            // A key group (one text) wraps in its column too; marks (several) fit as they are.
            let keys: [[(text: String, style: Style)]] = line.keys.count == 1 && TextWidth.of(line.keys[0].text) > keysColumn
                ? wrapped(line.keys[0].text, keysColumn).map { [($0, line.keys[0].style)] } : [line.keys]
            for index in 0..<max(actions.count, keys.count) {
                // A continuation row keeps an empty key cell, so it is not drawn as a heading.
                rows.append(Line(keys: index < keys.count ? keys[index] : [("", .plain)],
                                 action: index < actions.count ? actions[index] : ""))
            }
        }
        return rows
    }

    /// The lines holding `text` (headings aside), or one saying that none does.
    static func found(_ text: String) -> [Line] {
        let found = lines.filter { line in
            !line.keys.isEmpty && (line.keys.contains { $0.text.localizedCaseInsensitiveContains(text) }
                                   || line.action.localizedCaseInsensitiveContains(text))
        }
        return found.isEmpty ? [Line(keys: [("", .plain)], action: "No key matches “\(text)”")] : found
    }

    /// The box's title: ` Keys `, and what `/` finds (`▏` while it is typed).
    static func title(_ base: String, finding: String, typing: Bool) -> String {
        typing || !finding.isEmpty ? " \(base) /\(finding)\(typing ? "▏" : "") " : " \(base) "
    }

    /// The keys' column: as wide as the widest keys, at most half the box.
    private static func keysColumn(_ innerWidth: Int) -> Int {
        min(lines.map(\.keysWidth).max()!, max(0, innerWidth / 2))
    }

    static func render(in bounds: Rect, offset: Int, finding: String = "", typing: Bool = false,
                       into buffer: inout CellBuffer) {
        let box = box(in: bounds)
        guard box.width >= 10, box.height >= 3 else { return }
        drawBox(box, title: title("Keys", finding: finding, typing: typing), into: &buffer)
        let inner = box.inset(dx: 2, dy: 1)
        let visible = inner.height
        let lines = rows(in: bounds, finding: finding)
        let first = min(max(0, offset), max(0, lines.count - visible))
        let keysColumn = keysColumn(inner.width)
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
        let footer = typing ? " Enter keeps  Esc clears " : more ? " ↓ more: j/k G " : (first > 0 ? " ↑ k g " : " ? or Esc closes ")
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
