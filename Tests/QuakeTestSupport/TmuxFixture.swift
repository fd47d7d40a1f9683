/// A test's tmux server and state directory, closed together: `defer { fixture.close() }`.
public protocol TmuxFixture {
    var tmux: TmuxSession { get }
    var dir: TemporaryDirectory { get }
}

extension TmuxFixture {
    /// Kills the tmux server (waiting for the pane programs to exit, so none saves into a
    /// removed directory), then removes the state directory.
    public func close() {
        tmux.close()
        dir.remove()
    }
}
