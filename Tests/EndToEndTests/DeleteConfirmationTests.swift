import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 31.6: `delete --all` asks on a terminal (`y` deletes, anything else keeps them),
/// `--yes` deletes without asking, and without a terminal and without `--yes` it is a usage error.
@Suite(.waitsOnProcesses) struct DeleteConfirmationTests {
    static func store(_ count: Int) throws -> TestStore {
        let store = try TestStore()
        try store.upsert((0..<count).map { .fixture("q\($0)", time: 1_700_000_000_000 + Int64($0) * 86_400_000) })
        return store
    }

    static func stored(_ store: TestStore) throws -> Int? {
        try QuaketuiBinary.run(["info", "--json"], stateDirectory: store.directory.url).json()["quakes"] as? Int
    }

    @Test func withoutATerminalItNeedsYes() throws {
        let store = try Self.store(6)
        defer { store.remove() }
        let refused = try QuaketuiBinary.run(["delete", "--all"], stateDirectory: store.directory.url)
        #expect(refused.status == 64)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.split(separator: "\n").first.map(String.init) == "Error: delete --all asks before deleting every quake, "
                + "and there is no terminal to ask on: add --yes to delete them all without asking.", "\(refused.stderr)")
        #expect(try Self.stored(store) == 6)
        let yes = try QuaketuiBinary.run(["delete", "--all", "--yes", "--json"], stateDirectory: store.directory.url)
        #expect(yes.status == 0, "\(yes.stderr)")
        #expect(try yes.json()["deleted"] as? Int == 6)
        #expect(try Self.stored(store) == 0)
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
    func onATerminalItAsksAndOnlyYDeletes() throws {
        let store = try Self.store(1_234)
        defer { store.remove() }
        let tmux = try TmuxSession(columns: 100, rows: 10)
        defer { tmux.close() }
        let question = "Delete all 1,234 quakes and their notes? y deletes, anything else keeps them:"
        // Anything but y keeps them (here `n`).
        let pane = try tmux.start(QuaketuiBinary.url.path, ["delete", "--all", "--state-dir", store.directory.path])
        try tmux.waitForScreen(pane, "the question") { $0.textLines == [question] }
        try tmux.send(pane, "n", "Enter")
        #expect(try tmux.waitForExit(pane) == 0)
        #expect(try tmux.screen(pane).textLines == [question + " n", "Nothing deleted (1,234 quakes kept)."])
        #expect(try Self.stored(store) == 1_234)
        // y deletes.
        try tmux.respawn(pane, QuaketuiBinary.url.path, ["delete", "--all", "--state-dir", store.directory.path])
        try tmux.waitForScreen(pane, "the question again") { $0.textLines.last == question }
        try tmux.send(pane, "y", "Enter")
        #expect(try tmux.waitForExit(pane) == 0)
        #expect(try tmux.screen(pane).textLines.suffix(2) == [question + " y", "deleted 1,234 quakes (0 left)"])
        #expect(try Self.stored(store) == 0)
    }
}
