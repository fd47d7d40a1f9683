import Foundation
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// The frame the browser draws, built by the browser's own `BrowserModel.screenModel` and
/// rendered into a cell buffer, so the benchmark times model + read + render without a terminal
/// (the terminal-driven figures come from `TerminalBench`). Only the visible rows are read.
enum BenchScreen {
    static let size = Size(columns: 160, rows: 48)
    /// A fixed clock: relative times then do not depend on when the benchmark runs.
    static let now: Int64 = 1_767_225_600_000

    static func frame(_ model: BrowserModel, container: PersistentContainer) throws -> CellBuffer {
        Screen.render(try screenModel(model, container: container))
    }

    static func screenModel(_ model: BrowserModel, container: PersistentContainer) throws -> ScreenModel {
        try model.screenModel(FrameContext(now: now, isLive: true, localTimeZone: TimeZone(identifier: "UTC")!))
    }
}
