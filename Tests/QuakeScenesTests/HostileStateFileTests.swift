import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

/// Issue 17, findings 4 and 5: state files that are symbolic links or FIFOs (a cloned repository's
/// `./state` can ship them) are refused with a clear message: nothing is written outside the state
/// directory and nothing blocks.
@Suite struct HostileStateFileTests {
    /// A file outside the state directory holding "precious".
    private func victim(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path + "/victim.txt"
        try "precious".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aSymlinkedSceneLockIsRefusedAndItsTargetUntouched() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let victim = try victim(in: dir)
        let id = SceneID.main
        #expect(symlink(victim, state.sceneLockPath(id)) == 0)
        #expect(throws: QuakeScenesError.self) {
            _ = try SceneLease.acquire(SceneIdentity(id: id, source: .option), in: state)
        }
        do {
            _ = try SceneLease.tryAcquire(id, in: state)
        } catch let error as QuakeScenesError {
            #expect(error.code == .unsafeStateFile)
            #expect(error.description.contains("is a symbolic link"))
            #expect(error.description.contains("Remove it"))
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        // A probe (`scenes list`) neither follows it.
        #expect(SceneLease.holderPID(of: id, in: state) == nil)
    }

    @Test func aDanglingRestoringLinkDoesNotCreateItsTarget() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let id = SceneID.main
        let outside = dir.path + "/created-outside"
        #expect(symlink(outside, state.sceneRestoringPath(id)) == 0)
        let storage = try SceneStorage(state: state, scene: id, restoring: true)
        storage.markRestoring()
        try storage.close()
        #expect(!FileManager.default.fileExists(atPath: outside))
        var notices: [String] = []
        while let notice = storage.takeNotice() { notices.append(notice) }
        #expect(notices.contains { $0.contains("is a symbolic link") }, "\(notices)")
    }

    @Test func aSymlinkedScenePlistIsNotReadThroughNorWrittenThrough() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let victim = try victim(in: dir)
        let id = SceneID.main
        #expect(symlink(victim, state.scenePlistPath(id)) == 0)
        let storage = try SceneStorage(state: state, scene: id, restoring: false)
        try storage.set("us1", for: SceneKeys.selectedQuake)
        try storage.close()
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test func aSymlinkedScenesDirectoryIsRefused() throws {
        let dir = try TemporaryDirectory(prefix: "quakescenes")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path + "/elsewhere", withIntermediateDirectories: true)
        #expect(symlink(dir.path + "/elsewhere", dir.path + "/state/scenes") == 0)
        #expect(throws: QuakeScenesError.self) { _ = try StateDirectory(path: dir.path + "/state").prepared() }
    }

    /// `scenes/` swapped for a link after the directory was prepared: the files inside are
    /// opened relative to `scenes/` opened with O_NOFOLLOW, so nothing goes through it.
    @Test func aScenesDirectorySwappedForALinkLaterIsRefused() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: state.scenesPath)
        #expect(symlink(dir.path + "/elsewhere", state.scenesPath) == 0)
        do {
            _ = try FileLock.acquire(state.sceneLockPath(.main), wait: false)
            Issue.record("the lock was taken through the link")
        } catch let error as QuakeScenesError {
            #expect(error.code == .unsafeStateFile, "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/elsewhere").isEmpty)
    }

    /// Finding 5: FIFOs in place of the scene plist, defaults.plist, activity.plist and the lock.
    @Test func fifosNeverBlock() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let id = SceneID.main
        for path in [state.scenePlistPath(id), state.defaultsPath, state.activityPath] {
            #expect(mkfifo(path, 0o600) == 0)
        }
        let storage = try SceneStorage(state: state, scene: id, restoring: false)
        #expect(storage.value(for: SceneKeys.sortOrder) == SceneKeys.sortOrder.defaultValue)
        var notices: [String] = []
        while let notice = storage.takeNotice() { notices.append(notice) }
        #expect(notices.contains { $0.contains("FIFO") }, "\(notices)")
        try storage.close()

        let app = try AppStorage(state: state)
        #expect(app.value(for: AppKeys.distanceUnit) == AppKeys.distanceUnit.defaultValue)
        let activities = try ActivityCenter(state: state)
        #expect(activities.mostRecent() == nil)

        #expect(mkfifo(state.sceneLockPath(try SceneID(validating: "other")), 0o600) == 0)
        #expect(throws: QuakeScenesError.self) { _ = try SceneLease.tryAcquire(try SceneID(validating: "other"), in: state) }
        #expect(SceneLease.holderPID(of: try SceneID(validating: "other"), in: state) == nil)
    }
}
