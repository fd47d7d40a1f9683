import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `quaketui config [KEY [VALUE | --unset]] [--json]`: read and change app storage
/// (`defaults.plist`, shared by every pane, which applies a change within a second).
enum ConfigCommand {
    static let spec = CommandSpec(
        name: "config",
        abstract: "Show or change the settings every pane shares (defaults.plist).",
        usage: ["config [<key> [<value> | --unset]] [--name <name>] [--json]"],
        discussion: """
            Without a key, lists every setting with its value and default. With a key, prints its
            value; with a value, checks and stores it; --unset returns it to its default. Running
            browsers apply a change within a second. The same keys can be edited by hand in
            STATE/defaults.plist.

            KEYS:
            \(settings.map { "  " + $0.name.padding(toLength: 20, withPad: " ", startingAt: 0) + $0.help }.joined(separator: "\n"))

            --json prints {"settings":{KEY: value or null}} for the list and {"key","value"} for one key.
            """,
        options: [
            .init(name: "unset", value: nil, help: "Return the key to its default."),
            .init(name: "name", value: "NAME", help: "With 'home': a name for the place, e.g. Tokyo."),
            CommandSpec.stateDir, CommandSpec.json,
        ],
        arguments: [
            .init(name: "key", help: "The setting.", completion: .values(settings.map(\.name))),
            .init(name: "value", help: "Its new value."),
        ])

    /// One app-storage key as the command line shows and parses it.
    struct Setting: Sendable {
        let name: String
        let help: String
        /// The value as text (`—` for none) and as a JSON value (nil for none).
        let read: @Sendable (AppStorage) -> (text: String, json: Any?)
        /// The default as the list shows it (`none` for none).
        let defaultText: String
        let write: @Sendable (AppStorage, String, ParsedArguments) throws -> Void
        let unset: @Sendable (AppStorage) throws -> Void
    }

    /// `names`: the values a mistyped one is matched against for "did you mean" (none for numbers).
    static func setting<V: Sendable>(_ key: AppKey<V>, _ help: String, expected: String, names: [String] = [],
                                     parse: @escaping @Sendable (String, ParsedArguments) -> V?,
                                     text: @escaping @Sendable (V) -> String,
                                     json: @escaping @Sendable (V) -> Any?) -> Setting {
        Setting(
            name: key.name, help: help,
            read: { storage in let value = storage.value(for: key); return (text(value), json(value)) },
            defaultText: text(key.defaultValue) == "—" ? "none" : text(key.defaultValue),
            write: { storage, input, arguments in
                guard let value = parse(input, arguments), key.isValid(value) else {
                    let guess = Spelling.didYouMean(input, in: names)
                    throw UsageError(message: "'\(SafeText.sanitize(input))' is not a valid \(key.name)"
                                     + (guess.isEmpty ? "; use \(expected)." : "." + guess), command: spec)
                }
                try storage.set(value, for: key)
            },
            unset: { try $0.removeValue(for: key) })
    }

    /// A setting's number, read as every numeric option and the `:` line read theirs (`DecimalNumber`).
    static func number(_ text: String) -> Double? { try? DecimalNumber.parse(text).get().value }
    /// A value for an optional key: nil when the text is not one (never "set to none").
    static func some<T>(_ value: T?) -> T?? { value.map { .some($0) } }

    /// A magnitude threshold as set, and the first magnitude as shown it lets through where that
    /// differs (`2.44 (quakes shown 2.5 and up)`: `MagnitudeBin.threshold`).
    static func threshold(_ value: Double, prefix: String = "") -> String {
        let shown = MagnitudeBin.threshold(value)
        guard Double(shown) != value else { return prefix + value.formatted() }
        return "\(prefix)\(value.formatted()) (quakes shown \(prefix)\(shown) and up)"
    }

