import Foundation
import QuakeModel

/// The `:` command line while it has focus: its line (text and cursor, edited as the search
/// field's is), and which history entry ↑/↓ reached (nil: the line being typed).
public struct CommandPrompt: Equatable, Sendable {
    public var line: LineEditor
    public var historyIndex: Int?
    /// The line being typed, kept while ↑ shows older ones.
    public var typed = ""
    /// What the line says of its own input (a paste cut to its capacity), drawn in place of its
    /// hints until the next key; not scene state. Other messages stay behind the line.
    public var notice: String?

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

    /// Inserts what fits of `inserted` at the cursor, which moves past it; returns the
    /// characters left out (`LineEditor.capacity`).
    @discardableResult
    mutating func insert(_ inserted: String) -> Int {
        historyIndex = nil
        return line.insert(inserted)
    }

    /// One editing key (`KeyTable.lineEditing`); an edit that changes the text leaves the history.
    mutating func edit(_ edit: LineEdit) {
        if line.apply(edit) { historyIndex = nil }
    }
}

/// The `:` command line (k9s style): filters as `RowFilter`s on the fetch, a history kept in the
/// scene (`ContentView.commandHistory`), and errors that say what the line accepts.
extension BrowserState {
    /// Command lines kept in the history.
    static let commandHistoryLimit = 50

    mutating func updateCommandLine(_ action: Action) -> [Effect] {
        switch action {
        case .beginCommand:
            self.commandLine = CommandPrompt()
        case .commandInput(let text):
            sayLeftOut(self.commandLine?.insert(text) ?? 0, from: "typed", field: Self.commandLineField)
        case .commandEdit(let key):
            self.commandLine?.edit(key)
        case .commandBackspace:
            guard var prompt = self.commandLine else { break }
            if prompt.text.isEmpty { self.commandLine = nil; break }
            prompt.edit(.backspace)
            self.commandLine = prompt
        case .completeCommand:
            guard let prompt = self.commandLine, let completed = FilterCommand.complete(prompt.text) else { break }
            self.commandLine?.text = completed
        case .cancelCommand:
            self.commandLine = nil
        case .commandHistory(let step):
            guard var prompt = self.commandLine, !self.commandHistory.isEmpty else { break }
            if prompt.historyIndex == nil { prompt.typed = prompt.text }
            let index = (prompt.historyIndex ?? self.commandHistory.count) + step
            if index >= self.commandHistory.count {
                prompt.historyIndex = nil
                prompt.text = prompt.typed
            } else {
                prompt.historyIndex = max(0, index)
                prompt.text = self.commandHistory[max(0, index)]
            }
            prompt.cursor = prompt.text.count
            self.commandLine = prompt
        case .runCommand:
            guard let prompt = self.commandLine else { break }
            self.commandLine = nil
            let line = prompt.text.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { break }
            if self.commandHistory.last != line {
                self.commandHistory.append(line)
                self.commandHistory.removeFirst(max(0, self.commandHistory.count - Self.commandHistoryLimit))
            }
            // A type or magnitude type filter waits for the store's (`Effect.readStoredValues`):
            // one no quake has is refused.
            if case .success(.filter(_, _, let filter)) = parse(line), let values = StoredValues.checked(by: filter) {
                return [.readStoredValues(values, command: line)]
            }
            return run(line)
        case .storedValuesRead(let values, let line, let stored):
            if case .success(.filter(_, _, let filter)) = parse(line), let value = values.value(of: filter),
               let error = FilterCommand.unknown(value, of: values, among: stored) {
                self.status.message = error.message
                self.status.isError = true
                break
            }
            return run(line)
        default: break
        }
        return []
    }

    private func parse(_ line: String) -> Result<FilterCommand, FilterCommandError> {
        FilterCommand.parse(line, now: Int64(self.now.timeIntervalSince1970 * 1000), timeZone: self.settings.resolvedTimeZone,
                            home: self.settings.home)
    }

    private mutating func run(_ line: String) -> [Effect] {
        let now = Int64(self.now.timeIntervalSince1970 * 1000)
        switch parse(line) {
        case .failure(let error):
            self.status.message = error.message
            self.status.isError = true
            return []
        case .success(.filter(let kind, let text, _)):
            self.filters.removeAll { FilterCommand.kind(of: $0) == kind }
            self.filters.append(text)
        case .success(.clear(let kind)):
            self.filters.removeAll { kind == nil || FilterCommand.kind(of: $0) == kind }
        case .success(.completeness(let method)):
            self.statistics.method = method
            self.status.message = "Mc by \(method.rawValue) in the statistics (=)"
            self.status.isError = false
            return []
        case .success(.sort(let order, let ascending)):
            // Distance and intensity need a point to measure from, as `s` skips them without one.
            if order.needsHome, self.settings.home == nil {
                self.status.message = "Sorting by \(order.rawValue) needs a home: press @ on a quake to set it there"
                self.status.isError = true
                return []
            }
            self.sort = QuakeSortDescriptor(order, ascending: ascending)
            return refetchKeepingSelection()
        case .success(.help):
            self.helpVisible = true
            self.helpOffset = 0
            return []
        case .success(.quit):
            return [.quit]
        case .success(.declustering(let method)):
            setDeclustering(method)
            self.status.message = method.map { "The list and its statistics (=) of the background: declustered by \($0.title)" }
                ?? "The list and its statistics (=) of every quake"
            self.status.isError = false
            return []
        }
        self.rowFilters = FilterCommand.rowFilters(self.filters, now: now, timeZone: self.settings.resolvedTimeZone,
                                                   home: self.settings.home)
        return queryResults(.configure(self.request), purpose: .applyFilters(line: keptLine))
    }

    /// What the status line says once filters are applied: them, and how many quakes pass, as
    /// the header counts them (`counting…` while it does); said again with every answer of the
    /// results until a key clears it (`StatusState.filterReport`).
    mutating func reportFilters() {
        let count = results.countedTotal.map(CountFormat.quakes) ?? "counting…"
        // Without filters the count is not the store's when the search, `m` or near-home narrow it.
        let clauses = narrowing.map(\.clause)
        let still = clauses.isEmpty ? "" : "; the list still shows only quakes that \(clauses.joined(separator: " and "))"
        let report = self.filters.isEmpty
            ? "No filters: \(count)\(still)"
            : "Filters \(self.filters.joined(separator: " · ")): \(count); :clear removes them"
        self.status.message = report
        self.status.filterReport = report
    }
}
