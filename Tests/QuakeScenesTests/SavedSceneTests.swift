import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

/// `SavedScene`: a scene's keys read from outside (`list --scene`, issue 56.11), with nothing
/// written, set aside or locked, so a pane showing the scene, even one still restoring, is
/// never disturbed.
@Suite struct SavedSceneTests {
    /// Every file of the scenes directory with its contents.
    func files(_ state: StateDirectory) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: state.scenesPath) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: state.scenesPath + "/" + name))
        }
        return files
    }

    @Test func readsTheSavedKeysAndTouchesNothing() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let id = try SceneID(validating: "left")
        let storage = try SceneStorage(state: state, scene: id, restoring: true)
        try storage.set("magnitude", for: SceneKeys.sortOrder)
        try storage.set("hawaii", for: SceneKeys.searchText)
        try storage.set(["depth 0-5"], for: SceneKeys.filters)
        try storage.flush()
        // The pane has not drawn its first frame: its crash marker is down, and must stay.
        #expect(FileManager.default.fileExists(atPath: state.sceneRestoringPath(id)))
        let before = try files(state)

        guard case .saved(let scene) = try SavedScene.read(id, in: state) else { Issue.record("not read"); return }
        #expect(scene.value(for: SceneKeys.sortOrder) == "magnitude")
        #expect(scene.value(for: SceneKeys.searchText) == "hawaii")
        #expect(scene.value(for: SceneKeys.filters) == ["depth 0-5"])
        #expect(scene.value(for: SceneKeys.nearHome) == false)  // a key never set: its default
        #expect(try files(state) == before)
    }

    @Test func aWrongValueReadsAsItsDefault() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let id = try SceneID(validating: "odd")
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>ContentView.sortOrder</key><string>shoe size</string>
            <key>ContentView.searchText</key><integer>3</integer></dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: state.scenePlistPath(id)))
        guard case .saved(let scene) = try SavedScene.read(id, in: state) else { Issue.record("not read"); return }
        #expect(scene.value(for: SceneKeys.sortOrder) == SceneKeys.sortOrder.defaultValue)
        #expect(scene.value(for: SceneKeys.searchText) == "")
        #expect(try String(contentsOfFile: state.scenePlistPath(id), encoding: .utf8) == plist)
    }

    @Test func aPendingSceneAndAnUnknownOne() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let zz = try SceneID(validating: "zz")
        guard case .unknown = try SavedScene.read(zz, in: state) else { Issue.record("zz is known"); return }
        try ActivityCenter(state: state).send(.showQuake(code: "us7000abcd"), to: zz)
        guard case .pending(let quake) = try SavedScene.read(zz, in: state) else { Issue.record("zz is not pending"); return }
        #expect(quake == "us7000abcd")
    }

    @Test func aFileThatIsNoPropertyListIsAnErrorAndStaysInPlace() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let id = try SceneID(validating: "bad")
        try Data("not a plist".utf8).write(to: URL(fileURLWithPath: state.scenePlistPath(id)))
        #expect(throws: QuakeScenesError.self) { try SavedScene.read(id, in: state) }
        #expect(try files(state) == ["bad.plist": Data("not a plist".utf8)])
    }
}
