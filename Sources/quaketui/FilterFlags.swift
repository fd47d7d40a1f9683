import Foundation
import QuakeModel
import QuakeTUI

/// The browser's `:` filters as flags of `list`, `stats` and `watch` (issue 56.11): `--depth 0-70`
/// is `:depth 0-70`, parsed by the `:` line's own parser (`FilterCommand.parse`), so the commands
/// and the browser accept and refuse the same texts with the same sentences (their examples
/// spelled as flags: `--depth 0-70` where the browser writes `:depth 0-70`).
///
/// ```swift
/// let filters = try FilterFlags.rowFilters(arguments, now: now, timeZone: zone, home: home, command: spec)
/// ```
enum FilterFlags {
    /// Each `:` command that filters, and its flag: the same name, but `--mag-type` for
    /// `:magtype` (the SPEC's name, older than the `:` command).
    static let flags: [(command: String, flag: String)] = [
        ("mag", "mag"), ("depth", "depth"), ("since", "since"), ("time", "time"), ("type", "type"),
        ("alert", "alert"), ("felt", "felt"), ("intensity", "intensity"), ("magtype", "mag-type"),
        ("revised", "revised"),
    ]

    /// How an example of the `:` line's sentences is spelled on a command line: `--depth`.
    static func spell(_ command: String) -> String {
        "--" + (flags.first { $0.command == command }?.flag ?? command)
    }

    /// `--min-magnitude` of `list`, `stats` and `watch` (the browser's `m`): a test of the
    /// magnitude as shown (`fetch`'s is the service's own).
    static let minimumMagnitude = CommandSpec.Option(
        name: "min-magnitude", value: "M",
        help: "Only quakes shown at magnitude M or more: shown to a tenth (2.45 shows 2.5); an M between tenths takes the next (2.44 is 2.5).")

    /// `--min-intensity` of `list`, `stats` and `watch`: `--intensity INTENSITY+` by another name
    /// (`ListCommand.minimumIntensity(from:)`).
    static let minimumIntensity = CommandSpec.Option(
        name: "min-intensity", value: "INTENSITY",
        help: "Only quakes predicted to be felt at home (or --near) at INTENSITY or stronger (1–10 or I–X): --intensity INTENSITY+.")

    /// The flags, for `--help`, the manual and the completion scripts.
    static let options: [CommandSpec.Option] = [
        .init(name: "mag", value: "RANGE", help: "Only quakes whose magnitude as shown (to a tenth) is in RANGE: 4 (or 4+: 4 and up), 4-6 (as :mag)."),
        .init(name: "depth", value: "RANGE", help: "Only quakes whose depth as shown (to a tenth of a km) is in RANGE km: 0-70, 300+ (as :depth)."),
        .init(name: "since", value: "SPAN", help: "Only quakes of the last SPAN: 30m, 24h, 7d or 2w (as :since)."),
        .init(name: "time", value: "DAYS", help: "Only quakes of a day or of FROM..TO (the end excluded) in the timeZone setting: 2025-01-01, 2025-01-01..2025-02-01T06:00 (as :time)."),
        .init(name: "type", value: "TYPE", help: "Only quakes of event type TYPE (earthquake, quarry blast …); !TYPE hides them instead (as :type)."),
        .init(name: "alert", value: "LEVEL", help: "Only quakes with a PAGER alert of LEVEL or higher: green, yellow, orange or red (as :alert).",
              completion: .values(RowFilter.alertLevels)),
        .init(name: "felt", value: nil, help: "Only quakes with at least one \"Did you feel it?\" report (as :felt)."),
        .init(name: "intensity", value: "INTENSITY", help: "Only quakes predicted to be felt at home (or --near) at INTENSITY or stronger, 1–10 or I–X: 4, 4+ and IV say the same (as :intensity)."),
        .init(name: "mag-type", value: "TYPE", help: "Only quakes whose magnitude type is TYPE: ml, mb, mww …; unknown for none (as :magtype)."),
        .init(name: "revised", value: nil, help: "Only quakes one of whose reports its agency revised since it was stored: magnitude, its type, origin time, epicentre, depth or status (as :revised)."),
    ]

    /// The flags of `flags` given on the command line, each as its `:` line (`depth 0-70`), in
    /// the order of `flags`.
    static func lines(_ arguments: ParsedArguments) -> [(flag: String, line: String)] {
        flags.compactMap { command, flag in
            if flag == "felt" || flag == "revised" { return arguments.has(flag) ? (flag, command) : nil }
            return arguments.value(flag).map { (flag, "\(command) \($0)") }
        }
    }

    /// The row filters the filter flags ask for, parsed as the `:` line parses them: `since`
    /// counts back from `now` (ms since the epoch), days are in `timeZone`, and `--intensity`
    /// is predicted at `home`.
    /// - Throws: `UsageError` with the `:` line's sentence, or for `--since` with `--time` (one
    ///   filter, as `:since` and `:time` replace each other).
    static func rowFilters(_ arguments: ParsedArguments, now: Int64, timeZone: TimeZone, home: GeoPoint?,
                           command: CommandSpec) throws(UsageError) -> [RowFilter] {
        if arguments.value("since") != nil, arguments.value("time") != nil {
            throw UsageError(message: "Give either --since or --time, not both: both say when the quakes happened.", command: command)
        }
        if arguments.value("intensity") != nil, arguments.value("min-intensity") != nil {
            throw UsageError(message: "Give either --intensity or --min-intensity, not both: --min-intensity 4 is --intensity 4+.",
                             command: command)
        }
        var filters: [RowFilter] = []
        for (_, line) in lines(arguments) {
            switch FilterCommand.parse(line, now: now, timeZone: timeZone, home: home, spell: spell) {
            case .success(.filter(_, _, let filter)): filters.append(filter)
            case .success: break  // every line of `lines` is a filter
            case .failure(let error): throw UsageError(message: SafeText.sanitize(error.message), command: command)
            }
        }
        return filters
    }

    /// Why `--type TYPE` or `--mag-type TYPE` finds nothing when no stored quake has that value,
    /// in the `:` line's words (`FilterCommand.unknown`); nil when one has it or there is neither.
    static func unknownValue(in filters: [RowFilter], among stored: (StoredValues) throws -> [String]) rethrows -> String? {
        for filter in filters {
            guard let values = StoredValues.checked(by: filter), let value = values.value(of: filter) else { continue }
            if let error = FilterCommand.unknown(value, of: values, among: try stored(values)) { return SafeText.sanitize(error.message) }
        }
        return nil
    }
}
