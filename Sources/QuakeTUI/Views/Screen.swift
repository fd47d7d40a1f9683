/// Draws a whole frame from a `ScreenModel`: header, list, detail, status line, help.
///
/// ```swift
/// var buffer = CellBuffer(size: model.size)
/// Screen.render(model, into: &buffer)
/// try terminal.present(buffer)
/// ```
public enum Screen {
    /// Draws `model` into `buffer`, clearing it first; the buffer should be `model.size`.
    public static func render(_ model: ScreenModel, into buffer: inout CellBuffer) {
        buffer.fill(buffer.bounds)
        let layout = ScreenLayout(model)
        if layout.isTooSmall {
            renderTooSmall(size: model.size, into: &buffer)
            return
        }
        HeaderView.render(model.header, in: layout.header, into: &buffer)
        if let list = layout.list {
            let sort = ListView.SortMark(order: model.header.sortOrder, ascending: model.header.ascending)
            ListView.render(model.list, display: model.display, in: list, focused: model.detail == nil,
                            sort: sort, columnHeaders: layout.columnHeaders, into: &buffer)
        }
        if let separator = layout.separator {
            for y in separator.y..<separator.maxY {
                buffer.put("│", at: Point(x: separator.x, y: y), style: .role(.border))
            }
        }
        if let statistics = model.statistics, let rect = layout.detail {
            StatsView.render(statistics, display: model.display, in: rect, into: &buffer)
        } else if let sequence = model.sequence, let rect = layout.detail {
            SequenceView.render(sequence, display: model.display, in: rect, into: &buffer)
        } else if let detail = model.detail, let rect = layout.detail {
            DetailView.render(detail, display: model.display, layout: layout, in: rect, into: &buffer)
        }
        StatusLineView.render(model, in: layout.status, into: &buffer)
        if let prompt = model.commandPrompt {
            renderCommandPrompt(prompt, cursor: model.commandCursor, message: model.commandNotice, in: layout.status,
                                into: &buffer)
        }
        if model.showsHelp {
            HelpOverlay.render(in: buffer.bounds, offset: model.helpOffset, into: &buffer)
        }
        if let log = model.messageLog {
            MessageLogOverlay.render(log, offset: model.messageLogOffset, zone: model.display.zone,
                                     in: buffer.bounds, into: &buffer)
        }
    }

    /// The largest useful `ScreenModel.helpOffset` for a terminal size (0 when all keys fit).
    public static func maximumHelpOffset(for size: Size) -> Int {
        max(0, HelpOverlay.lines.count - HelpOverlay.visibleEntries(in: Rect(size)))
    }

    /// A new buffer the size of the model with the frame drawn.
    public static func render(_ model: ScreenModel) -> CellBuffer {
        var buffer = CellBuffer(size: model.size)
        render(model, into: &buffer)
        return buffer
    }

    /// The message shown instead of the browser below `ScreenLayout.minimumSize`.
    static func renderTooSmall(size: Size, into buffer: inout CellBuffer) {
        let minimum = ScreenLayout.minimumSize
        let need = "need \(minimum.columns)×\(minimum.rows)", now = "now \(size.columns)×\(size.rows)"
        // On one line where it fits; else the sizes on lines of their own, so they are never cut.
        let whole = "Terminal too small (\(need))"
        let lines = TextWidth.of(whole) <= size.columns ? [whole, now] : ["Terminal too small", need, now]
        let top = max(0, (size.rows - lines.count) / 2)
        for (index, line) in lines.enumerated() where top + index < size.rows {
            let width = min(TextWidth.of(line), size.columns)
            buffer.put(line, at: Point(x: max(0, (size.columns - width) / 2), y: top + index),
                       style: index == 0 ? .role(.warning, [.bold]) : .role(.dim))
        }
    }
}
