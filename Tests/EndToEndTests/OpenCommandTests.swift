import Foundation
import QuakeScenes
import QuakeTestSupport
import Testing

/// `quaketui open CODE|EVENT-URL [--scene ID]`: continuing a "show this quake" activity.
@Suite(.waitsOnProcesses) struct OpenCommandTests {
    /// No scene named by the environment or tmux: the default scene is `main`.
    static let plainEnvironment = ["QUAKETUI_SCENE": "", "TMUX": ""]

    static func pending(_ dir: TemporaryDirectory, _ scene: String) throws -> UserActivity? {
        try ActivityCenter(state: StateDirectory(path: dir.path)).takeActivity(for: SceneID(validating: scene))
    }

    @Test func aCodeIsSentToTheDefaultSceneForItsNextLaunch() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(["open", "us7000abcd", "--json"], stateDirectory: dir.url,
                                            environment: Self.plainEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["code"] as? String == "us7000abcd")
        #expect(json["scene"] as? String == "main")
        #expect(json["isOpen"] as? Bool == false)
        #expect(json["inStore"] as? Bool == false)
        let activity = try #require(try Self.pending(dir, "main"))
        #expect(activity.type == UserActivity.showQuakeType)
        #expect(activity.quakeCode == "us7000abcd")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("quakes.sqlite").path), "open creates no store")
    }

    @Test func anEventURLGoesToTheNamedScene() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let url = "https://earthquake.usgs.gov/earthquakes/eventpage/ci40123456/executive"
        let result = try QuaketuiBinary.run(["open", url, "--scene", "left"], stateDirectory: dir.url,
                                            environment: Self.plainEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("sent ci40123456 to scene left: it shows the quake the next time that scene starts"))
        #expect(result.stdout == "sent ci40123456 to scene left: it shows the quake the next time that scene starts ('quaketui --scene left'); "
                + "ci40123456 is not in the store yet, so import or refresh a feed that has it.\n", "\(result.stdout)")
        #expect(try Self.pending(dir, "left")?.quakeCode == "ci40123456")
        #expect(try Self.pending(dir, "main") == nil)
    }

    @Test func quaketuiSceneNamesTheDefaultScene() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(["open", "us7000abcd"], stateDirectory: dir.url,
                                            environment: ["QUAKETUI_SCENE": "right", "TMUX": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.pending(dir, "right")?.quakeCode == "us7000abcd")
    }

    @Test func aSceneOpenInALiveProcessIsReportedAsLive() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = StateDirectory(path: dir.path)
        let lease = try SceneLease.acquire(SceneIdentity(id: .main, source: .option), in: state)
        defer { lease.release() }
        let center = try ActivityCenter(state: state)
        let delivered = Collected<UserActivity>()
        let token = center.onActivity(for: .main) { delivered.append($0) }
        defer { token.cancel() }
        let result = try QuaketuiBinary.run(["open", "us7000abcd", "--json"], stateDirectory: dir.url,
                                            environment: Self.plainEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["isOpen"] as? Bool == true)
        #expect(json["pid"] as? Int == Int(getpid()))
        #expect(eventually(timeout: 20) { !delivered.values.isEmpty })
        #expect(delivered.values.compactMap(\.quakeCode) == ["us7000abcd"], "the running scene picks the activity up live")
        let text = try QuaketuiBinary.run(["open", "us7000abcd"], stateDirectory: dir.url, environment: Self.plainEnvironment)
        #expect(text.stdout == "sent us7000abcd to scene main, open in process \(getpid()): it shows the quake within a second; "
                + "us7000abcd is not in the store yet, so import or refresh a feed that has it.\n", "\(text.stdout)")
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func aQuakeInTheStoreIsSaidToBeThere() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = SharedData.url("all_hour-2017-12-03.geojson").path
        #expect(try QuaketuiBinary.run(["import", feed], stateDirectory: dir.url).status == 0)
        let result = try QuaketuiBinary.run(["open", "NC72934355", "--json"], stateDirectory: dir.url,
                                            environment: Self.plainEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["code"] as? String == "nc72934355")
        #expect(try result.json()["inStore"] as? Bool == true)
        let text = try QuaketuiBinary.run(["open", "nc72934355"], stateDirectory: dir.url, environment: Self.plainEnvironment)
        #expect(text.stdout == "sent nc72934355 to scene main: it shows the quake the next time that scene starts "
                + "('quaketui --scene main').\n", "\(text.stdout)")
    }

    @Test(arguments: [
        (["open"], "Say which quake to open: a code like us7000abcd or a USGS event page URL."),
        (["open", "us7000abcd", "ci40123456"], "Unexpected argument 'ci40123456'. 'open' takes one argument, <code>."),
        (["open", "hello"], #""hello" is neither a quake code (like us7000abcd or iris:958596) nor a USGS event page URL (like https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd)."#),
        (["open", "https://example.com/earthquakes/eventpage/us7000abcd"],
         #""https://example.com/earthquakes/eventpage/us7000abcd" is neither a quake code (like us7000abcd or iris:958596) nor a USGS event page URL (like https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd)."#),
        (["open", "https://earthquake.usgs.gov/earthquakes/map/"], #""https://earthquake.usgs.gov/earthquakes/map/" is neither a quake code (like us7000abcd or iris:958596) nor a USGS event page URL (like https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd)."#),
        (["open", "us7000abcd", "--scene", "../../etc"], #"The scene ID "../../etc" is not valid: use 1 to 64 letters, digits, '.', '_' or '-' (not '.' or '..')."#),
        (["open", "us7000abcd", "--scene"], "Missing value for '--scene <id>'."),
    ])
    func badInputExits64AndSendsNothing(arguments: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url, environment: Self.plainEnvironment)
        #expect(result.status == 64)
        #expect(result.errorLines.first == "Error: " + message, "\(result.stderr)")
        #expect(result.errorLines.dropFirst().first?.hasPrefix("Usage: quaketui open ") == true, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("activity.plist").path))
    }

    @Test func helpSaysWhatHappensToACodeNotInTheStore() throws {
        let help = try QuaketuiBinary.run(["help", "open"])
        #expect(help.status == 0)
        #expect(help.sentence(startingWith: "A code the store")
                == "A code the store does not hold yet is still sent (a later import may bring it); the message says so and the exit status is 0.",
                "\(help.stdout)")
        #expect(help.option("--scene <id>") == "The scene to show the quake in (see above for the default).", "\(help.stdout)")
        #expect(help.sentence(startingWith: "The scene is ")
                == "The scene is --scene ID, else $QUAKETUI_SCENE, else this tmux pane's scene (tmux-SESSION-WINDOW-PANE), else main — the scene 'quaketui' would open here.",
                "\(help.stdout)")
    }
}
