import Foundation
import QuakeTUI
import QuakeTUIRuntime
import QuakeScenes

/// The command table and the one place where errors become text and exit codes.
enum Quaketui {
    static let version = "0.1.0"

    struct Command: Sendable {
        let spec: CommandSpec
        let run: @Sendable (ParsedArguments) throws -> Void
    }

    static let commands: [Command] = [
        Command(spec: ImportCommand.spec, run: ImportCommand.run),
        Command(spec: RefreshCommand.spec, run: RefreshCommand.run),
        Command(spec: FetchCommand.spec, run: FetchCommand.run),
        Command(spec: ListCommand.spec, run: ListCommand.run),
        Command(spec: StatsCommand.spec, run: StatsCommand.run),
        Command(spec: SequenceCommand.spec, run: SequenceCommand.run),
        Command(spec: OpenCommand.spec, run: OpenCommand.run),
        Command(spec: ScenesCommand.spec, run: ScenesCommand.run),
        Command(spec: InfoCommand.spec, run: InfoCommand.run),
        Command(spec: DeleteCommand.spec, run: DeleteCommand.run),
        Command(spec: WatchCommand.spec, run: WatchCommand.run),
        Command(spec: ConfigCommand.spec, run: ConfigCommand.run),
        Command(spec: StatusCommand.spec, run: StatusCommand.run),
    ]

    static let root = CommandSpec(
        name: "",
        abstract: "Browse the USGS earthquake feed in the terminal, one scene per tmux pane.",
        usage: ["[--scene <id>] [--state-dir <dir>]"] + commands.flatMap(\.spec.usage) + ["--help | help <command> | --version"],
        discussion: """
            COMMANDS:
            \(commands.map { "  " + $0.spec.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.spec.abstract }.joined(separator: "\n"))

            THE BROWSER (the default command; needs a terminal). An empty store starts with a
            bundled sample catalogue (not real data) and refreshes from USGS in the background.
            The browser polls autoRefreshFeed itself (one process for all panes); quakes new
            since the scene last looked are marked ● and counted in the header. A new quake at
            alertMagnitude, within alertRadius of home or predicted to shake home at
            alertIntensity rings the bell and runs alertCommand, once across panes
            ('quaketui config'); with alertNotification, the terminal's own notification too.
            A scene coming back (a relaunch, or focus after 10 minutes away: tmux's
            focus-events on) says on its status line what arrived meanwhile; n walks it.
            Its keys (? shows them in the browser):
            \(KeyHelp.lines().joined(separator: "\n"))

            STATE DIRECTORY (first match wins):
              --state-dir DIR, $QUAKETUI_STATE_DIR, ./state if ./state/.quaketui exists,
              $XDG_STATE_HOME/quaketui, ~/.local/state/quaketui
              The browser, import, refresh and fetch start a store there; the commands that
              only read create nothing and refuse a directory without one.

            See 'quaketui help <command>' for a command's options.
            """,
        options: [BrowseCommand.scene, CommandSpec.stateDir,
                  .init(name: "generate-completion-script", value: "SHELL",
                        help: "Print a completion script for bash, zsh or fish and exit.",
                        completion: .values(CompletionScript.Shell.allCases.map(\.rawValue))),
                  .init(name: "generate-manual", value: nil, help: "Print the manual page (roff) and exit."),
                  .init(name: "version", value: nil, help: "Print the version and exit.")],
        arguments: [.init(name: "command", help: "The command to run; without one, the browser opens.",
                          completion: .values(["help"] + commands.map(\.spec.name)))])

    /// "Unknown command 'lst'. Did you mean 'list'?"
    static func unknownCommand(_ name: String) -> UsageError {
        UsageError(message: "Unknown command '\(name)'." + Spelling.didYouMean(name, in: commands.map(\.spec.name) + ["help"]),
                   command: root)
    }

