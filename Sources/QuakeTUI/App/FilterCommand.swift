import Foundation
import QuakeModel

/// The `:` command line's commands (k9s style): richer filters than the search field, each a
/// `RowFilter` so live merges keep the list exact. A filter replaces an earlier one of its kind;
/// the active ones are the scene key `ContentView.filters`, in their canonical text.
///
/// ```
/// :depth 0-70      :mag 4-6   :mag 5 (or 5+)   :since 24h      :time 2025-01-01..2025-02-01
/// :type earthquake :type !quarry blast   :alert orange   :felt   :intensity 4+   :magtype mww   :revised   :clear
/// :mc gft95   :decluster gk (reasenberg, off)
/// ```
public enum FilterCommand: Equatable, Sendable {
    /// Add (or replace) a filter: its kind (`depth`, `mag`, `time`, `type`, `alert`, `felt`), canonical
    /// text, and the row filter.
    case filter(kind: String, text: String, RowFilter)
    /// Remove every filter (`clear`), or those of one kind (`clear depth`).
    case clear(kind: String?)
    /// How the statistics view estimates `Mc` (`:mc gft95`): no filter, the list stays.
    case completeness(CompletenessMethod)
    /// `:sort mag` (`desc`, `asc`): the order `s` cycles through, named (issue 56.8); the
    /// direction the order's own when not given.
    case sort(QuakeSortOrder, ascending: Bool?)
    /// `:help`: the help overlay, as `?` opens it.
    case help
    /// `:q` (`:quit`): quit, as `q` does.
    case quit
    /// The list and its statistics view of the background alone, declustered by a method
    /// (`:decluster gk`), or of every quake (`:decluster off`); kept in the scene
    /// (`ContentView.declustering`), not in `ContentView.filters`.
    case declustering(Declustering?)

    /// What the command line accepts, for the help, the README and unknown commands.
    /// (Short enough that an unknown command's sentence, this with the name typed, stays whole in
    /// the message log a scene keeps: `SceneKeys.messageLogTextLimit`, 300 characters.)
    public static let usage = ":depth 0-70, :mag 4-6 (5: 5 and up), :since 24h, :time 2025-01-01 (or FROM..TO), "
        + ":type earthquake (!type hides), :alert orange, :felt, :intensity 4+, :magtype mww, :revised, :clear, "
        + ":mc gft95, :decluster gk, :sort mag, :help, :q"

    public static let kinds = ["depth", "mag", "time", "type", "alert", "felt", "intensity", "magtype", "revised"]

    /// The commands' names, for Tab, "did you mean" and the `?` help's `:` line (`KeyTable.commandsHelp`).
    public static let names = ["depth", "mag", "since", "time", "type", "alert", "felt", "intensity", "magtype", "revised", "clear", "mc",
                               "decluster", "sort", "help", "quit"]

    /// The line with its command name completed (Tab): the one name it starts, and a space;
    /// several names' common start; nil when there is nothing to add (an argument is being typed).
    public static func complete(_ line: String) -> String? {
        let typed = line.drop { $0 == " " }
        guard !typed.contains(" ") else { return nil }
        let matching = names.filter { $0.hasPrefix(typed.lowercased()) }
        guard let first = matching.first else { return nil }
        if matching.count == 1 { return first + " " }
        var common = first
        for name in matching.dropFirst() { while !name.hasPrefix(common) { common.removeLast() } }
        return common.count > typed.count ? common : nil
    }

    /// Why a range of magnitudes or depths holds nothing as shown, or nil: both are shown and
    /// tested to a tenth (`Tenths`), so `:mag 4.01-4.04` and `:depth 10.01-10.04` lie between two
    /// shown values; the error names the nearest ones.
    static func betweenTenths(_ range: ClosedRange<Double>, name: String, text: String, spelled: String,
                              unit: String) -> String? {
        let bounds = Tenths.storedBounds(shown: range)
        guard bounds.low > bounds.high else { return nil }
        let below = Tenths.text(Tenths.lowestStored(shownAtLeast: range.lowerBound).nextDown)
        let above = Tenths.text(Tenths.lowestStored(shownAtLeast: range.lowerBound))
        let what = name == "mag" ? "magnitude" : "depth"
        return "\(name) \(text) holds no \(what) as shown: \(what)s are shown and tested to a tenth\(unit.isEmpty ? "" : " of a km"), "
            + "and the nearest are \(below)\(unit) and \(above)\(unit) (\(spelled) \(above)-\(above))"
    }

