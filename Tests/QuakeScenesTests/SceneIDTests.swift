import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

@Suite struct SceneIDTests {
    static let badIDs = ["../x", "a/b", "", String(repeating: "a", count: 200), ".", "..", "naïve", "a b", "x\n", "/etc"]

    @Test(arguments: badIDs)
    func anExplicitBadIDIsAUsageError(_ text: String) {
        let error = #expect(throws: QuakeScenesError.self) { try SceneID(validating: text) }
        #expect(error?.code == .invalidSceneID)
        #expect(error?.isUsageError == true)
        #expect(error?.description.contains("1 to 64 letters") == true)
    }

    @Test(arguments: badIDs)
    func aBadIDGivenWithDashDashSceneFailsResolution(_ text: String) {
        #expect(throws: QuakeScenesError.self) {
            try SceneIdentity.resolve(option: text, environment: [:], tmux: .none)
        }
    }

    @Test(arguments: [
        ("../x", ".._x"), ("a/b", "a_b"), ("", "_"), (".", "_"), ("..", "__"), ("naïve", "na_ve"),
        ("tmux-my work-0-1", "tmux-my_work-0-1"),
    ])
    func aDerivedIDIsSanitized(_ text: String, _ expected: String) {
        let id = SceneID(sanitizing: text)
        #expect(id.rawValue == expected)
        #expect(SceneID.isValid(id.rawValue))
    }

    @Test func aLongDerivedIDIsCutTo64Characters() {
        let id = SceneID(sanitizing: String(repeating: "b", count: 200))
        #expect(id.rawValue.count == 64)
        let numbered = id.numbered(17)
        #expect(numbered.rawValue.count == 64)
        #expect(numbered.rawValue.hasSuffix("-17"))
    }

    @Test(arguments: ["main", "tmux-work-2-1", "a.b_c-D9", String(repeating: "z", count: 64)])
    func goodIDsAreAccepted(_ text: String) throws {
        #expect(try SceneID(validating: text).rawValue == text)
    }

    @Test func resolutionOrderIsOptionThenEnvironmentThenTmuxThenMain() throws {
        let tmux = TmuxPaneQuery { pane, socket in pane == "%3" && socket == "/tmp/tmux-0/default" ? "work 2 1" : nil }
        let env = ["QUAKETUI_SCENE": "fromenv", "TMUX": "/tmp/tmux-0/default,1,0", "TMUX_PANE": "%3"]
        #expect(try SceneIdentity.resolve(option: "opt", environment: env, tmux: tmux)
                == SceneIdentity(id: SceneID(validating: "opt"), source: .option))
        #expect(try SceneIdentity.resolve(option: nil, environment: env, tmux: tmux)
                == SceneIdentity(id: SceneID(validating: "fromenv"), source: .environment))
        var noScene = env
        noScene["QUAKETUI_SCENE"] = nil
        #expect(try SceneIdentity.resolve(option: nil, environment: noScene, tmux: tmux)
                == SceneIdentity(id: SceneID(validating: "tmux-work-2-1"), source: .tmux))
        noScene["TMUX"] = nil
        #expect(try SceneIdentity.resolve(option: nil, environment: noScene, tmux: tmux)
                == SceneIdentity(id: .main, source: .fallback))
    }

    @Test func tmuxIsNotAskedOutsideTmuxAndAFailedQueryFallsBackToMain() throws {
        let asked = TmuxPaneQuery { _, _ in Issue.record("tmux was asked outside tmux"); return nil }
        #expect(try SceneIdentity.resolve(option: nil, environment: [:], tmux: asked).id == .main)
        let failing = TmuxPaneQuery { _, _ in nil }
        #expect(try SceneIdentity.resolve(option: nil, environment: ["TMUX": "x"], tmux: failing).id == .main)
        let garbage = TmuxPaneQuery { _, _ in "no indexes here" }
        #expect(try SceneIdentity.resolve(option: nil, environment: ["TMUX": "x"], tmux: garbage).id == .main)
    }

    @Test(arguments: [
        ("my session 0 1\n", "tmux-my_session-0-1"),
        ("../../etc 3 4", "tmux-.._.._etc-3-4"),
    ])
    func tmuxPanesBecomeSanitizedIDs(_ line: String, _ expected: String) throws {
        let tmux = TmuxPaneQuery { _, _ in line }
        let identity = try SceneIdentity.resolve(option: nil, environment: ["TMUX": "x", "TMUX_PANE": "%1"], tmux: tmux)
        #expect(identity.id.rawValue == expected)
        #expect(!identity.isExplicit)
    }

    /// Issue 17, finding 8: a long session name kept the first 64 characters, dropping the
    /// window and pane, so every pane of that session shared one scene.
    @Test func longSessionNamesKeepThePanePartAndStayDistinct() throws {
        let long = String(repeating: "s", count: 100)
        var ids: Set<String> = []
        for line in ["\(long) 1 2", "\(long) 1 3", "\(long) 2 2", "\(long)x 1 2", "\(long) 10 12"] {
            let id = try #require(SceneIdentity.tmuxSceneID(from: line))
            #expect(SceneID.isValid(id.rawValue))
            #expect(id.rawValue.count <= SceneID.maximumLength - 3, "room for -99: \(id)")
            let indexes = line.split(separator: " ").suffix(2).joined(separator: "-")
            #expect(id.rawValue.hasSuffix("-" + indexes), "\(id)")
            #expect(id.rawValue.hasPrefix("tmux-sss"), "\(id)")
            #expect(id == SceneIdentity.tmuxSceneID(from: line), "stable across launches")
            #expect(id.numbered(99).rawValue.hasPrefix(id.rawValue))
            ids.insert(id.rawValue)
        }
        #expect(ids.count == 5, "two panes share an ID: \(ids)")
        // A 61-character ID is left alone; one character more gains the hash.
        let fits = String(repeating: "a", count: 61 - "tmux--0-1".count)
        #expect(SceneIdentity.tmuxSceneID(from: "\(fits) 0 1")?.rawValue == "tmux-\(fits)-0-1")
        #expect(SceneIdentity.tmuxSceneID(from: "\(fits)a 0 1")?.rawValue.contains("_") == true)
    }

    @Test func aBadExplicitEnvironmentSceneIsAUsageError() {
        let error = #expect(throws: QuakeScenesError.self) {
            try SceneIdentity.resolve(option: nil, environment: ["QUAKETUI_SCENE": "../x"], tmux: .none)
        }
        #expect(error?.isUsageError == true)
    }

    @Test func sceneIDsDecodeOnlyWhenValid() throws {
        let good = try JSONDecoder().decode([SceneID].self, from: Data("[\"left\"]".utf8))
        #expect(good.first?.rawValue == "left")
        #expect(throws: (any Error).self) { try JSONDecoder().decode([SceneID].self, from: Data("[\"../x\"]".utf8)) }
    }

    static let hasTmux = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
        || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")

    @Test(.enabled(if: hasTmux, "needs tmux installed"))
    func theLiveQueryAsksARealTmuxServer() throws {
        let dir = try TemporaryDirectory(prefix: "qs-tmux")
        defer { dir.remove() }
        let socket = dir.path + "/sock"
        // posix_spawn + waitpid rather than Foundation's Process: the tmux client daemonizes a
        // server that inherits Process's exit-monitoring descriptors, and waitUntilExit then
        // never returns. Output goes to a file for the same reason.
        func tmux(_ arguments: [String]) throws -> String {
            let output = dir.path + "/out"
            let argv = ["tmux", "-f", "/dev/null", "-S", socket] + arguments
            var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
            defer { for arg in cArgs { free(arg) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            var pid: pid_t = 0
            let rc = posix_spawnp(&pid, "tmux", &actions, nil, &cArgs, environ)
            guard rc == 0 else { throw QuakeScenesError(.fileOperationFailed, errno: rc, detail: "posix_spawnp tmux") }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
        _ = try tmux(["new-session", "-d", "-s", "my work", "-x", "80", "-y", "24"])
        let serverPID = Int32(try tmux(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        defer {
            // kill-server, then make sure this test's own server is gone (by its PID).
            _ = try? tmux(["kill-server"])
            // A zombie counts as gone: this container's init does not reap orphans.
            let gone = {
                guard let stat = try? String(contentsOfFile: "/proc/\(serverPID)/stat", encoding: .utf8) else { return true }
                return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true
            }
            if serverPID > 0, !eventually(timeout: 2, gone) { kill(serverPID, SIGKILL) }
        }
        _ = try tmux(["split-window", "-t", "my work"])
        let panes = try tmux(["list-panes", "-t", "my work", "-F", "#{pane_id}"]).split(separator: "\n").map(String.init)
        #expect(panes.count == 2)
        let identity = try SceneIdentity.resolve(option: nil,
                                                 environment: ["TMUX": "\(socket),1,0", "TMUX_PANE": panes.last ?? ""],
                                                 tmux: .live)
        #expect(identity.id.rawValue == "tmux-my_work-0-1")
        #expect(identity.source == .tmux)
    }
}
