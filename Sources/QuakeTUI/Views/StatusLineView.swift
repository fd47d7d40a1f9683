import QuakeModel

/// The status line: a message or key hints on the left; progress, live and refresh on the right.
enum StatusLineView {
    static func render(_ model: ScreenModel, in rect: Rect, into buffer: inout CellBuffer) {
        guard !rect.isEmpty else { return }
        let status = model.status
        // Candidates in priority order; each is kept only if the left side still gets half the line.
        var candidates: [(order: Int, text: String, style: Style)] = []
        if let progress = status.progress {
            candidates.append((0, progressText(progress, width: min(20, max(5, rect.width / 8))), .role(.accent)))
        }
        if status.isLive { candidates.append((2, "● live", .role(.live, [.bold]))) }
        if let auto = status.autoRefresh {
            // The longest wording that leaves the key hints their room (a message: the shortest),
            // down to `✗ retry 4m`.
            let wording = RefreshStatusText.wording(auto, width: rect.width, isLive: status.isLive,
                                                    hints: status.message == nil ? defaultHints(model) : nil)
            candidates.append((1, wording, auto.isError ? .role(.error) : .role(.dim)))
        } else if let refreshed = status.lastRefresh {
            candidates.append((1, "↻ " + QuakeFormat.relative(refreshed, now: model.display.now), .role(.dim)))
        }
        var kept: [(order: Int, text: String, style: Style)] = []
        var used = 0
        for candidate in candidates {
            let width = TextWidth.of(candidate.text) + 2
            if used + width <= rect.width / 2 {
                kept.append(candidate)
                used += width
            }
        }
        let right = kept.sorted { $0.order < $1.order }.map { ($0.text, $0.style) }
        let rightWidth = right.reduce(0) { $0 + TextWidth.of($1.0) + 2 }
        var x = rect.maxX - rightWidth
        for (text, style) in right {
            x += buffer.put("  " + text, at: Point(x: x, y: rect.y), style: style)
        }
        let leftWidth = rect.width - rightWidth - 1
        let start = Point(x: rect.x + 1, y: rect.y)
        var hx = start.x
        let hints: [KeyHint]
        if let message = status.message {
            // The kept hints (`? help`) stay beside a message; one cut at the pane's width also
            // says where to read it whole (`L whole message`), except while a field has the keys.
            let keptWidth = max(0, Self.width(of: Self.hints(for: model, .kept)) - 2)
            let cutWidth = Self.width(of: Self.hints(for: model, .besideCutMessage))
            let isCut = TextWidth.of(SafeText.sanitize(message.text)) > leftWidth - keptWidth - 2
            hx += buffer.put(message.text, at: start, style: message.isError ? .role(.error, [.bold]) : .role(.success),
                             maxWidth: max(0, leftWidth - keptWidth - 2 - (isCut ? cutWidth : 0))) + 2
            hints = Self.shownHints(model, room: start.x + leftWidth - hx, message: isCut ? .cut : .whole)
        } else {
            hints = Self.shownHints(model, room: leftWidth, message: nil)
        }
        for hint in hints {
            guard hx + Self.width(of: [hint]) - 2 <= start.x + leftWidth else { break }
            hx += buffer.put(hint.keys, at: Point(x: hx, y: rect.y), style: .role(.accent, [.bold]))
            hx += buffer.put(" " + hint.action, at: Point(x: hx, y: rect.y), style: .role(.dim))
            hx += 2
        }
    }

    /// A message beside the hints: whole, or cut at the line's width.
    enum MessageFit { case whole, cut }

    /// The hints the line shows in `room` columns, in line order: beside a message the kept ones
    /// (after `L whole message` when it is cut); else the ranked ones, the highest priority number
    /// giving way first until they fit, then the kept ones, which stay (a field keeps at least one).
    static func shownHints(_ model: ScreenModel, room: Int, message: MessageFit?) -> [KeyHint] {
        let kept = hints(for: model, .kept)
        switch message {
        case .whole?: return kept
        case .cut?: return hints(for: model, .besideCutMessage) + kept
        case nil:
            var ranked = defaultHints(model).dropLast(kept.count)
            while !ranked.isEmpty, ranked.count + kept.count > 1, width(of: Array(ranked) + kept) - 2 > room { ranked.removeLast() }
            return Array(ranked) + kept
        }
    }

    /// Columns `hints` take, with the two spaces after each.
    static func width(of hints: [KeyHint]) -> Int {
        hints.reduce(0) { $0 + TextWidth.of($1.keys) + 1 + TextWidth.of($1.action) + 2 }
    }

    /// `importing ▕████░░░░▏ 42%` or, without a total, `importing …`.
    static func progressText(_ progress: StatusProgress, width: Int) -> String {
        guard let fraction = progress.fraction else { return "\(progress.label) …" }
        let clamped = min(1, max(0, fraction))
        let filled = Int((clamped * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return "\(progress.label) ▕\(bar)▏ \(Int((clamped * 100).rounded(.down)))%"
    }

    /// The mode that has the keys, whose hints the line shows: the browser's (`KeyMap.modes`,
    /// a question included), or for a frame built without one, the front one it shows.
    static func hintMode(_ model: ScreenModel) -> KeyMode {
        if let mode = model.keyMode { return mode }
        if model.messageLog != nil { return .messageLog }
        if model.showsHelp { return .help }
        if model.commandPrompt != nil { return .commandLine }
        if model.detail?.notes.isEditing == true { return .notesEditor }
        if model.header.isSearching { return .search }
        if model.detail != nil { return .detail }
        return model.statistics != nil ? .statistics : .list
    }

    /// The table's hints for the mode that has the keys, placed `place` (`KeyTable.statusHints`).
    static func hints(for model: ScreenModel, _ place: StatusHint.Place) -> [KeyHint] {
        KeyTable.statusHints(in: hintMode(model), tab: model.detail?.tab).filter { $0.place == place }.map { KeyHint($0.keys, $0.action) }
    }

    /// Every hint of the mode that has the keys, in line order: the ranked ones by priority,
    /// then the kept ones (`KeyTable.rankedHints`).
    static func defaultHints(_ model: ScreenModel) -> [KeyHint] {
        let mode = hintMode(model), tab = model.detail?.tab
        return KeyTable.rankedHints(in: mode, tab: tab).map { KeyHint($0.keys, $0.action) } + hints(for: model, .kept)
    }
}
