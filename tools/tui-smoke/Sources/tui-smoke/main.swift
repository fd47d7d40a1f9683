// A throwaway driver for the terminal backend: fixed quakes, a few keys, and a status line
// that names the last key and the colour depth, for tools/tui-smoke/run.sh to drive in tmux.
import Foundation
import QuakeStore
import QuakeTUI

let now = Int64(Date().timeIntervalSince1970 * 1000)
let hour: Int64 = 3_600_000
let quakes = [
    QuakeLine(code: "us7000m1a1", magnitude: 6.4, place: "45 km SSE of Hualien City, Taiwan", time: now - 2 * hour, depth: 12, hasNotes: true),
    QuakeLine(code: "ak024abc12", magnitude: 2.1, place: "12 km NW of Anchorage, Alaska", time: now - 5 * hour, depth: 40),
    QuakeLine(code: "jp2024tok1", magnitude: 4.6, place: "東京都の南東 20 km, Japan 🌋", time: now - 9 * hour, depth: 50),
    QuakeLine(code: "evil", magnitude: 3.0, place: "Evil\u{1B}]0;pwned\u{07} \u{1B}[2JPlace", time: now - 10 * hour),
]
let records = [
    QuakeRecord(code: "us7000m1a1", magnitude: 6.4, place: "45 km SSE of Hualien City, Taiwan", time: now - 2 * hour, updated: now, latitude: 23.59, longitude: 121.73),
    QuakeRecord(code: "ak024abc12", magnitude: 2.1, place: "12 km NW of Anchorage, Alaska", time: now - 5 * hour, updated: now, latitude: 61.3, longitude: -150),
    QuakeRecord(code: "jp2024tok1", magnitude: 4.6, place: "東京都の南東 20 km, Japan 🌋", time: now - 9 * hour, updated: now, latitude: 35.5, longitude: 139.9),
    QuakeRecord(code: "evil", magnitude: 3.0, place: "Evil", time: now - 10 * hour, updated: now, latitude: -33, longitude: -70),
]
var lines: [ListLine] = [.section(SectionLine(id: "d", title: "Today", count: 4))] + quakes.map { .quake($0) }
var selected = 1
var detail: DetailModel?
var lastKey = "none"

@MainActor func loop() throws -> String {
    try Terminal.run { terminal in
        while true {
            var model = ScreenModel(size: terminal.size, header: HeaderModel(count: 4, sceneID: "smoke"),
                                    list: ListModel(lines: lines, selectedIndex: selected), detail: detail,
                                    status: StatusModel(isLive: true, message: StatusMessage("key \(lastKey) depth \(terminal.colorDepth)")),
                                    display: DisplaySettings(now: now))
            model.showsHelp = lastKey == "?"
            var buffer = CellBuffer(size: terminal.size)
            Screen.render(model, into: &buffer)
            try terminal.present(buffer)
            guard let key = terminal.readKey(timeoutMilliseconds: 500) else { continue }
            lastKey = key.description
            switch key {
            case .character("q"): return "quit"
            case .terminate(let signal): return "signal \(signal)"
            case .character("j"), .down: selected = min(lines.count - 1, selected + 1)
            case .character("k"), .up: selected = max(1, selected - 1)
            case .enter: detail = DetailModel(record: records[selected - 1])
            case .escape: detail = nil
            case .control("z"): terminal.suspend()
            case .tab: if var d = detail { d.tab = DetailTab.allCases[(DetailTab.allCases.firstIndex(of: d.tab)! + 1) % 3]; detail = d }
            case .control("l"): terminal.redraw()
            case .click(let x, let y):
                switch Screen.hitTest(model, x: x, y: y) {
                case .listLine(let i) where i > 0: selected = i
                case .tab(let t): detail?.tab = t
                default: break
                }
            default: break
            }
        }
    }
}
let result = try MainActor.assumeIsolated { try loop() }
print("smoke exited: \(result)")
