import Foundation

/// One capture of the browser's pane (`capture-pane -p`), read the way the browser draws it
/// (`Sources/QuakeTUI/Views`): the header line on top, the status line at the bottom, between them
/// the list (section lines and quake rows) and, side by side or instead of it, the detail pane;
/// over them the boxes of the help and the message log, and the `:` line over the status line.
///
/// End-to-end tests read screens through it and compare whole values (the whole header, the
/// whole row list, the whole status line), not substrings:
///
/// ```swift
/// let screen = try tmux.waitForScreen(pane, "the filter") { $0.header.filters == ":mag 5+" }
/// #expect(screen.header.segments == ["quaketui", "27 quakes", "sort time ↓", ":mag 5+"])
/// #expect(screen.status.message == "Filters mag 5+: 27 quakes")
/// ```
public struct Screen: Equatable, Sendable, CustomStringConvertible {
    /// The capture as tmux gave it.
    public let text: String
    /// The pane's rows, top to bottom (the final line feed of `capture-pane` dropped).
    public let lines: [String]

    /// The line of the body drawn selected (an index into `lines`), when read from a styled
    /// capture (`TmuxSession.styledScreen`); nil otherwise or when no line is selected.
    public let selectedLine: Int?

    /// `styled`: the same frame captured with its escapes (`capture-pane -e`), to read the selection.
    public init(_ text: String, styled: String? = nil) {
        self.text = text
        lines = Self.split(text)
        selectedLine = styled.flatMap { styled in
            let highlighted = Self.highlightedLines(styled)
            return highlighted.indices.dropFirst().dropLast().first { highlighted[$0] }
        }
    }