    /// Parses one command line; `now` (ms since the epoch) anchors `since`, dates are days in
    /// `timeZone` (the list's), and `:intensity` measures from `home`. The error says what was
    /// wrong and what is accepted, its examples spelled by `spell` (`:depth`, or a command line
    /// tool's `--depth`: `quaketui list` parses its filter flags here, issue 56.11).
    public static func parse(_ line: String, now: Int64, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
                             home: GeoPoint? = nil,
                             spell: (String) -> String = { ":" + $0 }) -> Result<FilterCommand, FilterCommandError> {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let name = String(trimmed.prefix { !$0.isWhitespace }).lowercased()
        let argument = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        func fail(_ text: String) -> Result<FilterCommand, FilterCommandError> { .failure(FilterCommandError(text)) }
        switch name {
        case "depth":
            if let inexact = inexact(argument, name: name, example: "a depth in km such as 70") { return fail(inexact) }
            if let reversed = reversed(argument, name: name, spelled: spell(name)) { return fail(reversed) }
            guard let (range, text) = range(argument) else {
                return fail("depth takes a range in km, low-high or low+ (and deeper): \(spell("depth")) 0-70, \(spell("depth")) 300+")
            }
            if let empty = betweenTenths(range, name: name, text: text, spelled: spell(name), unit: " km") { return fail(empty) }
            return .success(.filter(kind: "depth", text: "depth \(text)", .depth(range)))
        case "mag":
            if let inexact = inexact(argument, name: name, example: "a magnitude such as 4.5") { return fail(inexact) }
            if let reversed = reversed(argument, name: name, spelled: spell(name)) { return fail(reversed) }
            // One magnitude is that magnitude and up (`:mag 4` is `:mag 4+`).
            let single = !argument.contains(where: \.isWhitespace) && (try? DecimalNumber.parse(argument).get()) != nil
            guard let (range, text) = range(argument) ?? (single ? range(argument + "+") : nil) else {
                return fail("mag takes a magnitude and up, or a range, low-high: \(spell("mag")) 4 (or 4+), \(spell("mag")) 4-6")
            }
            if let empty = betweenTenths(range, name: name, text: text, spelled: spell(name), unit: "") { return fail(empty) }
            return .success(.filter(kind: "mag", text: "mag \(text)", .magnitude(range)))
        case "since":
            guard let span = duration(argument) else { return fail("since takes a span: \(spell("since")) 30m, 24h, 7d or 2w") }
            return .success(.filter(kind: "time", text: "since \(argument.lowercased())", .time(from: now - span, until: nil)))
        case "time":
            let parts = argument.components(separatedBy: "..")
            if parts.count == 1, let day = date(argument, in: timeZone, dayOnly: true) {
                return .success(.filter(kind: "time", text: "time \(argument)", .time(from: day, until: nextDay(day, in: timeZone))))
            }
            // Both ends read, in the wrong order (or the same instant): said as `:mag 6-5` is.
            if parts.count == 2, let from = date(parts[0], in: timeZone), let until = date(parts[1], in: timeZone), from >= until {
                return fail("time \(parts[0])..\(parts[1]) is " + (from == until ? "empty: the end is excluded" : "reversed: the start must come before the end")
                            + " (\(spell("time")) \(from == until ? parts[0] + "..<a later time>" : parts[1] + ".." + parts[0]))")
            }
            guard parts.count == 2, let from = date(parts[0], in: timeZone), let until = date(parts[1], in: timeZone), from < until else {
                // A day that looks like one but is none says which part is wrong.
                let wrong = parts.lazy.compactMap(Self.impossibleDay).first.map { $0 + "; " } ?? ""
                return fail(wrong + "time takes a day or FROM..TO (the end excluded), in the list's time zone: "
                            + "\(spell("time")) 2025-01-01, \(spell("time")) 2025-01-01..2025-02-01")
            }
            return .success(.filter(kind: "time", text: "time \(parts[0])..\(parts[1])", .time(from: from, until: until)))
        case "type":
            let excluded = argument.hasPrefix("!")
            let type = (excluded ? String(argument.dropFirst()) : argument).trimmingCharacters(in: .whitespaces)
            guard !type.isEmpty else { return fail("type takes an event type, ! to hide it: \(spell("type")) earthquake, \(spell("type")) !quarry blast") }
            return .success(.filter(kind: "type", text: "type \(excluded ? "!" : "")\(type.lowercased())",
                                    .eventType(type, excluded: excluded)))
        case "alert":
            let level = argument.lowercased()
            guard RowFilter.alertLevels.contains(level) else {
                return fail("alert takes a PAGER level, the lowest shown: \(spell("alert")) green, yellow, orange or red")
            }
            return .success(.filter(kind: "alert", text: "alert \(level)", .alert(atLeast: level)))
        case "felt":
            guard argument.isEmpty else { return fail("felt takes nothing: \(spell("felt"))") }
            return .success(.filter(kind: "felt", text: "felt", .felt))
        case "revised":
            guard argument.isEmpty else { return fail("revised takes nothing: \(spell("revised"))") }
            return .success(.filter(kind: "revised", text: "revised", .revised))
        case "intensity":
            // `4`, `4+`, `IV`, `IV+`: that predicted intensity at home and stronger.
            let bare = argument.hasSuffix("+") ? String(argument.dropLast()).trimmingCharacters(in: .whitespaces) : argument
            guard let whole = FeltIntensity.parseWhole(bare) else {
                return fail("intensity takes a Modified Mercalli intensity, 1 to 10 or I to X, and stronger: \(spell("intensity")) 4+, \(spell("intensity")) VI")
            }
            guard let home else {
                return fail("intensity is predicted at home, and no home is set: press @ on a quake, or run 'quaketui config home LAT,LON'")
            }
            return .success(.filter(kind: "intensity", text: "intensity \(whole)+", .intensity(atLeast: whole, home: home)))
        case "magtype":
            let type = argument.lowercased()
            guard !type.isEmpty, !type.contains(where: \.isWhitespace) else {
                return fail("magtype takes one magnitude type (unknown for none): \(spell("magtype")) mww, \(spell("magtype")) ml")
            }
            return .success(.filter(kind: "magtype", text: "magtype \(type)", .magnitudeType(type)))
        case "decluster":
            let text = argument.lowercased()
            if text == "off" { return .success(.declustering(nil)) }
            guard let method = Declustering(rawValue: text) else {
                return fail("decluster takes a method for the list and its statistics: :decluster gk (Gardner–Knopoff), "
                            + ":decluster reasenberg, or :decluster off")
            }
            return .success(.declustering(method))
        case "mc":
            guard let method = CompletenessMethod(rawValue: argument.lowercased()) else {
                return fail("mc takes a method of Mc for the statistics (=): :mc maxc, :mc gft90, :mc gft95 or :mc mbs")
            }
            return .success(.completeness(method))
        case "sort":
            let words = argument.lowercased().split(separator: " ").map(String.init)
            let directions = ["asc": true, "ascending": true, "desc": false, "descending": false]
            let orders = "time, mag, region, depth, distance or intensity"
            guard (1...2).contains(words.count) else {
                return fail("sort takes an order and, if you like, a direction: :sort mag, :sort time asc (\(orders))")
            }
            guard let order = QuakeSortOrder(named: words[0]) else {
                let guess = Spelling.nearest(to: words[0], in: QuakeSortOrder.allCases.map(\.rawValue)).map { " Did you mean :sort \($0)?" } ?? ""
                return fail("“\(words[0])” is not an order.\(guess) :sort takes \(orders)")
            }
            guard words.count == 1 || directions[words[1]] != nil else {
                return fail("“\(words[1])” is not a direction: :sort \(order.rawValue) asc or :sort \(order.rawValue) desc")
            }
            return .success(.sort(order, ascending: words.count == 2 ? directions[words[1]] : nil))
        case "help":
            guard argument.isEmpty else { return fail("help takes nothing: :help (or ?)") }
            return .success(.help)
        case "q", "quit":
            guard argument.isEmpty else { return fail("q takes nothing: :q (or q)") }
            return .success(.quit)
        case "clear":
            let kind = argument.lowercased() == "since" ? "time" : argument.lowercased()
            guard kind.isEmpty || kinds.contains(kind) else { return fail("clear takes nothing or a kind: :clear, :clear depth") }
            return .success(.clear(kind: kind.isEmpty ? nil : kind))
        case "":
            return fail("Type a command after the colon: \(usage)")
        default:
            let guess = Spelling.nearest(to: name, in: names).map { " Did you mean :\($0)?" } ?? ""
            // A long word (a paste) is named by its start: the sentence stays whole in the log.
            let typed = name.count > 20 ? name.prefix(19) + "…" : name
            return fail("Unknown command “\(typed)”.\(guess) The command line accepts \(usage)")
        }
    }

