import Foundation
import QuakeScenes
import QuakeStore
import QuakeTestSupport
import Testing

/// `quaketui scenes [list|rm ID...|rm --all|prune --older-than DAYS] [--json]`.
@Suite(.waitsOnProcesses) struct ScenesCommandTests {
    /// A state directory with scenes `left` (selecting us7000abcd) and `right`, both closed.
    static func stateWithScenes() throws -> (TemporaryDirectory, StateDirectory) {
        let dir = try TemporaryDirectory()
        let state = try StateDirectory(path: dir.path).prepared()
        for (id, code) in [("left", "us7000abcd"), ("right", "")] {
            let storage = try SceneStorage(state: state, scene: SceneID(validating: id), restoring: false)
            try storage.set(code, for: SceneKeys.selectedQuake)
            try storage.set("magnitude", for: SceneKeys.sortOrder)
            try storage.close()
        }
        return (dir, state)
    }

    static func scenes(_ dir: TemporaryDirectory) throws -> [[String: Any]] {
        let result = try QuaketuiBinary.run(["scenes", "--json"], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try result.json()["scenes"] as? [[String: Any]])
    }

    @Test func listShowsEveryScene() throws {
        let (dir, _) = try Self.stateWithScenes()
        defer { dir.remove() }
        let scenes = try Self.scenes(dir)
        #expect(scenes.map { $0["id"] as? String } == ["left", "right"])
        #expect(scenes[0]["selectedQuake"] as? String == "us7000abcd")
        #expect(scenes[0]["sortOrder"] as? String == "magnitude")
        #expect(scenes[0]["isOpen"] as? Bool == false)
        #expect(scenes[0]["lastUsed"] is String)

        let text = try QuaketuiBinary.run(["scenes", "list"], stateDirectory: dir.url)
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID") && Set(Screen.words(lines[0], separatedBy: 2)).isSuperset(of: ["LAST USED", "SELECTED QUAKE"]),
                "\(lines[0])")
        #expect(lines[1].hasPrefix("left ") && lines[1].split(separator: " ").filter { $0 == "us7000abcd" }.count == 1, "\(lines[1])")
        #expect(lines[2].hasPrefix("right "))
    }

    @Test func anEmptyStateDirectoryHasNoScenes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try Self.scenes(dir).isEmpty)
        let text = try QuaketuiBinary.run(["scenes"], stateDirectory: dir.url)
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("No scenes yet"))
    }

    @Test func listShowsTheProcessThatHasASceneOpen() throws {
        let (dir, state) = try Self.stateWithScenes()
        defer { dir.remove() }
        let lease = try SceneLease.acquire(SceneIdentity(id: SceneID(validating: "left"), source: .option), in: state)
        defer { lease.release() }
        let scenes = try Self.scenes(dir)
        #expect(scenes[0]["isOpen"] as? Bool == true)
        #expect(scenes[0]["pid"] as? Int == Int(getpid()))
        let text = try QuaketuiBinary.run(["scenes"], stateDirectory: dir.url)
        // The table's row of scene left ends with the OPEN IN column, whole.
        #expect(text.lines.filter { $0.hasPrefix("left ") }.map { Screen.words($0, separatedBy: 2).last } == ["process \(getpid())"],
                "\(text.stdout)")
    }

    @Test func rmDeletesTheNamedScenesAndTheirPendingActivities() throws {
        let (dir, state) = try Self.stateWithScenes()
        defer { dir.remove() }
        #expect(try QuaketuiBinary.run(["open", "us7000abcd", "--scene", "left"], stateDirectory: dir.url).status == 0)
        let result = try QuaketuiBinary.run(["scenes", "rm", "left", "--json"], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["removed"] as? [String] == ["left"])
        #expect((json["refused"] as? [Any])?.isEmpty == true)
        #expect(try Self.scenes(dir).map { $0["id"] as? String } == ["right"])
        #expect(!FileManager.default.fileExists(atPath: dir.appending("scenes/left.plist").path))
        #expect(try ActivityCenter(state: state).takeActivity(for: SceneID(validating: "left")) == nil)

        let text = try QuaketuiBinary.run(["scenes", "rm", "right"], stateDirectory: dir.url)
        #expect(text.stdout == "removed 1 scene: right\n")
    }

    @Test func rmAllKeepsAnOpenSceneAndFailsNamingItsProcess() throws {
        let (dir, state) = try Self.stateWithScenes()
        defer { dir.remove() }
        let lease = try SceneLease.acquire(SceneIdentity(id: SceneID(validating: "left"), source: .option), in: state)
        defer { lease.release() }
        let result = try QuaketuiBinary.run(["scenes", "rm", "--all", "--json"], stateDirectory: dir.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: Scene left is open in process \(getpid())"), "\(result.stderr)")
        let json = try result.json()
        #expect(json["removed"] as? [String] == ["right"])
        let refused = try #require(json["refused"] as? [[String: Any]])
        #expect(refused.first?["id"] as? String == "left")
        #expect(refused.first?["pid"] as? Int == Int(getpid()))
        #expect(try Self.scenes(dir).map { $0["id"] as? String } == ["left"])

        let named = try QuaketuiBinary.run(["scenes", "rm", "left"], stateDirectory: dir.url)
        #expect(named.status == 1)
        #expect(named.errorLines == ["Error: Scene left is open in process \(getpid()); not removed: quit that browser first, "
                                     + "or press Q there to close the scene."], "\(named.stderr)")
        lease.release()
        #expect(try QuaketuiBinary.run(["scenes", "rm", "left"], stateDirectory: dir.url).status == 0)
    }

    @Test func pruneRemovesOnlyScenesUnusedForThatLong() throws {
        let (dir, _) = try Self.stateWithScenes()
        defer { dir.remove() }
        let old = Date().addingTimeInterval(-40 * 86_400)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.appending("scenes").path) where name.hasPrefix("left.") {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir.appending("scenes/\(name)").path)
        }
        let none = try QuaketuiBinary.run(["scenes", "prune", "--older-than", "60"], stateDirectory: dir.url)
        #expect(none.status == 0)
        #expect(none.stdout == "no scenes unused for 60 days\n")
        let result = try QuaketuiBinary.run(["scenes", "prune", "--older-than=30", "--json"], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["removed"] as? [String] == ["left"])
        #expect(try Self.scenes(dir).map { $0["id"] as? String } == ["right"])
    }

    /// prune keeps open scenes; it says so, and says when it removed nothing, instead of printing nothing.
    @Test func pruneSaysWhichOpenScenesItKept() throws {
        let (dir, state) = try Self.stateWithScenes()
        defer { dir.remove() }
        let lease = try SceneLease.acquire(SceneIdentity(id: SceneID(validating: "left"), source: .option), in: state)
        defer { lease.release() }
        let old = Date().addingTimeInterval(-40 * 86_400)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.appending("scenes").path) {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir.appending("scenes/\(name)").path)
        }
        let some = try QuaketuiBinary.run(["scenes", "prune", "--older-than", "30"], stateDirectory: dir.url)
        #expect(some.status == 0, "\(some.stderr)")
        #expect(some.stdout == "pruned 1 scene: right\nkept 1 open scene: left (process \(getpid()))\n")
        #expect(some.stderr.isEmpty, "\(some.stderr)")
        let none = try QuaketuiBinary.run(["scenes", "prune", "--older-than", "30"], stateDirectory: dir.url)
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout == "no scenes pruned\nkept 1 open scene: left (process \(getpid()))\n")
        #expect(try Self.scenes(dir).map { $0["id"] as? String } == ["left"])
    }

    @Test(arguments: [
        (["scenes", "rm", "../etc"], #"The scene ID "../etc" is not valid: use 1 to 64 letters, digits, '.', '_' or '-' (not '.' or '..')."#),
        (["scenes", "rm", "left", "a b"], #"The scene ID "a b" is not valid: use 1 to 64 letters, digits, '.', '_' or '-' (not '.' or '..')."#),
        (["scenes", "rm"], "Say which scenes to remove: rm <id>... or rm --all."),
        (["scenes", "rm", "--all", "left"], "Give either scene IDs or --all, not both."),
        (["scenes", "prune"], "Say how old: prune --older-than <days>."),
        (["scenes", "prune", "--older-than", "soon"], "'soon' is not a number of days; use e.g. 30 or 0.5."),
        (["scenes", "list", "--all"], "--all goes with 'scenes rm'."),
        (["scenes", "frobnicate"], "Unknown scenes action 'frobnicate'; use list, rm or prune."),
    ])
    func badArgumentsExit64AndRemoveNothing(arguments: [String], message: String) throws {
        let (dir, _) = try Self.stateWithScenes()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url)
        #expect(result.status == 64)
        #expect(result.errorLines.first == "Error: " + message, "\(result.stderr)")
        #expect(result.errorLines.dropFirst().first?.hasPrefix("Usage: quaketui scenes") == true, "\(result.stderr)")
        #expect(try Self.scenes(dir).count == 2)
    }

    /// Issue 56.13: a scene `open --scene` sent a quake to before it ever started is listed,
    /// with the quake waiting for it, and `rm` removes it (and the quake); an unknown scene is
    /// a fact of the state directory (status 1), not a misuse of the command (64).
    @Test func aSceneAQuakeWaitsForIsListedAndRemovable() throws {
        let (dir, _) = try Self.stateWithScenes()
        defer { dir.remove() }
        let sent = try QuaketuiBinary.run(["open", "us7000zzzz", "--scene", "zz"], stateDirectory: dir.url)
        #expect(sent.status == 0, "\(sent.stderr)")
        let listed = try QuaketuiBinary.run(["scenes"], stateDirectory: dir.url, environment: ["TZ": "UTC"])
        let lines = listed.lines.map { Screen.words($0, separatedBy: 2) }
        #expect(lines.map(\.first) == ["ID", "left", "right", "zz"], "\(listed.stdout)")
        #expect(lines[0] == ["ID", "LAST USED", "SELECTED QUAKE", "WAITING", "OPEN IN"], "\(listed.stdout)")
        #expect(Array(lines[1].dropFirst(2)) == ["us7000abcd", "—", "—"], "\(listed.stdout)")
        #expect(Array(lines[3].dropFirst(2)) == ["—", "us7000zzzz", "—"], "\(listed.stdout)")
        let json = try Self.scenes(dir)
        #expect(json.map { $0["pendingQuake"] as? String } == [nil, nil, "us7000zzzz"])

        let removed = try QuaketuiBinary.run(["scenes", "rm", "zz"], stateDirectory: dir.url)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout == "removed 1 scene: zz\n")
        #expect(try Self.scenes(dir).map { $0["id"] as? String } == ["left", "right"])

        let again = try QuaketuiBinary.run(["scenes", "rm", "zz"], stateDirectory: dir.url)
        #expect(again.status == 1)
        #expect(again.errorLines == ["Error: There is no scene \"zz\" in the state directory (\(dir.path)/scenes); "
                                     + "run `quaketui scenes list` to see the scenes."], "\(again.stderr)")
        // A list with an unknown scene in it removes nothing.
        let mixed = try QuaketuiBinary.run(["scenes", "rm", "left", "zz"], stateDirectory: dir.url)
        #expect(mixed.status == 1)
        #expect(try Self.scenes(dir).count == 2)
    }

    /// Issue 56.16: many scenes are a column or a count, never a line of 900 characters.
    @Test func manyScenesArePrintedOneALineOrCounted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = try StateDirectory(path: dir.path).prepared()
        let ids = (1...7).map { "pane-\($0)" }
        for id in ids {
            let storage = try SceneStorage(state: state, scene: SceneID(validating: id), restoring: false)
            try storage.set("us7000abcd", for: SceneKeys.selectedQuake)
            try storage.close()
        }
        let old = Date().addingTimeInterval(-40 * 86_400)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.appending("scenes").path) {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir.appending("scenes/\(name)").path)
        }
        try PersistentContainer(directory: dir.url).close()  // a store, for info
        let info = try QuaketuiBinary.run(["info"], stateDirectory: dir.url)
        #expect(info.field("scenes") == "7 (0 open); 'quaketui scenes' lists them", "\(info.stdout)\(info.stderr)")
        let pruned = try QuaketuiBinary.run(["scenes", "prune", "--older-than", "30"], stateDirectory: dir.url)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout == "pruned 7 scenes:\n" + ids.map { "  \($0)\n" }.joined(), "\(pruned.stdout)")
    }

    @Test func helpDescribesTheActions() throws {
        let help = try QuaketuiBinary.run(["scenes", "--help"])
        #expect(help.status == 0)
        #expect(help.paragraphs.first { $0.hasPrefix("USAGE: ") }
                == "USAGE: quaketui scenes [list|rm <id>...|rm --all|prune --older-than <days>] [--json]", "\(help.stdout)")
        #expect(help.sentence(startingWith: "A scene open in a running browser ") == "A scene open in a running browser is not removed: "
                + "rm says which process has it and exits with status 1 (quit that browser first).", "\(help.stdout)")
        #expect(help.sentence(startingWith: "An unknown ID ")
                == "An unknown ID exits with status 1, an invalid one is a usage error (status 64); either way nothing is removed.",
                "\(help.stdout)")
        #expect(help.option("--json") == "Print one JSON object on stdout.", "\(help.stdout)")
    }
}
