import QuakeStore

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
                                                    hints: status.message == nil ? status.hints ?? defaultHints(model) : nil)
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
        // `? help` is always there, whatever else has to give way to a message or a narrow pane,
        // except while a field has the keys: `?` and `L` type themselves there.
        let typing = typingMode(model) != nil
        let help = KeyHint("?", "help")
        let helpWidth = typing ? 0 : TextWidth.of(help.keys) + 1 + TextWidth.of(help.action)
        var hints = status.hints ?? defaultHints(model)
        var hx = start.x
        if let message = status.message {
            // A message cut at the pane's width says where to read it whole: the log (`L`).
            let log = KeyHint("L", "whole message")
            let logWidth = TextWidth.of(log.keys) + 1 + TextWidth.of(log.action) + 2
            let isCut = TextWidth.of(SafeText.sanitize(message.text)) > leftWidth - helpWidth - 2
            hx += buffer.put(message.text, at: start, style: message.isError ? .role(.error, [.bold]) : .role(.success),
                             maxWidth: max(0, leftWidth - helpWidth - 2 - (isCut ? logWidth : 0))) + 2
            hints = typing ? [] : isCut ? [log, help] : [help]
        } else if !typing, !hints.contains(where: { $0.keys == "?" }) {
            hints.append(help)
        }
        let widths = hints.map { TextWidth.of($0.keys) + 1 + TextWidth.of($0.action) + 2 }
        // Drop hints from the end, except the last (help), until the rest fits; a field's hints
        // from the end.
        var shown = Array(hints.indices)
        while shown.count > 1, shown.reduce(0, { $0 + widths[$1] }) - 2 > start.x + leftWidth - hx {
            shown.remove(at: typing ? shown.count - 1 : shown.count - 2)
        }
        for index in shown {
            let hint = hints[index]
            guard hx + widths[index] - 2 <= start.x + leftWidth else { break }
            hx += buffer.put(hint.keys, at: Point(x: hx, y: rect.y), style: .role(.accent, [.bold]))
            hx += buffer.put(" " + hint.action, at: Point(x: hx, y: rect.y), style: .role(.dim))
            hx += 2
        }
    }

    /// `importing ▕████░░░░▏ 42%` or, without a total, `importing …`.
    static func progressText(_ progress: StatusProgress, width: Int) -> String {
        guard let fraction = progress.fraction else { return "\(progress.label) …" }
        let clamped = min(1, max(0, fraction))
        let filled = Int((clamped * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return "\(progress.label) ▕\(bar)▏ \(Int((clamped * 100).rounded(.down)))%"
    }

    /// The field that has the keys (`KeyMap.modes(for:)`'s order), where every printable key types.
    static func typingMode(_ model: ScreenModel) -> KeyMode? {
        if model.showsHelp || model.messageLog != nil { return nil }
        if model.commandPrompt != nil { return .commandLine }
        if model.detail?.notes.isEditing == true { return .notesEditor }
        return model.header.isSearching ? .search : nil
    }

    /// The hints that fit what the user is doing: while a field has the keys, the table's hints
    /// for it (`KeyTable.typingHints`).
    static func defaultHints(_ model: ScreenModel) -> [KeyHint] {
        if model.showsHelp { return [KeyHint("?", "close help"), KeyHint("Esc", "close")] }
        if let mode = typingMode(model) { return KeyTable.typingHints(mode).map { KeyHint($0.keys, $0.action) } }
        if let detail = model.detail {
            var hints = [KeyHint("Esc", "back"), KeyHint("Tab", "next tab"), KeyHint("1-3", "tabs")]
            if detail.tab == .notes { hints.append(KeyHint("e", "edit")) }
            return hints + [KeyHint("q", "quit"), KeyHint("?", "help")]
        }
        return [KeyHint("j/k", "move"), KeyHint("Enter", "open"), KeyHint("/", "search"), KeyHint("s", "sort"),
                KeyHint("space", "fold"), KeyHint("m", "min mag"), KeyHint("r", "refresh"), KeyHint("q", "quit"),
                KeyHint("?", "help")]
    }
}
