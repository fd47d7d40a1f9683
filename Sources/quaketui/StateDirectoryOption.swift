import Foundation

/// Resolves the state directory for a command (SPEC §3).
/// Interim: replaced by QuakeScenes' StateDirectory when that module lands.
enum StateDirectoryOption {
    static func resolve(_ arguments: ParsedArguments) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let dir = arguments.value("state-dir") { return URL(fileURLWithPath: dir) }
        if let dir = environment["QUAKETUI_STATE_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        let cwd = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: cwd + "/state/.quaketui") { return URL(fileURLWithPath: cwd + "/state") }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg + "/quaketui") }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/quaketui")
    }
}