    /// `alertIntensity` as it applies: `4.5`, or `4.55 (predicted 4.6 and up)`.
    static func intensityThreshold(_ value: Double) -> String {
        let shown = String(format: "%.1f", Double(AlertRule.tenths(atLeast: value)) / 10)
        return Double(shown) == value ? shown : "\(value.formatted()) (predicted \(shown) and up)"
    }

    static let settings: [Setting] = [
        setting(AppKeys.minimumMagnitude, "Hide quakes below this magnitude (default: none).",
                expected: "a number such as 2.5", parse: { text, _ in some(number(text)) },
                text: { $0.map { threshold($0) } ?? "—" }, json: { $0 }),
        setting(AppKeys.timeZone, "Days and times in utc or local (default local).",
                expected: "utc or local", names: ["utc", "local"], parse: { text, _ in text }, text: { $0 }, json: { $0 }),
        setting(AppKeys.distanceUnit, "km (default) or mi.", expected: "km or mi", names: ["km", "mi"],
                parse: { text, _ in text }, text: { $0 }, json: { $0 }),
        setting(AppKeys.refreshFeed, "The feed r and 'quaketui refresh' download (default all_month).",
                expected: "a USGS summary feed such as all_month or 4.5_week", names: AppKeys.feedNames,
                parse: { text, _ in text }, text: { $0 }, json: { $0 }),
        setting(AppKeys.autoRefreshFeed, "The feed the browser polls (default all_day).",
                expected: "a USGS summary feed such as all_day or all_hour", names: AppKeys.feedNames,
                parse: { text, _ in text }, text: { $0 }, json: { $0 }),
        setting(AppKeys.autoRefreshInterval, "Seconds between polls, 30 to 31622400 (366 days); 0 turns polling off (default 300).",
                expected: "0 or a number of seconds from 30 to 31622400", parse: { text, _ in number(text) },
                text: { $0 == 0 ? "off" : "\($0.formatted()) s" }, json: { $0 }),
        setting(AppKeys.home, "Where you are: LAT,LON in degrees, with --name (default: none).",
                expected: "LAT,LON in decimal degrees, such as 35.68,139.69",
                parse: { text, arguments in
                    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                    guard parts.count == 2, let lat = number(String(parts[0]).trimmingCharacters(in: .whitespaces)),
                          let lon = number(String(parts[1]).trimmingCharacters(in: .whitespaces)) else { return nil }
                    let home = HomeLocation(latitude: lat, longitude: lon, name: arguments.value("name"))
                    return some(home.isValid ? home : nil)
                },
                text: { home in
                    guard let home else { return "—" }
                    let place = String(format: "%.4f,%.4f", home.latitude, home.longitude)
                    return home.name.map { "\(place) (\(SafeText.sanitize($0)))" } ?? place
                },
                json: { home in
                    home.map { h -> [String: Any] in
                        var d: [String: Any] = ["latitude": h.latitude, "longitude": h.longitude]
                        if let name = h.name { d["name"] = name }
                        return d
                    }
                }),
        setting(AppKeys.nearRadius, "Kilometres from home that count as near (default 300).",
                expected: "a positive number of kilometres, at most 20038", parse: { text, _ in number(text) },
                text: { "\($0.formatted()) km" }, json: { $0 }),
        setting(AppKeys.alertMagnitude, "A new quake this large or larger alerts (default: none).",
                expected: "a magnitude such as 6", parse: { text, _ in some(number(text)) },
                text: { $0.map { threshold($0, prefix: "M ") } ?? "—" }, json: { $0 }),
        setting(AppKeys.alertRadius, "A new quake within this many km of home alerts (default: none).",
                expected: "a positive number of kilometres, at most 20038", parse: { text, _ in some(number(text)) },
                text: { $0.map { "\($0.formatted()) km" } ?? "—" }, json: { $0 }),
        setting(AppKeys.alertIntensity, "A new quake predicted to be felt at home this strongly alerts: MMI 1-10, one decimal (default: none).",
                expected: "a Modified Mercalli intensity from 1 to 10, such as 4.5", parse: { text, _ in some(number(text)) },
                text: { $0.map(intensityThreshold) ?? "—" }, json: { $0 }),
        setting(AppKeys.agencyPreference, "Whose solution a quake several agencies reported shows, after reviewed before automatic: agencies by commas; local-network is the local network in its own region.",
                expected: "agencies separated by commas, such as local-network,usgs,emsc,isc", names: [],
                parse: { text, _ in AgencyPreference(parsing: text).map { some($0.text) } ?? nil },
                text: { $0 ?? AgencyPreference.standard.text }, json: { $0 }),
        setting(AppKeys.alertCommand, "Run once per alert, the quake as JSON on stdin (default: none).",
                expected: "a shell command", parse: { text, _ in some(text.isEmpty ? nil : text) },
                text: { $0.map(SafeText.sanitize) ?? "—" }, json: { $0 }),
        setting(AppKeys.alertNotification, "The terminal's notification for an alert: off (default), osc777 or osc9 (tmux: allow-passthrough on).",
                expected: "off, osc777 or osc9", names: AppKeys.alertNotifications,
                parse: { text, _ in text }, text: { $0 }, json: { $0 }),
    ]

