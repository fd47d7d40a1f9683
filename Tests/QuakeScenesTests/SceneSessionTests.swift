import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

@Suite struct SceneSessionTests {
    /// A working directory holding a marked `state/` folder, as the repository checkout does.
    func makeCheckout() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "qs-session")
        try FileManager.default.createDirectory(atPath: dir.path + "/state", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.path + "/state/.quaketui", contents: Data())
        return dir
    }

    @Test func openResolvesTakesAndRestoresTheScene() throws {
        let dir = try makeCheckout()
        defer { dir.remove() }
        let first = try SceneSession.open(sceneOption: nil, stateDirectoryOption: nil, environment: [:],
                                          currentDirectory: dir.path, tmux: .none)
        #expect(first.state.path == dir.path + "/state")
        #expect(first.id == .main)
        #expect(first.storage.isRestoring)
        try first.storage.set("region", for: SceneKeys.sortOrder)
        first.storage.markFirstFrameDrawn()

        // A second browser in the same place gets a new window-like scene.
        let second = try SceneSession.open(sceneOption: nil, stateDirectoryOption: nil, environment: [:],
                                           currentDirectory: dir.path, tmux: .none)
        #expect(second.id.rawValue == "main-2")
        // Naming the scene explicitly fails while the first one shows it.
        let error = #expect(throws: QuakeScenesError.self) {
            try SceneSession.open(sceneOption: "main", stateDirectoryOption: nil, environment: [:],
                                  currentDirectory: dir.path, tmux: .none)
        }
        #expect(error?.code == .sceneInUse)

        try first.close()
        let again = try SceneSession.open(sceneOption: "main", stateDirectoryOption: nil, environment: [:],
                                          currentDirectory: dir.path, tmux: .none)
        #expect(again.storage.value(for: SceneKeys.sortOrder) == "region")
        #expect(again.storage.takeNotice() == nil)
        second.closeAndDelete()
        #expect(try SceneCatalogue(state: again.state).list().map(\.id.rawValue) == ["main"])
    }

    @Test func aBadSceneIsAUsageErrorWithNoSideEffects() throws {
        let dir = try TemporaryDirectory(prefix: "qs-session")
        defer { dir.remove() }
        let error = #expect(throws: QuakeScenesError.self) {
            try SceneSession.open(sceneOption: "../escape", stateDirectoryOption: dir.path + "/s", environment: [:],
                                  currentDirectory: dir.path, tmux: .none)
        }
        #expect(error?.isUsageError == true)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/s"))
    }
}
