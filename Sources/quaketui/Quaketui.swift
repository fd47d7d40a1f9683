import Foundation
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
        Command(spec: ListCommand.spec, run: ListCommand.run),
        Command(spec: OpenCommand.spec, run: OpenCommand.run),
        Command(spec: ScenesCommand.spec, run: ScenesCommand.run),
        Command(spec: InfoCommand.spec, run: InfoCommand.run),
        Command(spec: DeleteCommand.spec, run: DeleteCommand.run),
    ]

    static let root = CommandSpec(
        name: "",
        abstract: "Browse the USGS earthquake feed in the terminal, one scene per tmux pane.",
        usage: ["[--scene <id>] [--state-dir <dir>]"] + commands.flatMap(\.spec.usage) + ["--help | help <command> | --version"],
        discussion: """
            COMMANDS:
            \(commands.map { "  " + $0.spec.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.spec.abstract }.joined(separator: "\n"))

            THE BROWSER (the default command; needs a terminal):
              j/k or arrows move, Enter opens the detail (Tab, 1 2 3: Detail, Map, Notes),
              / searches as you type, s/S sort, space folds a section, m minimum magnitude,
              r refreshes, e edits notes, H continues another pane's quake, ? lists every key,
              q quits keeping this scene, Q closes the scene. An empty store starts with a
              bundled sample catalogue (not real data) and refreshes from USGS in the background.

            STATE DIRECTORY (first match wins):
              --state-dir DIR, $QUAKETUI_STATE_DIR, ./state if ./state/.quaketui exists,
              $XDG_STATE_HOME/quaketui, ~/.local/state/quaketui

            See 'quaketui help <command>' for a command's options.
            """,
        options: [BrowseCommand.scene, CommandSpec.stateDir])

    /// Runs the command line and returns the exit code; prints errors on stderr.
    static func main(_ arguments: [String]) -> ExitCode {
        var arguments = arguments
        if arguments.first == "--version" {
            print("quaketui \(version)")
            return .success
        }
        if arguments.first == "help" {
            arguments.removeFirst()
            guard let name = arguments.first else { print(root.helpText, terminator: ""); return .success }
            guard let command = commands.first(where: { $0.spec.name == name }) else {
                return report(UsageError(message: "Unknown command '\(name)'.", command: root))
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
            printError("Error: \(error)")
            return .failure
        }
    }

    private static func browse(_ arguments: [String]) -> ExitCode {
        do {
            let parsed = try root.parse(arguments)
            if parsed.has("help") {
                print(root.helpText, terminator: "")
                return .success
            }
            if let first = parsed.positionals.first {
                throw UsageError(message: "Unknown command '\(first)'.", command: root)
            }
            try BrowseCommand.run(parsed)
            return .success
        } catch let error as UsageError {
            return report(error)
        } catch {
            printError("Error: \(error)")
            return .failure
        }
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