    /// Runs the command line and returns the exit code; prints errors on stderr.
    static func main(_ arguments: [String]) -> ExitCode {
        var arguments = commandFirst(arguments)
        if arguments.first == "help" {
            arguments.removeFirst()
            guard let name = arguments.first else { print(root.helpText, terminator: ""); return .success }
            guard let command = commands.first(where: { $0.spec.name == name }) else {
                return report(unknownCommand(name))
            }
            print(command.spec.helpText, terminator: "")
            return .success
        }
        guard let name = arguments.first, let command = commands.first(where: { $0.spec.name == name }) else {
            return browse(arguments)
        }
        arguments.removeFirst()
        do {
            let parsed = try command.spec.parse(arguments)
            if parsed.has("help") {
                print(command.spec.helpText, terminator: "")
                return .success
            }
            try command.run(parsed)
            return .success
        } catch let error as UsageError {
            return report(error)
        } catch let error as QuakeScenesError where error.isUsageError {
            // A bad scene ID or `open` target is a mistake in the command line, not a failure.
            return report(UsageError(message: error.description, command: command.spec))
        } catch {
            return report(error, context: name, storePath: storePath(command.spec, arguments))
        }
    }

    /// The store a command works on, for an error that does not name it (a raw `SQLiteError`):
    /// resolved as the command resolves it, without creating anything.
    private static func storePath(_ spec: CommandSpec, _ arguments: [String]) -> String? {
        guard let parsed = try? spec.parse(arguments) else { return nil }
        return StateDirectory.resolve(option: parsed.value("state-dir"), environment: ProcessInfo.processInfo.environment,
                                      currentDirectory: FileManager.default.currentDirectoryPath).storeURL.path
    }

    /// `quaketui --state-dir DIR scenes rm ID`: options written before the command (as `git -C DIR
    /// status` takes them) move behind it, where the command parses them, so an option the command
    /// does not take is still refused by name.
    static func commandFirst(_ arguments: [String]) -> [String] {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("--") {
            let name = arguments[index].dropFirst(2)
            index += 1
            if !name.contains("="), root.options.first(where: { $0.name == name })?.value != nil { index += 1 }
        }
        guard index > 0, index < arguments.count, commands.contains(where: { $0.spec.name == arguments[index] })
        else { return arguments }
        return [arguments[index]] + arguments[..<index] + arguments[(index + 1)...]
    }

    private static func browse(_ arguments: [String]) -> ExitCode {
        do {
            let parsed = try root.parse(arguments)
            if parsed.has("help") {
                print(root.helpText, terminator: "")
                return .success
            }
            if let first = parsed.positionals.first {
                throw unknownCommand(first)
            }
            if parsed.has("version") {
                print("quaketui \(version)")
                return .success
            }
            if let shell = parsed.value("generate-completion-script") {
                guard let shell = CompletionScript.Shell(rawValue: shell) else {
                    throw UsageError(message: "'\(shell)' is not a shell quaketui writes completions for; use bash, zsh or fish.",
                                     command: root)
                }
                print(CompletionScript(shell: shell, root: root, commands: commands.map(\.spec)).text, terminator: "")
                return .success
            }
            if parsed.has("generate-manual") {
                print(ManualPage(root: root, commands: commands.map(\.spec), version: version).text, terminator: "")
                return .success
            }
            BrowserProcess.limitMallocArenas()
            try BrowseCommand.run(parsed)
            return .success
        } catch let error as UsageError {
            return report(error)
        } catch {
            return report(error, context: "browser")
        }
    }

    /// A runtime failure: the presenter's message on stderr, the whole story in the log.
    private static func report(_ error: Error, context: String, storePath: String? = nil) -> ExitCode {
        let report = ErrorPresenter.report(error, storePath: storePath)
        ErrorPresenter.log(report, context: context)
        printError("Error: \(report.message)")
        return report.exitCode
    }

    private static func report(_ error: UsageError) -> ExitCode {
        let name = error.command.name.isEmpty ? "" : "\(error.command.name) "
        printError("""
            Error: \(error.message)
            Usage: quaketui \(error.command.usage[0])
              See 'quaketui \(name)--help' for more information.
            """)
        return .usage
    }
}

