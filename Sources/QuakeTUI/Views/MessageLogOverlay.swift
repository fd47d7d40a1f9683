import Foundation
import QuakeModel

/// The message log (`L`): every one-shot message of the session, newest first, each with its
/// time and wrapped whole to the box's width, in a box over the screen. `j`/`k` scroll it.
enum MessageLogOverlay {
    /// One wrapped line of the log: its text, whether it belongs to an error, whether it starts an entry.
    struct Line: Equatable {
        var text: String
        var isError: Bool
    }

    /// The box: the whole body, between the header and the status line (`ScreenLayout.overlayBox`).
    static func box(in bounds: Rect) -> Rect {
        ScreenLayout.overlayBox(width: bounds.width, height: bounds.height, in: bounds)
    }

    /// The log's lines for a box of `width` inner columns: `HH:mm:ss  text`, continuation lines
    /// indented under the text.
    static func lines(_ entries: [MessageLog.Entry], width: Int, zone: TimeZone) -> [Line] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var lines: [Line] = []
        for entry in entries.reversed() {
            let parts = calendar.dateComponents([.hour, .minute, .second], from: entry.time)
            let stamp = String(format: "%02d:%02d:%02d  ", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
            let indent = String(repeating: " ", count: stamp.count)
            let characters = Array(SafeText.sanitize(entry.text))
            let wrapped = NotesView.wrap(characters, width: max(1, width - stamp.count))
            for (index, line) in wrapped.enumerated() {
                let text = String(characters[line.range]).replacingOccurrences(of: "\n", with: "")
                lines.append(Line(text: (index == 0 ? stamp : indent) + text, isError: entry.isError))
            }
        }
        return lines
    }

    /// How many lines fit, and so how far the log can scroll.
    static func maximumOffset(_ entries: [MessageLog.Entry], in bounds: Rect, zone: TimeZone) -> Int {
        let inner = box(in: bounds).inset(dx: 2, dy: 1)
        return max(0, lines(entries, width: inner.width, zone: zone).count - inner.height)
    }

    static func render(_ entries: [MessageLog.Entry], offset: Int, zone: TimeZone, in bounds: Rect,
                       into buffer: inout CellBuffer) {
        let box = box(in: bounds)
        guard box.width >= 10, box.height >= 3 else { return }
        HelpOverlay.drawBox(box, title: " Messages, newest first ", into: &buffer)
        let inner = box.inset(dx: 2, dy: 1)
        let all = lines(entries, width: inner.width, zone: zone)
        if all.isEmpty {
            buffer.put("No messages yet.", at: Point(x: inner.x, y: inner.y), style: .role(.dim), maxWidth: inner.width)
        }
        let first = min(max(0, offset), max(0, all.count - inner.height))
        for (row, line) in all.dropFirst(first).prefix(inner.height).enumerated() {
            buffer.put(line.text, at: Point(x: inner.x, y: inner.y + row),
                       style: line.isError ? .role(.error) : .plain, maxWidth: inner.width)
        }
        let more = first + inner.height < all.count
        let footer = more ? " ↓ older: j/k  Esc closes " : " L or Esc closes "
        buffer.put(footer, at: Point(x: box.x + 2, y: box.maxY - 1), style: .role(more ? .accent : .dim),
                   maxWidth: box.width - 4)
    }
}
