import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

/// Issue 29, point 3: an I/O error reading a scene file at launch does not reset the scene. The
/// file is left in place; the keys set meanwhile are saved over what it holds once it reads, and
/// never over an empty stand-in while it does not (reads failed by `tools/faults/faultshim.c`).
@Suite struct SceneReadFaultTests {
    static func savedScene() throws -> (TemporaryDirectory, StateDirectory) {
        let dir = try TemporaryDirectory()
        let state = StateDirectory(path: dir.path)
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try storage.set("us7000abcd", for: SceneKeys.selectedQuake)
        try storage.flush()
        try storage.close()
        return (dir, state)
    }

    static func runChild(_ state: StateDirectory, dir: TemporaryDirectory, failedReads: Int) throws -> String {
        let ready = dir.path + "/ready"
        let faults = try FaultShim.environment(calls: ["read"], path: "scenes/main.plist", nth: 1, times: failedReads)
        let child = try launchChild("scene-load-set-flush", state: state, ready: ready, extra: faults, logDirectory: dir.path)
        #expect(try child.wait(timeout: 120) == 0)
        return (try? String(contentsOfFile: ready, encoding: .utf8)) ?? "no ready file"
    }

    @Test func aSceneUnreadableAtLaunchKeepsItsKeysAndGetsTheNewOne() throws {
        let (dir, state) = try Self.savedScene()
        defer { dir.remove() }
        // Every attempt of the launch's load fails; the save's own read then succeeds.
        #expect(try Self.runChild(state, dir: dir, failedReads: AtomicFile.readAttempts) == "saved")
        #expect(filesSetAside(in: state.scenesPath).isEmpty)
        let reopened = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(reopened.value(for: SceneKeys.selectedQuake) == "us7000abcd")
        #expect(reopened.value(for: SceneKeys.searchText) == "after-fault")
    }

    @Test func aSceneThatStaysUnreadableIsNeitherMovedNorOverwritten() throws {
        let (dir, state) = try Self.savedScene()
        defer { dir.remove() }
        let outcome = try Self.runChild(state, dir: dir, failedReads: 1_000)
        #expect(outcome.contains("Input/output error"), "\(outcome)")
        #expect(filesSetAside(in: state.scenesPath).isEmpty)
        let reopened = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(reopened.value(for: SceneKeys.selectedQuake) == "us7000abcd")
        #expect(reopened.value(for: SceneKeys.searchText) == "")
    }
}
