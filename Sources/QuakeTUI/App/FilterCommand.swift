import Foundation
import QuakeStore

/// The `:` command line's commands (k9s style): richer filters than the search field, each a
/// `RowFilter` so live merges keep the list exact. A filter replaces an earlier one of its kind;
/// the active ones are the scene key `ContentView.filters`, in their canonical text.
///
/// ```
/// :depth 0-70      :since 24h      :time 2025-01-01..2025-02-01
/// :type earthquake :type !quarry blast   :alert orange   :felt   :clear
/// ```
public enum FilterCommand: Equatable, Sendable {
    /// Add (or replace) a filter: its kind (`depth`, `time`, `type`, `alert`, `felt`), canonical
    /// text, and the row filter.
    case filter(kind: String, text: String, RowFilter)
    /// Remove every filter (`clear`), or those of one kind (`clear depth`).
    case clear(kind: String?)

    /// What the command line accepts, for the help, the README and unknown commands.
    public static let usage = ":depth 0-70, :since 24h (m h d w), :time 2025-01-01..2025-02-01, :type earthquake, "
        + ":type !quarry blast, :alert orange, :felt, :clear"

    public static let kinds = ["depth", "time", "type", "alert", "felt"]

    /// Parses one command line; `now` (ms since the epoch) anchors `since`. The error says what
    /// was wrong and what is accepted.
    public static func parse(_ line: String, now: Int64) -> Result<FilterCommand, FilterCommandError> {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let name = String(trimmed.prefix { !$0.isWhitespace }).lowercased()
        let argument = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        func fail(_ text: String) -> Result<FilterCommand, FilterCommandError> { .failure(FilterCommandError(text)) }
        switch name {
        case "depth":
            let parts = argument.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                .map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], low <= high, low.isFinite, high.isFinite else {
                return fail("depth takes a range in km, low-high: :depth 0-70")
            }
            let text = "depth \(format(low))-\(format(high))"
            return .success(.filter(kind: "depth", text: text, .depth(low...high)))
        case "since":
            guard let span = duration(argument) else { return fail("since takes a span: :since 30m, 24h, 7d or 2w") }
            return .success(.filter(kind: "time", text: "since \(argument.lowercased())", .time(from: now - span, until: nil)))
        case "time":
            let parts = argument.components(separatedBy: "..")
            guard parts.count == 2, let from = date(parts[0]), let until = date(parts[1]), from < until else {
                return fail("time takes FROM..TO in UTC, the end excluded: :time 2025-01-01..2025-02-01")
            }
            return .success(.filter(kind: "time", text: "time \(parts[0])..\(parts[1])", .time(from: from, until: until)))
        case "type":
            let excluded = argument.hasPrefix("!")
            let type = (excluded ? String(argument.dropFirst()) : argument).trimmingCharacters(in: .whitespaces)
            guard !type.isEmpty else { return fail("type takes an event type, ! to hide it: :type earthquake, :type !quarry blast") }
            return .success(.filter(kind: "type", text: "type \(excluded ? "!" : "")\(type.lowercased())",
                                    .eventType(type, excluded: excluded)))
        case "alert":
            let level = argument.lowercased()
            guard RowFilter.alertLevels.contains(level) else {
                return fail("alert takes a PAGER level, the lowest shown: :alert green, yellow, orange or red")
            }
            return .success(.filter(kind: "alert", text: "alert \(level)", .alert(atLeast: level)))
        case "felt":
            guard argument.isEmpty else { return fail("felt takes nothing: :felt") }
            return .success(.filter(kind: "felt", text: "felt", .felt))
        case "clear":
            let kind = argument.lowercased() == "since" ? "time" : argument.lowercased()
            guard kind.isEmpty || kinds.contains(kind) else { return fail("clear takes nothing or a kind: :clear, :clear depth") }
            return .success(.clear(kind: kind.isEmpty ? nil : kind))
        case "":
            return fail("Type a command after the colon: \(usage)")
        default:
            return fail("Unknown command “\(name)”; the command line accepts \(usage)")
        }
    }

    /// The row filters of saved filter texts (`ContentView.filters`); a text that no longer
    /// parses is dropped. `since` is measured from `now`.
    public static func rowFilters(_ texts: [String], now: Int64) -> [RowFilter] {
        texts.compactMap { text in
            if case .success(.filter(_, _, let filter)) = parse(text, now: now) { filter } else { nil }
        }
    }

    /// The kind of a saved filter text.
    static func kind(of text: String) -> String {
        let name = String(text.prefix { !$0.isWhitespace })
        return name == "since" ? "time" : name
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    /// `30m`, `24h`, `7d`, `2w` in ms.
    private static func duration(_ text: String) -> Int64? {
        let text = text.lowercased()
        guard let unit = text.last, let amount = Int64(text.dropLast()), amount > 0, amount < 100_000 else { return nil }
        let minute: Int64 = 60_000
        switch unit {
        case "m": return amount * minute
        case "h": return amount * 60 * minute
        case "d": return amount * 1_440 * minute
        case "w": return amount * 10_080 * minute
        default: return nil
        }
    }

    /// `2025-01-01` or `2025-01-01T06:30` (UTC) in ms since the epoch.
    private static func date(_ text: String) -> Int64? {
        let text = text.trimmingCharacters(in: .whitespaces)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970 * 1000) }
        }
        return nil
    }
}

/// Why a command line was refused, as one sentence that says what is accepted.
public struct FilterCommandError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
