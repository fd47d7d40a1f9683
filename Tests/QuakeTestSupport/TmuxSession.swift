import Foundation
import Glibc

/// A real terminal for end-to-end tests: a tmux server on its own socket (`tmux -L NAME`),
/// driven with `send-keys` and read with `capture-pane -p`. `close()` kills the server.
///
/// ```swift
/// let tmux = try TmuxSession(columns: 100, rows: 30)
/// defer { tmux.close() }
/// let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", dir.path])
/// try tmux.waitForScreen(pane, "the list") { $0.header.count == "4,711 quakes" }
/// try tmux.send(pane, "j", "Enter")
/// ```
public final class TmuxSession: @unchecked Sendable {
    public let socket: String
    private let lock = NSLock()
    private var isClosed = false
    private static let tmux = URL(fileURLWithPath: "/usr/bin/tmux")

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: tmux.path) }

    public init(columns: Int = 100, rows: Int = 30) throws {
        socket = "quaketui-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        // A placeholder window keeps the server alive while panes come and go.
        try run(["-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(columns)", "-y", "\(rows)", "cat"])
    }

    /// Runs `executable` in a new window; each call is one "pane". Returns its target, e.g.
    /// `main:w1A2B3C`. A small shell waits for the program and records its exit status (tmux
    /// 3.3 does not report it reliably).
    @discardableResult
    public func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                      window: String? = nil) throws -> String {
        let name = window ?? "w\(UUID().uuidString.prefix(6))"
        try run(["new-window", "-d", "-t", "main", "-n", name, command(executable, arguments, environment, name)])
        return "main:\(name)"
    }

    /// Runs `executable` in a session of its own, `session` (its one window), and returns the
    /// window's target: `kill-session -t SESSION` then hangs up its terminal as closing a
    /// terminal window does (tmux sends SIGHUP), while the server and `main` go on.
    @discardableResult
    public func startSession(_ session: String, columns: Int = 100, rows: Int = 30, _ executable: String, _ arguments: [String],
                             environment: [String: String] = [:]) throws -> String {
        let name = "w\(UUID().uuidString.prefix(6))"
        try run(["new-session", "-d", "-s", session, "-n", name, "-x", "\(columns)", "-y", "\(rows)",
                 command(executable, arguments, environment, name)])
        return "\(session):\(name)"
    }

    /// Splits `target` and runs a program in the new pane; returns the new pane's target.
    @discardableResult
    public func split(_ target: String, _ executable: String, _ arguments: [String],
                      environment: [String: String] = [:]) throws -> String {
        let name = "p\(UUID().uuidString.prefix(6))"
        return try run(["split-window", "-d", "-h", "-P", "-F", "#{pane_id}", "-t", target,
                        command(executable, arguments, environment, name)])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a program again in the pane `target` (from `start`), as a user relaunching in the
    /// same pane: whatever runs there is killed first (`respawn-pane -k`), and the exit status
    /// of the previous run is forgotten.
    public func respawn(_ target: String, _ executable: String, _ arguments: [String],
                        environment: [String: String] = [:]) throws {
        let name = target.split(separator: ":").last.map(String.init) ?? target
        try? FileManager.default.removeItem(atPath: statusPath(name))
        try run(["respawn-pane", "-k", "-t", target, command(executable, arguments, environment, name)])
    }

    private func command(_ executable: String, _ arguments: [String], _ environment: [String: String],
                         _ name: String) -> String {
        // No window budget is set: the browser runs the path users run (a provisional window
        // when a count takes longer than its budget, then the settled counts), and tests that
        // compare screens wait for the settled one (`waitForScreen`, `Screen.isSettled`).
        // Tests never touch the network: the automatic refresh reads a feed that is not there,
        // unless the test serves one.
        var environment = environment
        if environment["QUAKETUI_FEED_BASE_URL"] == nil { environment["QUAKETUI_FEED_BASE_URL"] = "file:///nonexistent-quaketui-feed" }
        let program = (environment.map { "\($0.key)=\(Self.quote($0.value))" }.sorted()
                       + [Self.quote(executable)] + arguments.map(Self.quote)).joined(separator: " ")
        // The shell then waits, keeping the program's last screen (tmux 3.3 may blank a dead pane).
        return "env \(program); echo $? > \(Self.quote(statusPath(name))); exec sleep 86400"
    }

    private func statusPath(_ name: String) -> String { "/tmp/\(socket)-\(name).status" }

    /// Sends keys in tmux's names (`Enter`, `Escape`, `C-s`, `Down`) or literal text with `literal`.
    public func send(_ target: String, _ keys: String..., literal: Bool = false) throws {
        try run(["send-keys", "-t", target] + (literal ? ["-l"] : []) + keys)
    }

    /// `send` with the keys in an array.
    public func send(_ target: String, keys: [String], literal: Bool = false) throws {
        try run(["send-keys", "-t", target] + (literal ? ["-l"] : []) + keys)
    }

    /// The pane's text now, one line per row.
    public func capture(_ target: String) throws -> String {
        try run(["capture-pane", "-p", "-t", target])
    }

    /// Polls the pane until `condition` holds; throws with the last screen after `timeout`.
    ///
    /// tmux applies a frame's bytes as they arrive, so the capture that first satisfies the
    /// condition may hold a frame drawn only in part (stress runs saw a line not yet cleared).
    /// So once it holds, the pane is captured again, back to back, until two captures in a row
    /// are the same screen (the frame is finished) and that screen is returned; if a capture no
    /// longer satisfies the condition (a transient state moved on), the last one that did is.
    /// A wait that would have succeeded still does. Two equal captures can still be a frame in
    /// part when the program is descheduled between rows (ncurses writes one row per
    /// `write(2)`), so a condition should name what the frame draws last: its lowest lines.
    @discardableResult
    public func waitFor(_ target: String, timeout: TimeInterval = 30, _ what: String = "condition",
                        _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while Date() < deadline {
            screen = try capture(target)
            if condition(screen) { return try settled(target, from: screen, until: deadline, condition) }
            usleep(50_000)
        }
        throw ChildProcess.ChildError("timed out after \(timeout) s waiting for \(what); the pane shows:\n\(screen)")
    }

    /// `screen` (which satisfies `condition`) once the pane shows it twice in a row, or the last
    /// capture that satisfied `condition` when the next one does not or the deadline passes.
    private func settled(_ target: String, from screen: String, until deadline: Date,
                         _ condition: (String) -> Bool) throws -> String {
        var screen = screen
        while Date() < deadline {
            let again = try capture(target)
            guard condition(again) else { return screen }
            if again == screen { return again }
            screen = again
        }
        return screen
    }

    /// The program's process id (the child of the pane's shell), or 0 once it has exited.
    public func pid(_ target: String) throws -> pid_t {
        let shell = try run(["display-message", "-p", "-t", target, "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return pid_t(children.split(separator: " ").first ?? "") ?? 0
    }

    /// The program's exit status once it has exited (128 + N for signal N), else nil.
    public func exitStatus(_ target: String) throws -> Int32? {
        let name = target.split(separator: ":").last.map(String.init) ?? target
        guard let text = try? String(contentsOfFile: statusPath(name), encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    public func waitForExit(_ target: String, timeout: TimeInterval = 30) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = try exitStatus(target) { return status }
            usleep(50_000)
        }
        throw ChildProcess.ChildError("pane \(target) did not exit within \(timeout) s:\n\(try capture(target))")
    }

    /// The pane's title, which an OSC 0/2 sequence written to the terminal would change.
    public func paneTitle(_ target: String) throws -> String {
        try run(["display-message", "-p", "-t", target, "#{pane_title}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A tmux format evaluated for the pane, e.g. `#{mouse_sgr_flag}` (1 once the program
    /// asked for SGR mouse reports).
    public func format(_ target: String, _ format: String) throws -> String {
        try run(["display-message", "-p", "-t", target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func resize(_ target: String, columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", target, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Kills the server, then waits until the programs that ran in its panes have exited: a
    /// browser saves its scene on the SIGHUP, and a save that came after the test removed its
    /// state directory would create the directory again (folders left in the temp dir).
    /// Safe to call twice; `deinit` calls it for a path that never did.
    public func close() {
        lock.lock()
        let wasClosed = isClosed
        isClosed = true
        lock.unlock()
        guard !wasClosed else { return }
        let programs = paneProcesses()
        // tmux 3.3 leaves its socket file behind when the server is killed.
        let socketPath = (try? run(["display-message", "-p", "-t", "main", "#{socket_path}"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try? run(["kill-server"])
        if let socketPath, socketPath.hasSuffix("/" + socket) { unlink(socketPath) }
        if !eventually(timeout: 20, { programs.allSatisfy { !Self.isRunning($0) } }) {
            for pid in programs where Self.isRunning(pid) { kill(pid, SIGKILL) }
        }
        let prefix = "\(socket)-"
        for file in (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [] where file.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: "/tmp/" + file)
        }
    }

    deinit { close() }

    /// The processes of every pane (the pane's shell and its children: the program).
    private func paneProcesses() -> [pid_t] {
        guard let shells = try? run(["list-panes", "-a", "-F", "#{pane_pid}"]) else { return [] }
        return shells.split(whereSeparator: \.isNewline).compactMap { pid_t($0) }.flatMap { shell -> [pid_t] in
            let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
            return [shell] + children.split(separator: " ").compactMap { pid_t($0) }
        }
    }

    /// Whether `pid` is a live process (a zombie waiting for a parent that never reaps counts as gone).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: end)...].hasPrefix(" Z")
    }

    /// Any tmux command on this server (`set-option`, `show-buffer` …); returns its output.
    @discardableResult
    public func command(_ arguments: String...) throws -> String { try run(arguments) }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let (status, out, err) = try ChildProcess.run(Self.tmux, ["-L", socket] + arguments,
                                                      environment: ["TERM": "xterm-256color"])
        guard status == 0 else {
            throw ChildProcess.ChildError("tmux \(arguments.joined(separator: " ")) failed (\(status)): \(err)")
        }
        return out
    }

    private static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
