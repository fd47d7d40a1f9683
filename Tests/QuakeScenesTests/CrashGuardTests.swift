import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

@Suite struct CrashGuardTests {
    /// The marker is on disk before the file is read, so a file whose load crashes the process
    /// is set aside by the next launch: the crash happens once, not on every launch (it used
    /// to be written after the load, so a crashing load never left one).
    @Test func aCrashWhileLoadingHappensOnce() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let earlier = try SceneStorage(state: state, scene: .main)
        try SampleScene.apply(to: earlier)
        try earlier.close()
        var markedWhenLoading = false
        do {
            _ = try SceneStorage(state: state, scene: .main, restoring: true, clock: .system) {
                markedWhenLoading = FileManager.default.fileExists(atPath: state.sceneRestoringPath(.main))
            }
            // … the load crashes the process here.
        }
        #expect(markedWhenLoading)
        let next = try SceneStorage(state: state, scene: .main)
        #expect(next.takeNotice()?.contains("stopped while restoring") == true)
        #expect(next.value(for: SceneKeys.selectedQuake) == "", "the file that crashed the load was set aside")
        next.markFirstFrameDrawn()
        let after = try SceneStorage(state: state, scene: .main)
        #expect(after.takeNotice() == nil, "no second crash, no second notice")
    }

    @Test func aLaunchThatDiesWhileRestoringMakesTheNextOneStartFresh() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        do {
            let first = try SceneStorage(state: state, scene: .main)   // restoring: true
            try SampleScene.apply(to: first)
            try first.flush()
            #expect(first.isRestoring)
            // … and the process dies here, before markFirstFrameDrawn().
        }
        let second = try SceneStorage(state: state, scene: .main)
        #expect(second.value(for: SceneKeys.selectedQuake) == "")
        #expect(second.value(for: SceneKeys.sortOrder) == "time")
        let notice = try #require(second.takeNotice())
        #expect(notice.contains("stopped while restoring"))
        #expect(notice.contains("main.plist.crashed-"))
        #expect(second.takeNotice() == nil)
        let aside = files(in: state.scenesPath, withPrefix: "main.plist.crashed-")
        #expect(aside.count == 1)
        #expect(readPlist(state.scenesPath + "/" + (aside.first ?? "")) == SampleScene.items)

        // This launch gets as far as drawing: the launch after it restores normally.
        try second.set("region", for: SceneKeys.sortOrder)
        try second.flush()
        second.markFirstFrameDrawn()
        let third = try SceneStorage(state: state, scene: .main)
        #expect(third.value(for: SceneKeys.sortOrder) == "region")
        #expect(third.takeNotice() == nil)
    }

    @Test func aLaunchThatDrewItsFirstFrameRestoresNormally() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let first = try SceneStorage(state: state, scene: .main)
        try SampleScene.apply(to: first)
        first.markFirstFrameDrawn()
        try first.flush()
        #expect(!first.isRestoring)
        let second = try SceneStorage(state: state, scene: .main)
        #expect(second.allItems == SampleScene.items)
        #expect(second.takeNotice() == nil)
        #expect(files(in: state.scenesPath, withPrefix: "main.plist.crashed-").isEmpty)
    }

    @Test func aCrashWithoutSavedStateStillStartsCleanly() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        _ = try SceneStorage(state: state, scene: .main)
        let second = try SceneStorage(state: state, scene: .main)
        #expect(second.takeNotice()?.contains("stopped while restoring") == true)
        #expect(second.allItems.isEmpty)
    }

    @Test func theGuardIsPerScene() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let other = try SceneID(validating: "other")
        let crashed = try SceneStorage(state: state, scene: other)
        try crashed.set("x", for: SceneKeys.searchText)
        try crashed.flush()
        let healthy = try SceneStorage(state: state, scene: .main)
        #expect(healthy.takeNotice() == nil)
    }

    @Test func aChildKilledWhileRestoringTriggersTheGuard() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let ready = dir.path + "/ready"
        let child = try launchChild("scene-crash-while-restoring", state: state, ready: ready, logDirectory: dir.path)
        try child.waitForFile(ready, timeout: 30)
        child.kill()
        let next = try SceneStorage(state: state, scene: .main)
        #expect(next.value(for: SceneKeys.selectedQuake) == "")
        #expect(next.takeNotice()?.contains("stopped while restoring") == true)
        let aside = files(in: state.scenesPath, withPrefix: "main.plist.crashed-")
        #expect(aside.count == 1)
        #expect(readPlist(state.scenesPath + "/" + (aside.first ?? ""))?["ContentView.selectedQuake"] == .string("crashy"))
    }
}

@Suite struct CrashGuardCloseTests {
    @Test func anOrderlyCloseBeforeTheFirstFrameIsNotACrash() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let first = try SceneStorage(state: state, scene: .main)
        try first.set("region", for: SceneKeys.sortOrder)
        try first.close()
        let second = try SceneStorage(state: state, scene: .main)
        #expect(second.takeNotice() == nil)
        #expect(second.value(for: SceneKeys.sortOrder) == "region")
    }
}