    static func split(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// For each line of a styled capture, whether its first cell has a background colour or
    /// reverse video: the selection is restyled across its whole row (`ListView.render`), and no
    /// other list line has a background in its first cell. tmux writes only the changes from
    /// cell to cell, across line ends too, so the state is followed through the whole capture.
    static func highlightedLines(_ styled: String) -> [Bool] {
        var highlighted = false
        return split(styled).map { line in
            var first: Bool?
            var rest = Substring(line)
            while !rest.isEmpty {
                guard rest.hasPrefix("\u{1B}["), let end = rest.firstIndex(where: { $0.isLetter }) else {
                    if first == nil { first = highlighted }
                    rest = rest.dropFirst()
                    continue
                }
                if rest[end] == "m" {
                    let codes = rest[rest.index(rest.startIndex, offsetBy: 2)..<end]
                        .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                    var index = 0
                    while index < codes.count {
                        switch codes[index] {
                        case 0, 27, 49: highlighted = false
                        case 7, 40...47, 100...107: highlighted = true
                        case 38, 48:
                            if codes[index] == 48 { highlighted = true }
                            index += codes.count > index + 1 && codes[index + 1] == 5 ? 2 : 4
                        default: break
                        }
                        index += 1
                    }
                }
                rest = rest[rest.index(after: end)...]
            }
            return first ?? false
        }
    }

    /// A styled capture (`capture-pane -e`) as what a person sees, one string a line: each cell's
    /// character, and where the look changes a marker of the attributes that show (`‹R›` reverse,
    /// `‹B›` bold, `‹D›` dim, `‹U›` underline, `‹f:117›` and `‹b:24›` colours). A blank shows only
    /// its reverse, underline and background: a dim or bold space is a space. tmux writes only
    /// the changes from cell to cell, and curses draws blanks as spaces or as cleared cells as it
    /// likes, so comparing the escapes themselves would compare how the frame was drawn.
    public static func visibleStyles(_ styled: String) -> [String] {
        var bold = false, dim = false, underline = false, reverse = false
        var foreground: String?, background: String?
        return split(styled).map { line in
            var cells: [(Character, String)] = []
            var rest = Substring(line)
            while let character = rest.first {
                if rest.hasPrefix("\u{1B}[") {
                    guard let end = rest.dropFirst(2).firstIndex(where: { $0.isLetter || $0 == "~" }) else { break }
                    if rest[end] == "m" {
                        let codes = rest[rest.index(rest.startIndex, offsetBy: 2)..<end]
                            .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                        var index = 0
                        while index < codes.count {
                            let code = codes[index]
                            switch code {
                            case 0: (bold, dim, underline, reverse, foreground, background) = (false, false, false, false, nil, nil)
                            case 1: bold = true
                            case 2: dim = true
                            case 22: (bold, dim) = (false, false)
                            case 4: underline = true
                            case 24: underline = false
                            case 7: reverse = true
                            case 27: reverse = false
                            case 30...37, 90...97: foreground = "\(code)"
                            case 39: foreground = nil
                            case 40...47, 100...107: background = "\(code)"
                            case 49: background = nil
                            case 38, 48:
                                let width = codes.count > index + 1 && codes[index + 1] == 5 ? 2 : 4
                                let value = codes[(index + 1)...].prefix(width).map(String.init).joined(separator: ",")
                                if code == 38 { foreground = value } else { background = value }
                                index += width
                            default: break
                            }
                            index += 1
                        }
                    }
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                rest = rest.dropFirst()
                var look: [String] = []
                if reverse { look.append("R") }
                if underline { look.append("U") }
                if let background { look.append("b:\(background)") }
                if character != " " {
                    if bold { look.append("B") }
                    if dim { look.append("D") }
                    if let foreground { look.append("f:\(foreground)") }
                }
                cells.append((character, look.joined(separator: " ")))
            }
            while let last = cells.last, last.0 == " ", last.1.isEmpty { cells.removeLast() }
            var text = "", current = ""
            for (character, look) in cells {
                if look != current {
                    text += "‹\(look)›"
                    current = look
                }
                text.append(character)
            }
            return text
        }
    }

    /// The list line drawn selected (from a styled capture).
    public var selectedRow: Row? {
        guard let line = selectedLine, line - 1 < listPane.count else { return nil }
        return Row(listPane[line - 1])
    }

    public var description: String { text }

    /// The lines with text on them, trimmed: a screen that is not the browser's (a question on
    /// the terminal, an error, the shell), read whole.
    public var textLines: [String] { lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }

    /// The browser's header line (the first row).
    public var header: Header { Header(lines.first ?? "") }

    /// The status line (the last row): a message or key hints on the left, the right-hand items after.
    public var status: StatusLine { StatusLine(lines.count > 1 ? lines[lines.count - 1] : "") }

    /// The rows between the header and the status line, as drawn (both panes when side by side).
    public var body: [String] { lines.count > 2 ? Array(lines[1..<(lines.count - 1)]) : [] }

    /// The body's cells of the list pane, each line trimmed: the whole body, or left of the
    /// separator when the detail sits beside it; none when the detail covers the body.
    public var listPane: [String] {
        if let column = separatorColumn { return body.map { Self.trim(Self.cells($0, in: 0..<column)) } }
        if detailTabs != nil { return [] }
        return body.map(Self.trim)
    }

    /// The lines of the pane beside the list or in its place, trimmed: the detail (its tab bar
    /// first) or the statistics (`=`); nil when neither is open.
    public var detailPane: [String]? {
        if let column = separatorColumn { return body.map { Self.trim(Self.cells($0, in: (column + 1)..<Int.max)) } }
        return detailTabs == nil ? nil : body.map(Self.trim)
    }

    /// The row of column names above the list (`mag   place … time ↓`), when shown.
    public var columnHeaders: String? {
        guard let first = listPane.first, first.hasPrefix("mag") else { return nil }
        return first
    }

    /// The list's lines in order: section lines and quake rows (the column headers left out).
    public var rows: [Row] {
        listPane.dropFirst(columnHeaders == nil ? 0 : 1).compactMap(Row.init)
    }

    /// The list's line `index` (0: the first below the column headers), nil past the last.
    public func row(at index: Int) -> Row? { index < rows.count ? rows[index] : nil }

    /// The list pane's line `index` as drawn (trimmed; the column headers are line 0 when
    /// shown), nil past the last.
    public func listLine(_ index: Int) -> String? { index < listPane.count ? listPane[index] : nil }

    /// The quake rows only.
    public var quakeRows: [Row] { rows.filter { $0.section == nil } }

    /// The section lines only.
    public var sections: [Section] { rows.compactMap(\.section) }

    /// The first quake row that shows `code` as a word of its own.
    public func row(code: String) -> Row? { quakeRows.first { $0.words.contains(code) } }

    /// Whether every count the screen shows is exact: the header's total is not `… quakes`, no
    /// section's count is `(…)` and the Map tab's density is not being counted (`± world …`). The browser draws a provisional window first (it never
    /// waits for a count) and replaces it once the counts are in, so a test that compares
    /// screens waits for this (`TmuxSession.waitForScreen` does by default).
    public var isSettled: Bool {
        !header.isCountPending && !sections.contains(where: \.isCountPending) && !isMapDensityPending
    }

    /// The detail's tab labels (`["1 Detail", "2 Map", "3 Notes"]`) when the detail is open.
    public var detailTabs: [String]? {
        for line in body {
            let words = Self.words(line, separatedBy: 2)
            if let first = words.firstIndex(of: "1 Detail"), words.count >= first + 3,
               words[first + 1] == "2 Map", words[first + 2].hasPrefix("3 Notes") {
                return ["1 Detail", "2 Map", "3 Notes"]
            }
        }
        return nil
    }

    /// A field of the detail's Detail tab (`Code          us7000abcd` gives `us7000abcd` for
    /// `Code`): the text after the label and its column of spaces; nil when it is not shown.
    public func detailField(_ label: String) -> String? {
        for line in detailPane ?? [] where line.hasPrefix(label + "  ") {
            return String(line.dropFirst(label.count)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The Notes tab as shown: its heading and its text.
    public struct Notes: Equatable, Sendable {
        /// `Notes`, or `Editing notes (unsaved)` while the editor has the keys.
        public let heading: String
        /// The text's lines, trimmed, the blank ones after the last left out.
        public let lines: [String]

        public init(heading: String, lines: [String]) { (self.heading, self.lines) = (heading, lines) }
    }

    /// The detail's Notes tab, nil when another tab (or no detail) is shown.
    public var notes: Notes? {
        guard detailTabs != nil, let pane = detailPane, pane.count > 1,
              pane[1] == "Notes" || pane[1].hasPrefix("Editing notes") else { return nil }
        var lines = Array(pane.dropFirst(2))
        while lines.last?.isEmpty == true { lines.removeLast() }
        return Notes(heading: pane[1], lines: lines)
    }

    /// The whole screen line (the list's part beside it included) of a detail field, or nil.
    public func detailLine(_ label: String) -> String? {
        guard let pane = detailPane, let index = pane.firstIndex(where: { $0.hasPrefix(label + "  ") }) else { return nil }
        return body[index]
    }

    /// The Map tab's legend above the map: `◉ 19.43°N 155.25°W  1km W of Volcano, Hawaii  ± world`.
    public var mapLegend: String? {
        guard detailTabs != nil, let pane = detailPane, pane.count > 1, pane[1].hasPrefix("◉ ") else { return nil }
        return pane[1]
    }

    /// The map's scale, at the legend's end: `± world`, `± region`, `± local` (without the
    /// ` …` of a density being counted: `isMapDensityPending`).
    public var mapScale: String? {
        mapLegend.flatMap { Self.words($0, separatedBy: 2).last }.map { $0.hasSuffix(" …") ? String($0.dropLast(2)) : $0 }
    }

    /// Whether the Map tab's density is being counted (` …` after its scale): the dots drawn
    /// are those of the count before, or none.
    public var isMapDensityPending: Bool { mapLegend?.hasSuffix(" …") == true }

    /// Where the map draws the quake's mark `◉` (below the legend): the line of the detail pane
    /// and the column in it; nil when no map is shown.
    public var mapMark: (line: Int, column: Int)? {
        guard mapLegend != nil, let pane = detailPane else { return nil }
        for (index, line) in pane.enumerated().dropFirst(2) {
            if let column = Self.cellArray(line).firstIndex(of: "◉") { return (index, column) }
        }
        return nil
    }

    /// The overlay box over the body (the help: `Keys`; the message log: `Messages, newest
    /// first`), or nil when none is open.
    public var overlay: Overlay? { Overlay(lines) }

    /// The `:` command line over the status line (`:depth 10-20▏`), the cursor included; nil when closed.
    public var commandLine: String? {
        let line = status.line
        guard line.hasPrefix(":") else { return nil }
        return Self.words(line, separatedBy: 2).first
    }

    /// The column of the separator between list and detail when they sit side by side.
    public var separatorColumn: Int? {
        let rows = body.map(Self.cellArray)
        guard let first = rows.first, !rows.isEmpty else { return nil }
        for column in 40..<max(40, first.count) where rows.allSatisfy({ column < $0.count && $0[column] == "│" }) {
            return column
        }
        return nil
    }

    // MARK: Text

    /// `line` split at runs of `spaces` spaces or more, each part trimmed, empty parts dropped.
    public static func words(_ line: String, separatedBy spaces: Int) -> [String] {
        line.components(separatedBy: String(repeating: " ", count: spaces))
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A line without the spaces around it and the scrollbar's thumb at its end.
    static func trim(_ line: String) -> String {
        var text = line.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("┃") { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        return text
    }

    /// A line as terminal cells: a wide character takes its cell and an empty one after it.
    static func cellArray(_ line: String) -> [String] {
        line.flatMap { character -> [String] in
            isWide(character) ? [String(character), ""] : [String(character)]
        }
    }

    /// The cells of `line` in `columns`, joined.
    static func cells(_ line: String, in columns: Range<Int>) -> String {
        let cells = cellArray(line)
        let range = min(columns.lowerBound, cells.count)..<min(columns.upperBound, cells.count)
        return cells[range].joined()
    }

    /// East Asian wide and emoji characters take two cells (enough for what tests draw).
    static func isWide(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        return (0x1100...0x115F).contains(scalar) || (0x2E80...0xA4CF).contains(scalar)
            || (0xAC00...0xD7A3).contains(scalar) || (0xF900...0xFAFF).contains(scalar)
            || (0xFE30...0xFE4F).contains(scalar) || (0xFF00...0xFF60).contains(scalar)
            || (0xFFE0...0xFFE6).contains(scalar) || (0x1F300...0x1F64F).contains(scalar)
            || (0x20000...0x3FFFD).contains(scalar)
    }
}
