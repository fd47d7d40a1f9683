import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

@Suite struct SceneCatalogueTests {
    /// Makes scene `id` with the given sort order and selection, flushed to disk.
    func makeScene(_ id: String, in state: StateDirectory, sort: String = "time", selected: String = "") throws {
        let storage = try SceneStorage(state: state, scene: try SceneID(validating: id), restoring: false)
        try storage.set(sort, for: SceneKeys.sortOrder)
        try storage.set(selected, for: SceneKeys.selectedQuake)
        try storage.set("map", for: SceneKeys.selectedTab)
        try storage.flush()
    }

    /// Sets the modification time of every file of scene `id` to `daysAgo` days before now.
    func age(_ id: String, in state: StateDirectory, daysAgo: Double) throws {
        let date = Date().addingTimeInterval(-daysAgo * 86_400)
        for name in try FileManager.default.contentsOfDirectory(atPath: state.scenesPath) where name.hasPrefix(id + ".") {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: state.scenesPath + "/" + name)
        }
    }

    @Test func listSummarizesEveryScene() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        try makeScene("left", in: state, sort: "magnitude", selected: "us7000abcd")
        try makeScene("right", in: state, sort: "region")
        let lease = try SceneLease.acquire(SceneIdentity(id: try SceneID(validating: "right"), source: .option), in: state)
        defer { lease.release() }

        let scenes = try SceneCatalogue(state: state).list()
        #expect(scenes.map(\.id.rawValue) == ["left", "right"])
        #expect(scenes[0].selectedQuake == "us7000abcd")
        #expect(scenes[0].sortOrder == "magnitude")
        #expect(scenes[0].selectedTab == "map")
        #expect(!scenes[0].isOpen)
        #expect(scenes[0].pid == nil)
        #expect(scenes[1].selectedQuake == nil)
        #expect(scenes[1].isOpen)
        #expect(scenes[1].pid == getpid())
        #expect(abs((scenes[0].lastUsed ?? .distantPast).timeIntervalSinceNow) < 60)

        let json = String(decoding: try JSONEncoder().encode(scenes), as: UTF8.self)
        #expect(json.contains("\"id\":\"left\""))
        #expect(json.contains("\"isOpen\":true"))
    }

    @Test func anEmptyStateDirectoryHasNoScenes() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        #expect(try SceneCatalogue(state: state).list().isEmpty)
        #expect(try SceneCatalogue(state: StateDirectory(path: dir.path + "/never-created")).list().isEmpty)
    }

    @Test func removeDeletesEveryFileOfTheSceneButRefusesAnOpenOne() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        try makeScene("left", in: state)
        try makeScene("right", in: state)
        try Data().write(to: URL(fileURLWithPath: state.scenesPath + "/left.plist.corrupt-20260101T000000Z"))
        let right = try SceneID(validating: "right")
        let lease = try SceneLease.acquire(SceneIdentity(id: right, source: .option), in: state)

        let catalogue = SceneCatalogue(state: state)
        let result = try catalogue.remove(["left", "right"])
        #expect(result.removed.map(\.rawValue) == ["left"])
        #expect(result.refused == [.init(id: right, pid: getpid())])
        #expect(files(in: state.scenesPath, withPrefix: "left").isEmpty)
        #expect(FileManager.default.fileExists(atPath: state.scenePlistPath(right)))

        let forced = try catalogue.remove(["right"], force: true)
        #expect(forced.removed == [right])
        #expect(files(in: state.scenesPath, withPrefix: "right").isEmpty)
        lease.release()
        // The scene can be taken again after a forced removal.
        _ = try SceneLease.acquire(SceneIdentity(id: right, source: .option), in: state)
    }

    @Test func removeRejectsBadAndUnknownIDs() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        try makeScene("left", in: state)
        let catalogue = SceneCatalogue(state: state)
        let bad = #expect(throws: QuakeScenesError.self) { try catalogue.remove(["../defaults"]) }
        #expect(bad?.code == .invalidSceneID)
        let unknown = #expect(throws: QuakeScenesError.self) { try catalogue.remove(["left", "nope"]) }
        #expect(unknown?.code == .sceneNotFound)
        #expect(unknown?.description.contains("quaketui scenes list") == true)
        #expect(FileManager.default.fileExists(atPath: state.scenePlistPath(try SceneID(validating: "left"))),
                "nothing is removed when any ID is bad")
    }

    @Test func removeAllKeepsOpenScenesUnlessForced() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        for id in ["a", "b", "c"] { try makeScene(id, in: state) }
        let lease = try SceneLease.acquire(SceneIdentity(id: try SceneID(validating: "b"), source: .option), in: state)
        defer { lease.release() }
        let result = try SceneCatalogue(state: state).removeAll()
        #expect(result.removed.map(\.rawValue) == ["a", "c"])
        #expect(result.refused.map(\.id.rawValue) == ["b"])
        #expect(try SceneCatalogue(state: state).list().map(\.id.rawValue) == ["b"])
    }

    @Test func pruneRemovesOnlyOldScenesThatNoProcessHolds() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        for id in ["old", "fresh", "oldopen"] { try makeScene(id, in: state) }
        let lease = try SceneLease.acquire(SceneIdentity(id: try SceneID(validating: "oldopen"), source: .option), in: state)
        defer { lease.release() }
        try age("old", in: state, daysAgo: 40)
        try age("oldopen", in: state, daysAgo: 40)
        try age("fresh", in: state, daysAgo: 2)
        let result = try SceneCatalogue(state: state).prune(olderThanDays: 30)
        #expect(result.removed.map(\.rawValue) == ["old"])
        #expect(result.refused.map(\.id.rawValue) == ["oldopen"])
        #expect(try SceneCatalogue(state: state).list().map(\.id.rawValue) == ["fresh", "oldopen"])
    }

    @Test func aSceneHeldByAChildProcessShowsItsPID() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let ready = dir.path + "/ready"
        let child = try launchChild("scene-hold", state: state, scene: "pane", ready: ready, logDirectory: dir.path)
        defer { child.kill() }
        try child.waitForFile(ready, timeout: 30)
        let summary = try #require(try SceneCatalogue(state: state).list().first)
        #expect(summary.id.rawValue == "pane")
        #expect(summary.isOpen)
        #expect(summary.pid == child.pid)
        child.kill()
        #expect(try SceneCatalogue(state: state).list().first?.isOpen == false)
    }

    @Test func summariesEncodeLastUsedAsISO8601AndRoundTrip() throws {
        let summary = SceneSummary(id: .main, lastUsed: Date(timeIntervalSince1970: 1_763_800_000),
                                   selectedQuake: "us7000abcd", sortOrder: "time", selectedTab: "map",
                                   isOpen: false, pid: nil)
        let data = try JSONEncoder().encode(summary)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"lastUsed\":\"2025-11-22T08:26:40Z\""))
        #expect(try JSONDecoder().decode(SceneSummary.self, from: data) == summary)
    }

    @Test func removingASceneDropsOpensStillWaitingForIt() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        try makeScene("left", in: state)
        let left = try SceneID(validating: "left")
        let center = try ActivityCenter(state: state)
        _ = try center.open("us7000abcd", in: left)
        _ = try center.open("ci40123456", in: .main)
        _ = try SceneCatalogue(state: state).remove(["left"])
        #expect(try center.takeActivity(for: left) == nil)
        #expect(try center.takeActivity(for: .main)?.quakeCode == "ci40123456")
    }
}