    /// The row filters of saved filter texts (`ContentView.filters`); a text that no longer
    /// parses is dropped. `since` is measured from `now`, days are in `timeZone`.
    public static func rowFilters(_ texts: [String], now: Int64, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
                                  home: GeoPoint? = nil) -> [RowFilter] {
        texts.compactMap { text in
            if case .success(.filter(_, _, let filter)) = parse(text, now: now, timeZone: timeZone, home: home) { filter } else { nil }
        }
    }

    /// `rowFilters` (those of `texts`) with the day or days of a `:time` filter recomputed in
    /// `timeZone`: what the list filters when the user changes its zone, the day as typed, now a
    /// day of the zone the list shows. The other filters keep their ranges (`since 24h` stays
    /// measured from when it was run).
    public static func rowFilters(_ rowFilters: [RowFilter], of texts: [String], in timeZone: TimeZone) -> [RowFilter] {
        // One filter of the kind `time` at most (`:time` and `:since` replace each other), and
        // only `:time`'s depends on the zone.
        guard let text = texts.first(where: { $0.hasPrefix("time ") }),
              case .success(.filter(_, _, let days)) = parse(text, now: 0, timeZone: timeZone) else { return rowFilters }
        return rowFilters.map { if case .time = $0 { days } else { $0 } }
    }

