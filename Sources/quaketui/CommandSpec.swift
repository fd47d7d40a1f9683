import QuakeTUI
import QuakeTUIRuntime

/// The options a command accepts, for parsing and for its `--help`.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        /// The long name without dashes, e.g. `state-dir`.
        let name: String
        /// The value's placeholder for options that take one (`DIR`); nil for flags.
        let value: String?
        let help: String
        /// What a shell offers for the value (completion scripts).
        var completion: Completion = .none

        init(name: String, value: String?, help: String, completion: Completion = .none) {
            self.name = name
            self.value = value
            self.help = help
            self.completion = completion
        }
    }

    /// A positional argument, for usage checks, completion scripts and the manual.
    struct Argument: Sendable {
        /// The placeholder, e.g. `path`.
        let name: String
        let help: String
        var completion: Completion = .none
        /// Whether it may be given more than once (`rm <id>...`).
        var isRepeating = false
    }

    /// What a shell offers when completing a value.
    enum Completion: Sendable, Equatable {
        case none
        case file
        case directory
        case values([String])
        /// The saved scenes' IDs, as `quaketui scenes --json` lists them for the state directory
        /// the line names (`--state-dir`), else the default one.
        case scenes
    }

    /// e.g. `info`; empty for the root command.
    let name: String
    let abstract: String
    /// Usage lines after `quaketui `, e.g. `info [--json]`.
    let usage: [String]
    let discussion: String
    let options: [Option]
    /// The positional arguments it takes; any more is a usage error.
    let arguments: [Argument]

    init(name: String, abstract: String, usage: [String], discussion: String, options: [Option],
         arguments: [Argument] = []) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.options = options
        self.arguments = arguments
    }

    func option(named name: String) -> Option? { options.first { $0.name == name } }

    /// How many positionals the command takes at most.
    var maximumPositionals: Int {
        arguments.contains(where: \.isRepeating) ? .max : arguments.count
    }

    static let stateDir = Option(name: "state-dir", value: "DIR", help: "Where the store, scenes and settings live (see 'State directory' in --help).",
                                 completion: .directory)
    static let json = Option(name: "json", value: nil, help: "Print one JSON object on stdout.")
}

/// What `parse` found: flags present, option values (last one wins), positionals in order.
struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { values[name] }
}

/// A mistake in the command line: printed as `Error:` with the usage and a hint, exit 64.
struct UsageError: Error, Sendable {
    let message: String
    let command: CommandSpec
}

extension CommandSpec {
    /// Parses `--flag`, `--option value`, `--option=value`, `--` and positionals, the way
    /// swift-argument-parser does; `-h`/`--help` is answered by the caller.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // `-33.9,18.4` (a southern latitude) is a value, not an option.
            let isNegativeNumber = argument.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" || isNegativeNumber {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "-h" { parsed.flags.insert("help"); continue }
            guard argument.hasPrefix("--") else {
                throw UsageError(message: "Unknown option '\(argument)'." + suggestion(forOption: argument),
                                 command: self)
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == "help" { parsed.flags.insert("help"); continue }
            guard let option = option(named: name) else {
                throw UsageError(message: "Unknown option '--\(name)'." + suggestion(forOption: name), command: self)
            }
            if let placeholder = option.value {
                if let inlineValue {
                    parsed.values[name] = inlineValue
                } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                    parsed.values[name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError(message: "Missing value for '--\(name) <\(placeholder.lowercased())>'.", command: self)
                }
            } else {
                if inlineValue != nil {
                    throw UsageError(message: "The flag '--\(name)' does not take a value.", command: self)
                }
                parsed.flags.insert(name)
            }
        }
        if parsed.positionals.count > maximumPositionals, !parsed.has("help") {
            let extra = parsed.positionals[maximumPositionals]
            throw UsageError(message: "Unexpected argument '\(extra)'." + hint(forExtra: extra), command: self)
        }
        return parsed
    }

    /// ` Did you mean '--sort'?` for a mistyped option, or nothing.
    private func suggestion(forOption typed: String) -> String {
        let bare = String(typed.drop(while: { $0 == "-" }))
        return Spelling.didYouMean(bare, in: options.map(\.name) + ["help"]) { "--\($0)" }
    }

    private func hint(forExtra extra: String) -> String {
        let command = name.isEmpty ? "quaketui" : name
        switch arguments.count {
        case 0: return " '\(command)' takes no arguments."
        case 1: return " '\(command)' takes one argument, <\(arguments[0].name)>."
        default: return " '\(command)' takes " + arguments.map { "<\($0.name)>" }.joined(separator: " and ") + "."
        }
    }

    /// The text `--help` prints.
    var helpText: String {
        var text = "OVERVIEW: \(abstract)\n\n"
        text += "USAGE: " + usage.map { "quaketui \($0)" }.joined(separator: "\n       ") + "\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let rows = options + [Option(name: "help", value: nil, help: "Show help information.")]
        let labels = rows.map { "--\($0.name)" + ($0.value.map { " <\($0.lowercased())>" } ?? "") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        text += "\nOPTIONS:\n"
        for (label, option) in zip(labels, rows) {
            text += "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help + "\n"
        }
        return text
    }
}
