import Foundation
import QuakeStore

/// The `:` command line while it has focus: its text, and which history entry ↑/↓ reached
/// (nil: the line being typed).
public struct CommandPrompt: Equatable, Sendable {
    public var text = ""
    public var historyIndex: Int?
    /// The line being typed, kept while ↑ shows older ones.
    public var typed = ""

    public init() {}
}

/// The `:` command line (k9s style): filters as `RowFilter`s on the fetch, a history kept in the
/// scene (`ContentView.commandHistory`), and errors that say what the line accepts.
extension BrowserModel {
    /// Command lines kept in the history.
    static let commandHistoryLimit = 50

    func updateCommandLine(_ action: Action) throws {
        switch action {
        case .beginCommand:
            state.commandLine = CommandPrompt()
        case .commandInput(let text):
            state.commandLine?.text += text
            state.commandLine?.historyIndex = nil
        case .commandBackspace:
            guard var prompt = state.commandLine else { break }
            if prompt.text.isEmpty { state.commandLine = nil; break }
            prompt.text.removeLast()
            prompt.historyIndex = nil
            state.commandLine = prompt
        case .cancelCommand:
            state.commandLine = nil
        case .commandHistory(let step):
            guard var prompt = state.commandLine, !state.commandHistory.isEmpty else { break }
            if prompt.historyIndex == nil { prompt.typed = prompt.text }
            let index = (prompt.historyIndex ?? state.commandHistory.count) + step
            if index >= state.commandHistory.count {
                prompt.historyIndex = nil
                prompt.text = prompt.typed
            } else {
                prompt.historyIndex = max(0, index)
                prompt.text = state.commandHistory[max(0, index)]
            }
            state.commandLine = prompt
        case .runCommand:
            guard let prompt = state.commandLine else { break }
            state.commandLine = nil
            let line = prompt.text.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { break }
            if state.commandHistory.last != line {
                state.commandHistory.append(line)
                state.commandHistory.removeFirst(max(0, state.commandHistory.count - Self.commandHistoryLimit))
            }
            try run(line)
        default: break
        }
    }

    private func run(_ line: String) throws {
        let now = Int64(clock().timeIntervalSince1970 * 1000)
        switch FilterCommand.parse(line, now: now) {
        case .failure(let error):
            state.status.message = error.message
            state.status.isError = true
            return
        case .success(.filter(let kind, let text, _)):
            state.filters.removeAll { FilterCommand.kind(of: $0) == kind }
            state.filters.append(text)
        case .success(.clear(let kind)):
            state.filters.removeAll { kind == nil || FilterCommand.kind(of: $0) == kind }
        }
        try applyFilters(now: now)
        let noun = results.count == 1 ? "quake" : "quakes"
        state.status.message = state.filters.isEmpty
            ? "No filters: \(QuakeFormat.count(results.count)) \(noun)"
            : "Filters \(state.filters.joined(separator: " · ")): \(QuakeFormat.count(results.count)) \(noun); :clear removes them"
    }

    /// Refetches with the row filters of `state.filters`, keeping the selection where it can.
    func applyFilters(now: Int64) throws {
        state.rowFilters = FilterCommand.rowFilters(state.filters, now: now)
        try refetchKeepingSelection()
    }
}