    /// Why `:type TYPE` or `:magtype TYPE` is refused when no stored quake has that value (any
    /// case), naming those the store has (`ResultsEngine.storedValues`); nil when one has it.
    /// `:magtype unknown` (the quakes without one) is never refused.
    public static func unknown(_ value: String, of values: StoredValues, among stored: [String]) -> FilterCommandError? {
        let folded = value.trimmingCharacters(in: .whitespaces).lowercased()
        guard !stored.contains(where: { $0.lowercased() == folded }) else { return nil }
        switch values {
        case .eventTypes:
            let known = stored.isEmpty ? "no stored quake has a type" : "the store has " + stored.joined(separator: ", ")
            return FilterCommandError("No quake has the type “\(value)”: \(known)")
        case .magnitudeTypes:
            guard folded != RowFilter.unknownMagnitudeType else { return nil }
            let known = stored.isEmpty ? "no stored quake has one" : "the store has " + stored.joined(separator: ", ")
            return FilterCommandError("No quake has the magnitude type “\(value)”: \(known) (unknown for none)")
        }
    }

    /// The kind of a saved filter text.
    static func kind(of text: String) -> String {
        let name = String(text.prefix { !$0.isWhitespace })
        return name == "since" ? "time" : name
    }

    /// `low-high` (both included), or `low+` / `low-` for low and up, as a range and its canonical
    /// text (`4-6`, `5+`); either end may be negative (`-5-10`). Nil for anything else. The numbers
    /// are `DecimalNumber`s, as the command line's options are.
    private static func range(_ text: String) -> (ClosedRange<Double>, String)? {
        let text = text.replacingOccurrences(of: " ", with: "")
        if let last = text.last, last == "+" || last == "-", case .success(let low) = DecimalNumber.parse(text.dropLast()) {
            return (low.value...Double.greatestFiniteMagnitude, "\(low.text)+")
        }
        guard let (low, high) = ends(text), low.value <= high.value else { return nil }
        return (low.value...high.value, "\(low.text)-\(high.text)")
    }

