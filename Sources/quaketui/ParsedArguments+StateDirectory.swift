import Foundation
import QuakeScenes

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
}

extension StateDirectory {
    /// The directory as a file URL, for `PersistentContainer(directory:)`.
    var url: URL { URL(fileURLWithPath: path, isDirectory: true) }
}
