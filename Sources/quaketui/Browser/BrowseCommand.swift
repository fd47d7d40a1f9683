import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `quaketui [--scene ID] [--state-dir DIR]`: opens the scene, the store and the settings,
/// restores the scene and runs the browser until `q`, `Q` or a stop signal.
enum BrowseCommand {
    static let scene = CommandSpec.Option(
        name: "scene", value: "ID",
        help: "The scene to show (default: $QUAKETUI_SCENE, the tmux pane, else 'main').", completion: .scenes)

    static func run(_ arguments: ParsedArguments) throws {
        // The command line first: a bad scene ID is a usage error (64) with or without a terminal.
        if let id = arguments.value("scene") {
            do { _ = try SceneID(validating: id) } catch let error as QuakeScenesError {
                throw UsageError(message: error.description, command: Quaketui.root)
            }
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandError("the browser needs a terminal; for scripts use 'quaketui list' (see 'quaketui --help').")
        }
        let environment = ProcessInfo.processInfo.environment
        let session: SceneSession
        do {
            session = try SceneSession.open(sceneOption: arguments.value("scene"),
                                            stateDirectoryOption: arguments.value("state-dir"),
                                            environment: environment,
                                            currentDirectory: FileManager.default.currentDirectoryPath)
        } catch let error as QuakeScenesError where error.isUsageError {
            throw UsageError(message: error.description, command: Quaketui.root)
        }
        try MainActor.assumeIsolated {
            let app: BrowserApp
            do {
                app = try BrowserApp(session: session)
            } catch {
                try? session.close()
                throw error
            }
            do {
                try app.run()
            } catch {
                // A clean error exit (no terminal of that TERM, a broken store) is not a crash
                // while restoring: keep the scene for the next launch (SPEC §4.1 crash guard).
                try? session.close()
                throw error
            }
        }
    }
}
