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
        let tmux = TmuxPaneQuery { pane in pane == "%3" ? "work 2 1" : nil }
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
        let asked = TmuxPaneQuery { _ in Issue.record("tmux was asked outside tmux"); return nil }
        #expect(try SceneIdentity.resolve(option: nil, environment: [:], tmux: asked).id == .main)
        let failing = TmuxPaneQuery { _ in nil }
        #expect(try SceneIdentity.resolve(option: nil, environment: ["TMUX": "x"], tmux: failing).id == .main)
        let garbage = TmuxPaneQuery { _ in "no indexes here" }
        #expect(try SceneIdentity.resolve(option: nil, environment: ["TMUX": "x"], tmux: garbage).id == .main)
    }

    @Test(arguments: [
        ("my session 0 1\n", "tmux-my_session-0-1"),
        ("../../etc 3 4", "tmux-.._.._etc-3-4"),
        ("\(String(repeating: "s", count: 100)) 1 2", "tmux-" + String(repeating: "s", count: 59)),
    ])
    func tmuxPanesBecomeSanitizedIDs(_ line: String, _ expected: String) throws {
        let tmux = TmuxPaneQuery { _ in line }
        let identity = try SceneIdentity.resolve(option: nil, environment: ["TMUX": "x", "TMUX_PANE": "%1"], tmux: tmux)
        #expect(identity.id.rawValue == expected)
        #expect(!identity.isExplicit)
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
}
