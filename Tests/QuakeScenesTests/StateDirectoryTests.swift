import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

@Suite struct StateDirectoryTests {
    let env = ["QUAKETUI_STATE_DIR": "/env/state", "XDG_STATE_HOME": "/xdg", "HOME": "/home/u"]

    @Test func theOptionWinsOverEverything() {
        let dir = StateDirectory.resolve(option: "rel/dir", environment: env, currentDirectory: "/work", fileExists: { _ in true })
        #expect(dir.path == "/work/rel/dir")
        #expect(dir.source == .option)
    }

    @Test func theEnvironmentVariableComesNext() {
        let dir = StateDirectory.resolve(option: nil, environment: env, currentDirectory: "/work", fileExists: { _ in true })
        #expect(dir.path == "/env/state")
        #expect(dir.source == .environment)
    }

    @Test func dotStateIsUsedOnlyWithItsMarker() {
        var env = self.env
        env["QUAKETUI_STATE_DIR"] = nil
        let marked = StateDirectory.resolve(option: nil, environment: env, currentDirectory: "/repo",
                                            fileExists: { $0 == "/repo/state/.quaketui" })
        #expect(marked.path == "/repo/state")
        #expect(marked.source == .workingDirectory)
        let unmarked = StateDirectory.resolve(option: nil, environment: env, currentDirectory: "/repo", fileExists: { _ in false })
        #expect(unmarked.path == "/xdg/quaketui")
        #expect(unmarked.source == .xdgStateHome)
    }

    @Test func homeIsTheLastResortAndARelativeXDGPathIsIgnored() {
        let home = StateDirectory.resolve(option: nil, environment: ["HOME": "/home/u", "XDG_STATE_HOME": "relative"],
                                          currentDirectory: "/w", fileExists: { _ in false })
        #expect(home.path == "/home/u/.local/state/quaketui")
        #expect(home.source == .home)
    }

    @Test func emptyValuesAreIgnored() {
        let dir = StateDirectory.resolve(option: "", environment: ["QUAKETUI_STATE_DIR": "", "HOME": "/h"],
                                         currentDirectory: "/w", fileExists: { _ in false })
        #expect(dir.path == "/h/.local/state/quaketui")
    }

    @Test func paths() throws {
        let dir = StateDirectory(path: "/s")
        #expect(dir.storeURL.path == "/s/quakes.sqlite")
        #expect(dir.defaultsPath == "/s/defaults.plist")
        #expect(dir.activityPath == "/s/activity.plist")
        #expect(dir.scenePlistPath(try SceneID(validating: "left")) == "/s/scenes/left.plist")
        #expect(dir.sceneLockPath(.main) == "/s/scenes/main.lock")
    }

    @Test func preparingCreatesPrivateDirectories() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let state = try StateDirectory(path: tmp.path + "/a/b/state").prepared()
        for path in [state.path, state.scenesPath] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(path)")
        }
        #expect(files(in: state.path, withPrefix: ".probe").isEmpty)
    }

    @Test func aPathThatCannotBeADirectoryGivesAClearError() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let file = tmp.path + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let error = #expect(throws: QuakeScenesError.self) { try StateDirectory(path: file + "/state").prepared() }
        #expect(error?.code == .stateDirectoryUnusable)
        #expect(error?.description.contains(file) == true)
        #expect(error?.description.contains("--state-dir") == true)
        let notDir = #expect(throws: QuakeScenesError.self) { try StateDirectory(path: file).prepared() }
        #expect(notDir?.description.contains("not a directory") == true)
    }

    @Test(.enabled(if: getuid() != 0, "root can write to a read-only directory"))
    func aReadOnlyDirectoryGivesAClearError() throws {
        let tmp = try TemporaryDirectory()
        defer {
            chmod(tmp.path + "/ro", 0o700)
            tmp.remove()
        }
        try FileManager.default.createDirectory(atPath: tmp.path + "/ro", withIntermediateDirectories: true)
        chmod(tmp.path + "/ro", 0o500)
        let error = #expect(throws: QuakeScenesError.self) { try StateDirectory(path: tmp.path + "/ro").prepared() }
        #expect(error?.description.contains("not writable") == true)
    }

    @Test func aReadOnlyFileSystemGivesAClearError() throws {
        // /proc is read-only even for root.
        let error = #expect(throws: QuakeScenesError.self) { try StateDirectory(path: "/proc/quaketui-state").prepared() }
        #expect(error?.code == .stateDirectoryUnusable)
        #expect(error?.description.contains("/proc/quaketui-state") == true)
    }
}
