import Foundation

/// Asks tmux which pane this process runs in; a value so tests can inject an answer.
///
/// ```swift
/// let fake = TmuxPaneQuery { _, _ in "work 2 1" }
/// let identity = try SceneIdentity.resolve(option: nil, environment: ["TMUX": "/tmp/t,1,0"], tmux: fake)
/// // identity.id == "tmux-work-2-1"
/// ```
public struct TmuxPaneQuery: Sendable {
    /// Given `$TMUX_PANE` and the server socket (the first comma-separated field of `$TMUX`),
    /// returns the line `#{session_name} #{window_index} #{pane_index}`, or nil if tmux
    /// cannot be asked.
    public var query: @Sendable (_ pane: String?, _ socket: String?) -> String?

    public init(query: @escaping @Sendable (_ pane: String?, _ socket: String?) -> String?) {
        self.query = query
    }

    /// Runs `tmux [-S SOCKET] display-message -p -t "$TMUX_PANE" '#{session_name} #{window_index} #{pane_index}'`
    /// with a 2-second limit, tmux found on `$PATH`. The socket comes from the injected
    /// environment, so the answer never depends on this process's own `$TMUX`.
    public static let live = TmuxPaneQuery { pane, socket in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["tmux"]
        if let socket, !socket.isEmpty { arguments += ["-S", socket] }
        arguments += ["display-message", "-p"]
        if let pane, !pane.isEmpty { arguments += ["-t", pane] }
        arguments.append("#{session_name} #{window_index} #{pane_index}")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            return nil
        }
        guard process.terminationStatus == 0 else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    /// Never in tmux.
    public static let none = TmuxPaneQuery { _, _ in nil }
}
