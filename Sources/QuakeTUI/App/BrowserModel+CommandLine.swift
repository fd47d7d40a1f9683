import Foundation
import QuakeStore

/// The `:` command line while it has focus: its text, and which history entry ↑/↓ reached
/// (nil: the line being typed).
public struct CommandPrompt: Equatable, Sendable {
    public var text = "" {
        didSet { cursor = min(max(0, cursor), text.count) }
    }
    /// Where typing inserts, in characters (`ContentView.commandLine`'s `cursor`).
    public var cursor = 0
    public var historyIndex: Int?
    /// The line being typed, kept while ↑ shows older ones.
    public var typed = ""

    public init(text: String = "", cursor: Int? = nil) {
        self.text = text
        self.cursor = min(max(0, cursor ?? text.count), text.count)
    }

    /// Inserts `inserted` at the cursor, which moves past it.
    mutating func insert(_ inserted: String) {
        var characters = Array(text)
        let at = min(max(0, cursor), characters.count)
        characters.insert(contentsOf: inserted, at: at)
        text = String(characters)
        cursor = at + inserted.count
        historyIndex = nil
    }

    /// ← → Home End move the cursor, Delete removes the character under it; Backspace the one before.
    mutating func edit(_ key: Key) {
        var characters = Array(text)
        switch key {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .delete where cursor < characters.count:
            characters.remove(at: cursor)
            text = String(characters)
            historyIndex = nil
        case .backspace where cursor > 0:
            characters.remove(at: cursor - 1)
            cursor -= 1
            text = String(characters)
            historyIndex = nil
        default: break
        }
    }
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
            state.commandLine?.insert(text)
        case .commandEdit(let key):
            state.commandLine?.edit(key)
        case .commandBackspace:
            guard var prompt = state.commandLine else { break }
            if prompt.text.isEmpty { state.commandLine = nil; break }
            prompt.edit(.backspace)
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
            prompt.cursor = prompt.text.count
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
        let now = Int64(state.now.timeIntervalSince1970 * 1000)
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
