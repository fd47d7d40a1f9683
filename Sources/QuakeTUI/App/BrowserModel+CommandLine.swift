import Foundation
import QuakeStore

/// The `:` command line while it has focus: its line (text and cursor, edited as the search
/// field's is), and which history entry ↑/↓ reached (nil: the line being typed).
public struct CommandPrompt: Equatable, Sendable {
    public var line: LineEditor
    public var historyIndex: Int?
    /// The line being typed, kept while ↑ shows older ones.
    public var typed = ""

    public init(text: String = "", cursor: Int? = nil) {
        line = LineEditor(text: text, cursor: cursor)
    }

    /// The text; setting it puts the cursor at its end.
    public var text: String {
        get { line.text }
        set { line = LineEditor(text: newValue) }
    }

    /// Where typing inserts, in characters (`ContentView.commandLine`'s `cursor`).
    public var cursor: Int {
        get { line.cursor }
        set { line = LineEditor(text: line.text, cursor: newValue) }
    }

    /// Inserts `inserted` at the cursor, which moves past it.
    mutating func insert(_ inserted: String) {
        line.insert(inserted)
        historyIndex = nil
    }

    /// One editing key (`KeyTable.lineEditing`); an edit that changes the text leaves the history.
    mutating func edit(_ edit: LineEdit) {
        if line.apply(edit) { historyIndex = nil }
    }
}

/// The `:` command line (k9s style): filters as `RowFilter`s on the fetch, a history kept in the
/// scene (`ContentView.commandHistory`), and errors that say what the line accepts.
extension BrowserModel {
    /// Command lines kept in the history.
    static let commandHistoryLimit = 50

    func updateCommandLine(_ action: Action) throws -> [Effect] {
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
        case .completeCommand:
            guard let prompt = state.commandLine, let completed = FilterCommand.complete(prompt.text) else { break }
            state.commandLine?.text = completed
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
            // A type filter waits for the store's types (`Effect.readEventTypes`): one no quake has is refused.
            if case .success(.filter("type", _, _)) = parse(line) { return [.readEventTypes(command: line)] }
            try run(line)
        case .eventTypesRead(let line, let types):
            if case .success(.filter("type", _, .eventType(let type, _))) = parse(line),
               let error = FilterCommand.unknownType(type, among: types) {
                state.status.message = error.message
                state.status.isError = true
                break
            }
            try run(line)
        default: break
        }
        return []
    }

    private func parse(_ line: String) -> Result<FilterCommand, FilterCommandError> {
        FilterCommand.parse(line, now: Int64(state.now.timeIntervalSince1970 * 1000), timeZone: state.settings.resolvedTimeZone)
    }

    private func run(_ line: String) throws {
        let now = Int64(state.now.timeIntervalSince1970 * 1000)
        switch parse(line) {
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
        state.status.message = state.filters.isEmpty
            ? "No filters: \(CountFormat.quakes(results.count))"
            : "Filters \(state.filters.joined(separator: " · ")): \(CountFormat.quakes(results.count)); :clear removes them"
    }

    /// Refetches with the row filters of `state.filters`, keeping the selection where it can.
    func applyFilters(now: Int64) throws {
        state.rowFilters = FilterCommand.rowFilters(state.filters, now: now, timeZone: state.settings.resolvedTimeZone)
        try refetchKeepingSelection()
    }
}
