import QuakeModel

/// Moving the cursor the way less, vim and lazygit users expect: `j`/`k`, pages and `g`/`G`
/// land on quakes (a section header is selectable only while its section is collapsed, so it
/// can be expanded again; the mouse can still select any header), `[`/`]` jump between
/// sections, and the first list line shows the top row's section header when that header has
/// scrolled away (the sticky header).
extension BrowserState {
    /// Whether the cursor may rest on `line` when moved by keys: a quake, or a collapsed header.
    func isSelectable(_ line: Int) -> Bool {
        switch layout.line(at: line) {
        case .row?: true
        case .header(let section)?: self.collapsedSections.contains(results.sections[section].id)
        case nil: false
        }
    }

    /// The nearest selectable line from `line` going `direction` (+1 or -1), else going the
    /// other way; `line` itself (clamped) when nothing is selectable.
    func selectableLine(from line: Int, direction: Int) -> Int {
        let start = max(0, min(line, layout.lineCount - 1))
        for step in [direction, -direction] {
            var candidate = start
            while candidate >= 0 && candidate < layout.lineCount {
                if isSelectable(candidate) { return candidate }
                candidate += step
            }
        }
        return start
    }

    /// `j`/`k`, pages and half pages: moves by `delta` lines, then on to the next quake (or
    /// collapsed header) in the direction of travel.
    mutating func moveSelection(by delta: Int) {
        guard layout.lineCount > 0, delta != 0 else { return }
        let direction = delta > 0 ? 1 : -1
        var target = self.cursorLine + delta
        // From a header (selected by the mouse) the first step still moves.
        if delta.magnitude == 1 {
            while target >= 0 && target < layout.lineCount && !isSelectable(target) { target += direction }
            guard target >= 0 && target < layout.lineCount else { return }
            moveCursor(to: target)
            return
        }
        moveCursor(to: selectableLine(from: target, direction: direction))
    }

    /// `g`/`Home` and `G`/`End`: the first or last quake.
    mutating func moveToFirstQuake() { moveCursor(to: selectableLine(from: 0, direction: 1)) }
    mutating func moveToLastQuake() { moveCursor(to: selectableLine(from: layout.lineCount - 1, direction: -1)) }

    /// `]`: the first quake of the next section. `[`: the first quake of this section, or of the
    /// previous one when already there. The section's header goes to the top of the list (as far
    /// as the list's end allows), so the section's quakes fill the screen below it.
    mutating func jumpSection(by direction: Int) {
        guard let current = layout.line(at: self.cursorLine) else { return }
        var section = current.section
        if direction > 0 {
            section += 1
        } else if self.cursorLine <= firstSelectableLine(ofSection: section) {
            section -= 1
        }
        guard section >= 0 && section < results.sections.count else { return }
        let header = layout.headerLine(ofSection: section)
        moveCursor(to: firstSelectableLine(ofSection: section))
        self.topLine = header
        clampScroll()
    }

    private func firstSelectableLine(ofSection section: Int) -> Int {
        let header = layout.headerLine(ofSection: section)
        return isSelectable(header) ? header : header + 1
    }

    /// The header the first list line shows in place of the top row: the top row's section,
    /// when the top row is a quake (its header has scrolled off).
    var stickySection: Int? {
        guard case .row(let section, _)? = layout.line(at: self.topLine) else { return nil }
        return section
    }
}

extension BrowserState {
    /// `c`: the column headers on or off. The rows stay where they are on the terminal (the
    /// list gains or loses its first line), the selection too unless that line was its own.
    mutating func toggleColumnHeaders() {
        let showing = !self.showsColumnHeaders
        self.columnHeaders = showing
        self.topLine += showing ? 1 : -1
        self.topLine = max(0, self.topLine)
        clampScroll()
    }
}
