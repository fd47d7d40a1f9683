import Foundation

/// Opens a URL the way other terminal tools do: each command of `$BROWSER` (a `:`-separated
/// list; `%s` stands for the URL, else it is appended), then `xdg-open`, the first found on
/// `PATH`. The browser runs detached with its input and output on `/dev/null`, so it cannot
/// draw over the screen; the browser loop never waits for it.
///
/// ```swift
/// switch WebBrowser.open("https://…", environment: ProcessInfo.processInfo.environment) { … }
/// ```
enum WebBrowser {
    enum Outcome: Equatable {
        /// Started: the command's name.
        case opened(String)
        /// No command found (or none would start): what was tried.
        case unavailable(String)
    }

    /// The command lines to try, in order, for `url`.
    static func candidates(for url: String, environment: [String: String]) -> [[String]] {
        var commands: [[String]] = []
        for entry in (environment["BROWSER"] ?? "").split(separator: ":") {
            var words = entry.split(separator: " ").map(String.init)
            guard !words.isEmpty else { continue }
            if words.contains(where: { $0.contains("%s") }) {
                words = words.map { $0.replacingOccurrences(of: "%s", with: url) }
            } else {
                words.append(url)
            }
            commands.append(words)
        }
        commands.append(["xdg-open", url])
        return commands
    }

    /// The executable for a command name: a path as given, else the first match on `PATH`.
    static func executable(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func open(_ url: String, environment: [String: String]) -> Outcome {
        for command in candidates(for: url, environment: environment) {
            guard let path = executable(command[0], environment: environment) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = Array(command.dropFirst())
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
                return .opened(command[0])
            } catch {
                continue
            }
        }
        let tried = environment["BROWSER"].map { $0.isEmpty ? "xdg-open" : "$BROWSER (\($0)) and xdg-open" } ?? "xdg-open"
        return .unavailable(tried)
    }
}
