import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore

extension ParsedArguments {
    /// The state directory for this command (SPEC §3), created with mode 0700 if needed.
    ///
    /// ```swift
    /// let state = try arguments.stateDirectory()
    /// let container = try PersistentContainer(directory: state.url)
    /// ```
    ///
    /// Resolution, first match wins: `--state-dir DIR`, `$QUAKETUI_STATE_DIR`, `./state` if
    /// `./state/.quaketui` exists, `$XDG_STATE_HOME/quaketui`, `~/.local/state/quaketui`.
    /// - Throws: `QuakeScenesError` `stateDirectoryUnusable` naming the path and what to do.
    func stateDirectory() throws -> StateDirectory {
        try StateDirectory.resolve(option: value("state-dir"), environment: ProcessInfo.processInfo.environment,
                                   currentDirectory: FileManager.default.currentDirectoryPath).prepared()
    }

    /// The state directory for a command that only reads: resolved like ``stateDirectory()``
    /// but never created, and refused when it holds no store (`info`, `list`, `stats`) or does
    /// not exist (`scenes`, `config` without a value, which read no store), so a mistyped
    /// `--state-dir` is told, not started empty.
    /// - Throws: `CommandError` `No store at DIR/quakes.sqlite: …` saying what to do.
    func existingStateDirectory(requiringStore: Bool = true) throws -> StateDirectory {
        let state = try resolvedStateDirectory()
        try requireStore(in: state, orDirectoryOnly: !requiringStore)
        return state
    }

    /// The state directory, resolved and not created (it may not exist).
    func resolvedStateDirectory() throws -> StateDirectory {
        StateDirectory.resolve(option: value("state-dir"), environment: ProcessInfo.processInfo.environment,
                                   currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Throws unless `state` holds a store (or, with `orDirectoryOnly`, exists).
    func requireStore(in state: StateDirectory, orDirectoryOnly: Bool = false) throws {
        let store = state.url.appendingPathComponent(PersistentContainer.fileName).path
        var isDirectory: ObjCBool = false
        let found = orDirectoryOnly
            ? FileManager.default.fileExists(atPath: state.path, isDirectory: &isDirectory) && isDirectory.boolValue
            : FileManager.default.fileExists(atPath: store)
        guard !found else { return }
        throw CommandError(value("state-dir") != nil
            ? "No store at \(store): check --state-dir, or start a store there with 'quaketui import FILE' or 'quaketui refresh'."
            : "No store at \(store): run 'quaketui' (the browser), 'quaketui refresh' or 'quaketui import FILE' to start one.")
    }
}

extension StateDirectory {
    /// The directory as a file URL, for `PersistentContainer(directory:)`.
    var url: URL { URL(fileURLWithPath: path, isDirectory: true) }
}
