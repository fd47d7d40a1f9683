import Foundation

/// Screens read through `Screen`, and waits on them.
extension TmuxSession {
    /// The pane now, parsed.
    public func screen(_ target: String) throws -> Screen { Screen(try capture(target)) }

    /// Waits until the pane shows a screen for which `condition` holds and returns it (see
    /// `waitFor` for the finished frame). With `settled` (the default), the screen must also be
    /// settled (`Screen.isSettled`: no count still pending): the browser never waits for a count,
    /// so on a loaded machine a frame may show a provisional window first, and a test that
    /// compares what it reads must read the frame the exact counts replace it with.
    @discardableResult
    public func waitForScreen(_ target: String, timeout: TimeInterval = 30, _ what: String = "condition",
                              settled: Bool = true, _ condition: (Screen) -> Bool) throws -> Screen {
        Screen(try waitFor(target, timeout: timeout, what) { text in
            let screen = Screen(text)
            return (!settled || screen.isSettled) && condition(screen)
        })
    }

    /// `waitForScreen` on the pane with its styles (`styledScreen`), settled: for conditions on
    /// the selected line.
    @discardableResult
    public func waitForStyledScreen(_ target: String, timeout: TimeInterval = 30, _ what: String = "condition",
                                    _ condition: (Screen) -> Bool) throws -> Screen {
        var found: Screen?
        _ = try waitFor(target, timeout: timeout, what) { _ in
            guard let screen = try? styledScreen(target), screen.isSettled, condition(screen) else { return false }
            found = screen
            return true
        }
        return try found ?? styledScreen(target)
    }

    /// The pane with its styles (`capture-pane -e`): which list line is selected, which reads
    /// only from the colours (the selection's background, or reverse video without colour).
    public func styledScreen(_ target: String) throws -> Screen {
        Screen(try capture(target), styled: try styledCapture(target))
    }

    /// `capture-pane -e -N`: the escapes, and the blanks at a line's end kept. Without `-N` tmux
    /// drops a line's last blanks, a reverse-video one too, when nothing was written after it,
    /// so the same screen drawn whole (a launch) or by a key's changes captured differently:
    /// a Notes tab's padding under `NO_COLOR` (issue 56.2).
    public func styledCapture(_ target: String) throws -> String {
        try command("capture-pane", "-e", "-N", "-p", "-t", target)
    }
}
