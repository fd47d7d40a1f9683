import Foundation
import QuakeTestSupport
import Testing

/// ctrl-z in a real shell with job control (issue 16): the browser hands the terminal back and
/// stops, the shell shows its prompt, and `fg` brings the same screen back.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct SuspendTests {
    @Test func ctrlZShowsTheShellAndFgBringsTheScreenBack() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let tmux = try TmuxSession(columns: 100, rows: 20)
        defer { tmux.close() }
        let pane = try tmux.start("/bin/bash", ["--norc", "--noprofile", "-i"], environment: ["PS1": "shell$ "])
        try tmux.waitForScreen(pane, "the shell's prompt") { $0.lines.first == "shell$" }
        // A script, so that the shell's lines (the command, "Stopped …") never show "scene a". Read
        // by `sh`, not executed: a child another test spawned while it was being written may hold
        // it open for writing, and exec(2) then fails with "Text file busy" (ETXTBSY).
        let script = dir.appending("browse")
        try ("export QUAKETUI_FEED_BASE_URL=file:///nonexistent-quaketui-feed\n"
            + "exec '\(QuaketuiBinary.url.path)' --state-dir '\(dir.path)/s' --scene a\n")
            .write(to: script, atomically: true, encoding: .utf8)
        try tmux.send(pane, "sh \(script.path)", literal: true)
        try tmux.send(pane, "Enter")
        try tmux.waitForScreen(pane, timeout: 20, "the first frame") { $0.header.isOf(scene: "a") }
        try tmux.send(pane, "j")
        // Settled: the same screen twice in a row (the refresh of the offline feed has failed).
        var before = Screen("")
        try tmux.waitForScreen(pane, timeout: 20, "a settled screen") { screen in
            defer { before = screen }
            return screen == before && screen.header.isOf(scene: "a") && screen.status.right.allSatisfy { !$0.hasPrefix("refreshing") }
        }
        try tmux.send(pane, "C-z")
        // The browser's screen is gone: only the shell's lines (prompts, the job's state, the
        // command `fg` names, which a long temporary path wraps onto lines of their own).
        let command = "sh \(script.path)"
        let isShell = { (screen: Screen) in
            screen.lines.allSatisfy { line in
                line.isEmpty || line.hasPrefix("shell$") || line.hasPrefix("[1]+  Stopped") || command.contains(line)
            }
        }
        let stopped = try tmux.waitForScreen(pane, "the shell after ctrl-z") { $0.lines.first { $0.hasPrefix("[1]+  Stopped") } != nil }
        #expect(isShell(stopped), "the browser's screen is gone:\n\(stopped)")
        try tmux.send(pane, "fg", "Enter")
        try tmux.waitForScreen(pane, "the same screen after fg") { $0 == before }
        // Still working: q ends it and the shell is back.
        try tmux.send(pane, "q")
        try tmux.waitForScreen(pane, "the prompt after q") { $0.lines.last { !$0.isEmpty } == "shell$" && isShell($0) }
        try tmux.send(pane, "exit", "Enter")
    }

    /// Run by tmux directly (no job-control shell: an orphaned process group), ctrl-z must not
    /// freeze the pane for good: the stop is discarded and the browser goes on.
    @Test func ctrlZWithoutAShellDoesNotFreeze() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let tmux = try TmuxSession(columns: 100, rows: 20)
        defer { tmux.close() }
        let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", dir.path + "/s", "--scene", "a"],
                                  environment: ["QUAKETUI_FEED_BASE_URL": "file:///nonexistent-quaketui-feed"])
        try tmux.waitForScreen(pane, timeout: 20, "the first frame") { $0.header.isOf(scene: "a") }
        try tmux.send(pane, "C-z")
        try tmux.send(pane, "?")
        try tmux.waitForScreen(pane, "the help after ctrl-z") { $0.header.isOf(scene: "a") && $0.overlay?.title == "Keys" }
        try tmux.send(pane, "Escape")
        try tmux.waitForScreen(pane, "the help closed") { $0.header.isOf(scene: "a") && $0.overlay == nil }
        try tmux.send(pane, "q")
        #expect(try tmux.waitForExit(pane) == 0)
    }
}
