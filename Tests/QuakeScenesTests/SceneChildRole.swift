import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

/// The other side of the multi-process tests: when the test binary is re-launched with
/// `QUAKETUI_TEST_CHILD_ROLE` set (see ``SceneChildProcess``), this test plays that role.
/// Parameters come from the environment: `SCENE_STATE` (state directory), `SCENE_ID`,
/// `SCENE_READY` (a file to create once the role's work is done), `APP_PREFIX`, `APP_COUNT`.
@Suite struct SceneChildRole {
    static let filter = "SceneChildRole"
    /// How many distinct keys each app-storage writer cycles through.
    static let hammerKeys = 25

    @Test(.enabled(if: SceneChildProcess.currentRole != nil, "runs only inside a re-launched child process"))
    func actAsChild() throws {
        let env = ProcessInfo.processInfo.environment
        let state = StateDirectory(path: env["SCENE_STATE"]!)
        let scene = try SceneID(validating: env["SCENE_ID"] ?? "main")
        let ready = env["SCENE_READY"] ?? ""
        func signalReady() { _ = FileManager.default.createFile(atPath: ready, contents: Data()) }

        switch SceneChildProcess.currentRole {
        case "scene-set-keys":
            // Set every key and then hang, without flushing: only the background write can save them.
            let storage = try SceneStorage(state: state, scene: scene, restoring: false)
            try SampleScene.apply(to: storage)
            signalReady()
            sleepWhileParentLives()
        case "scene-write-loop":
            // Rewrite the file as fast as possible, with values of changing size, until killed.
            let storage = try SceneStorage(state: state, scene: scene, restoring: false)
            var n = 0
            let parent = getppid()
            while getppid() == parent {
                n += 1
                try storage.set(String(repeating: "x", count: n % 5000), for: SceneKeys.searchText)
                try storage.set((0..<(n % 200)).map { "section-\($0)" }, for: SceneKeys.collapsedSections)
                try storage.flush()
                if n == 1 { signalReady() }
            }
        case "scene-crash-while-restoring":
            // A launch that restores, changes state, and dies before its first frame.
            let storage = try SceneStorage(state: state, scene: scene, restoring: true)
            try storage.set("crashy", for: SceneKeys.selectedQuake)
            try storage.flush()
            signalReady()
            sleepWhileParentLives()
        case "scene-load-set-flush":
            // Load the scene (under the fault shim, the test makes its reads fail), change one
            // key, save, and exit: a save that fails is reported in the ready file.
            let storage = try SceneStorage(state: state, scene: scene, restoring: false)
            try storage.set("after-fault", for: SceneKeys.searchText)
            var outcome = "saved"
            do { try storage.flush() } catch { outcome = "\(error)" }
            _ = FileManager.default.createFile(atPath: ready, contents: Data(outcome.utf8))
        case "scene-hold":
            let lease = try SceneLease.acquire(SceneIdentity(id: scene, source: .option), in: state)
            signalReady()
            sleepWhileParentLives()
            withExtendedLifetime(lease) {}
        case "app-hammer":
            let storage = try AppStorage(state: state)
            let prefix = env["APP_PREFIX"]!
            let count = Int(env["APP_COUNT"]!)!
            let go = env["SCENE_GO"]!
            signalReady()
            let parent = getppid()
            while !FileManager.default.fileExists(atPath: go) {
                guard getppid() == parent else { return }
                usleep(1_000)
            }
            // Each set must leave every key this process set earlier intact: check the file
            // before every write, so a lost update anywhere in the run is caught, not only at the end.
            var expected: [String: PropertyListItem] = [:]
            var lost = 0
            for i in 0..<count {
                if let root = readPlist(state.defaultsPath) {
                    lost += expected.filter { root[$0.key] != $0.value }.count
                }
                let name = "hammer.\(prefix).\(i % SceneChildRole.hammerKeys)"
                try storage.set(i, for: AppKey<Int>(name, default: -1))
                expected[name] = .int(i)
            }
            #expect(lost == 0, "\(prefix) saw \(lost) lost updates")
        default:
            Issue.record("unknown child role \(SceneChildProcess.currentRole ?? "")")
        }
    }
}

/// Launches the test binary as a child playing `role` against `state`.
func launchChild(_ role: String, state: StateDirectory, scene: String = "main", ready: String,
                 extra: [String: String] = [:], logDirectory: String) throws -> SceneChildProcess {
    var env = ["SCENE_STATE": state.path, "SCENE_ID": scene, "SCENE_READY": ready]
    env.merge(extra) { _, new in new }
    return try SceneChildProcess.launch(role: role, filter: SceneChildRole.filter, environment: env,
                                        logDirectory: logDirectory)
}

/// Sleeps up to 60 s, returning early if the parent test process goes away, so an
/// interrupted test run leaves no child behind for long.
private func sleepWhileParentLives() {
    let parent = getppid()
    for _ in 0..<600 where getppid() == parent {
        usleep(100_000)
    }
}