    /// The two ends of `low-high` as typed (either may be negative), in either order; nil for
    /// anything else. The separator is a `-` after a digit or a point (a leading `-` is a sign).
    private static func ends(_ text: String) -> (DecimalNumber, DecimalNumber)? {
        let text = text.replacingOccurrences(of: " ", with: "")
        let characters = Array(text)
        guard let dash = characters.indices.first(where: { $0 > 0 && characters[$0] == "-" && characters[$0 - 1] != "-" }),
              case .success(let low) = DecimalNumber.parse(text.prefix(dash)),
              case .success(let high) = DecimalNumber.parse(text.dropFirst(dash + 1)) else { return nil }
        return (low, high)
    }

    /// Why a bound of `name` is refused when one of its numbers has more digits than a number can
    /// hold exactly (`DecimalNumber.Refusal.inexact`); nil when none has.
    private static func inexact(_ argument: String, name: String, example: String) -> String? {
        let numbers = argument.split { !($0.isASCII && $0.isNumber) && $0 != "." }
        guard let number = numbers.first(where: { DecimalNumber.parse($0) == .failure(.inexact) }) else { return nil }
        return "\(name) \(argument): \(DecimalNumber.Refusal.inexact.reason(number)); use \(example)"
    }

    /// Why `low-high` with low above high is refused, with the range the right way round; nil
    /// when the text is not such a range.
    private static func reversed(_ text: String, name: String, spelled: String) -> String? {
        guard let (low, high) = ends(text), low.value > high.value else { return nil }
        return "\(name) \(low.text)-\(high.text) is reversed: the low end must not exceed the high end "
            + "(\(spelled) \(high.text)-\(low.text))"
    }

    /// The start of the day after the one starting at `day`, in `zone` (23 or 25 hours when the clocks change).
    private static func nextDay(_ day: Int64, in zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = Date(timeIntervalSince1970: Double(day) / 1000)
        let next = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return Int64((next.timeIntervalSince1970 * 1000).rounded())
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

    /// `2025-01-01` or `2025-01-01T06:30` (in `zone`) in ms since the epoch; only the first
    /// with `dayOnly`.
    private static func date(_ text: String, in zone: TimeZone, dayOnly: Bool = false) -> Int64? {
        let text = text.trimmingCharacters(in: .whitespaces)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        for format in dayOnly ? ["yyyy-MM-dd"] : ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970 * 1000) }
        }
        return nil
    }

    /// Why `text`, shaped as a day (`2025-13-01`), is no day: `2025-13-01 has no month 13`,
    /// `2025-02-30: February 2025 has 28 days`; nil for anything else.
    static func impossibleDay(_ text: String) -> String? {
        let fields = text.prefix(10).split(separator: "-")
        guard text.count >= 10, fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
              let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]) else { return nil }
        let day10 = String(text.prefix(10))
        guard (1...12).contains(month) else { return "\(day10) has no month \(month)" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        calendar.locale = Locale(identifier: "en_US_POSIX")
        guard let first = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
              let days = calendar.range(of: .day, in: .month, for: first)?.count, !(1...days).contains(day) else { return nil }
        let name = calendar.standaloneMonthSymbols[month - 1]
        return "\(day10): \(name) \(year) has \(days) days"
    }
}

/// Why a command line was refused, as one sentence that says what is accepted.
public struct FilterCommandError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }}