    static func run(_ arguments: ParsedArguments) throws {
        var positionals = arguments.positionals
        let name = positionals.isEmpty ? nil : positionals.removeFirst()
        let value = positionals.first
        let setting = try name.map { name throws(UsageError) -> Setting in
            guard let setting = settings.first(where: { $0.name == name }) else {
                let guess = Spelling.didYouMean(name, in: settings.map(\.name))
                throw UsageError(message: "Unknown setting '\(SafeText.sanitize(name))'."
                                 + (guess.isEmpty ? " See 'quaketui config --help' for the keys." : guess),
                                 command: spec)
            }
            return setting
        }
        if arguments.has("unset"), setting == nil || value != nil {
            throw UsageError(message: "--unset goes with one key and no value: config <key> --unset.", command: spec)
        }
        if arguments.value("name") != nil, name != AppKeys.home.name || value == nil {
            throw UsageError(message: "--name goes with a new home: config home LAT,LON --name NAME.", command: spec)
        }
        // Reading creates nothing: a mistyped --state-dir is refused, not started empty.
        let reads = value == nil && !arguments.has("unset")
        let storage = try reads ? AppStorage(state: arguments.existingStateDirectory(requiringStore: false), preparing: false)
            : AppStorage(state: arguments.stateDirectory())
        // Shown settings are read ones, never the defaults in place of a file that could not be read
        // (a write refuses such a file itself).
        try storage.requireReadable()
        guard let setting else { return try list(storage, json: arguments.has("json")) }
        if let value {
            try setting.write(storage, value, arguments)
            // A threshold measured from home does nothing without one: said, not refused (home may come next).
            if [AppKeys.alertRadius.name, AppKeys.alertIntensity.name].contains(setting.name), storage.value(for: AppKeys.home) == nil {
                printError("Note: \(setting.name) alerts only once a home is set: quaketui config home LAT,LON --name NAME.")
            }
        } else if arguments.has("unset") {
            try setting.unset(storage)
        }
        let current = setting.read(storage)
        if arguments.has("json") {
            let object: [String: Any] = ["key": setting.name, "value": current.json ?? NSNull()]
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
        } else {
            print(current.text)
        }
    }

    private static func list(_ storage: AppStorage, json: Bool) throws {
        if json {
            var values: [String: Any] = [:]
            for setting in settings { values[setting.name] = setting.read(storage).json ?? NSNull() }
            let data = try JSONSerialization.data(withJSONObject: ["settings": values], options: [.sortedKeys])
            return print(String(decoding: data, as: UTF8.self))
        }
        let width = (settings.map(\.name.count).max() ?? 0) + 2
        for setting in settings {
            print(setting.name.padding(toLength: width, withPad: " ", startingAt: 0) + setting.read(storage).text
                  + " (default: \(setting.defaultText))")
        }
    }
}
