import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 17 through the real binary: hostile records, names and stores.
@Suite(.waitsOnProcesses) struct HostileInputTests {
    /// One USGS GeoJSON feature (the place escaped as JSON wants), for the feeds tests write.
    static func feature(_ id: String, time: String, place: String = "10 km N of Somewhere, Chile", magnitude: Double = 4.5,
                        latitude: Double = -33.4, longitude: Double = -70.6) -> String {
        let place = place.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x22 || $0.value == 0x5C
            ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
        return #"{"type":"Feature","properties":{"mag":\#(magnitude),"place":"\#(place)","time":\#(time)},"geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude),10]},"id":"\#(id)"}"#
    }

    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    /// Finding 1: extreme times are skipped with a reason, and `list` returns.
    @Test func extremeTimesAreSkippedAndListReturns() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = dir.url.appendingPathComponent("extreme.geojson")
        try Self.collection([Self.feature("far", time: "-1000000000000000"), Self.feature("late", time: "20000000000000000"),
                             Self.feature("ok", time: "1700000000000")]).write(to: feed, atomically: true, encoding: .utf8)
        let imported = try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url.appendingPathComponent("s"))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.lines.first?.hasPrefix("imported 1 quake (1 new, 0 updated, 0 unchanged, 2 skipped) in ") == true, "\(imported.stdout)")
        #expect(Array(imported.lines.dropFirst()) == [
            #"  skipped feature 1 (line 1): "time" -1000000000000000 is outside the supported years 0001…9999"#,
            #"  skipped feature 2 (line 1): "time" 20000000000000000 is outside the supported years 0001…9999"#,
        ], "\(imported.stdout)\(imported.stderr)")
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url.appendingPathComponent("s"))
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try list.listedCodes() == ["ok"], "\(list.stdout)")
    }

    /// Finding 6: a store the user made read-only keeps its mode; reading works, writing fails clearly.
    @Test func aReadOnlyStoreStaysReadOnly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.url.appendingPathComponent("s")
        let feed = dir.url.appendingPathComponent("one.geojson")
        try Self.collection([Self.feature("us7000abcd", time: "1700000000000")]).write(to: feed, atomically: true, encoding: .utf8)
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: state).status == 0)
        let store = state.appendingPathComponent("quakes.sqlite").path
        #expect(chmod(store, 0o400) == 0)
        for command in [["info"], ["info", "--json"], ["list"], ["list", "--json"], ["open", "us7000abcd", "--scene", "x"]] {
            let result = try QuaketuiBinary.run(command, stateDirectory: state)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let second = dir.url.appendingPathComponent("two.geojson")
        try Self.collection([Self.feature("new", time: "1700000000001")]).write(to: second, atomically: true, encoding: .utf8)
        let importing = try QuaketuiBinary.run(["import", second.path], stateDirectory: state)
        #expect(importing.status == 1)
        #expect(importing.errorLines == ["Error: The store \(store) is read-only (no write permission in its mode), and quaketui "
                                         + "never changes a mode it did not set: nothing was changed. To write to it, run "
                                         + "chmod u+w '\(store)'; or choose another state directory with --state-dir."],
                "\(importing.stderr)")
        var info = stat()
        #expect(stat(store, &info) == 0 && info.st_mode & 0o777 == 0o400, "the mode was changed")
        #expect(chmod(store, 0o600) == 0)
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: state)
        #expect(try list.listedCodes().allSatisfy { $0 != "new" }, "\(list.stdout)")
    }
}

/// Findings 4 and 5 for the store file itself: a FIFO or a symbolic link named quakes.sqlite.
@Suite(.waitsOnProcesses) struct HostileStoreFileTests {
    @Test func aFIFOOrALinkedStoreIsRefusedAtOnce() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/fifo", withIntermediateDirectories: true)
        #expect(mkfifo(dir.path + "/fifo/quakes.sqlite", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: dir.path + "/link", withIntermediateDirectories: true)
        try "precious".write(toFile: dir.path + "/victim", atomically: true, encoding: .utf8)
        #expect(symlink(dir.path + "/victim", dir.path + "/link/quakes.sqlite") == 0)
        for (state, kind) in [("fifo", "not a regular file"), ("link", "a symbolic link")] {
            for command in [["list"], ["info"], ["import", "-"]] {
                let result = try QuaketuiBinary.run(command, stateDirectory: dir.url.appendingPathComponent(state), stdin: "")
                #expect(result.status == 1, "\(state) \(command)")
                let store = dir.path + "/\(state)/quakes.sqlite"
                #expect(result.errorLines == ["Error: The store \(store) is \(kind); quaketui opens only a regular file there and never "
                                              + "follows links. Remove it (rm '\(store)') and try again."], "\(result.stderr)")
            }
        }
        #expect(try String(contentsOfFile: dir.path + "/victim", encoding: .utf8) == "precious")
    }
}

/// Issue 17, finding 3: nothing printed carries an escape sequence, a C1 control or a bidi override.
@Suite(.waitsOnProcesses) struct OutputSanitizingTests {
    static let osc52 = "us1\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;owned\u{07}"
    static let hostilePlace = "Evil\u{9B}31m \u{202E}gnp.exe\u{202C} Place\u{7F}"

    /// No ESC, BEL, C1 control, DEL or bidi override anywhere in `text`.
    static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains { s in
            (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
                || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
        }
    }

    @Test func scenesNeverPrintASavedSelectionRaw() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = try StateDirectory(path: dir.path + "/s").prepared()
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try storage.set(Self.osc52, for: SceneKeys.selectedQuake)
        try storage.set(Self.hostilePlace, for: SceneKeys.searchText)
        try storage.close()
        for arguments in [["scenes"], ["scenes", "list"], ["scenes", "--json"]] {
            let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url.appendingPathComponent("s"))
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(Self.isClean(result.stdout), "\(arguments): \(result.stdout.debugDescription)")
            #expect(Self.isClean(result.stderr), "\(arguments): \(result.stderr.debugDescription)")
        }
        let json = try QuaketuiBinary.run(["scenes", "--json"], stateDirectory: dir.url.appendingPathComponent("s"))
        // Escaped, not lost: the parsed JSON holds the saved selection as it was.
        #expect((try json.json()["scenes"] as? [[String: Any]])?.first?["selectedQuake"] as? String == Self.osc52, "\(json.stdout)")
        _ = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
    }

    @Test func importErrorsNeverEchoAFileNameRaw() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let hostile = dir.path + "/feed\u{1B}]0;owned\u{07}\u{9B}2J\u{202E}.geojson"
        let missing = try QuaketuiBinary.run(["import", hostile], stateDirectory: dir.url.appendingPathComponent("s"))
        #expect(missing.status == 1)
        #expect(Self.isClean(missing.stderr), "\(missing.stderr.debugDescription)")
        #expect(missing.errorLines == ["Error: \(dir.path)/feed.geojson: cannot open the file: No such file or directory; check the path."],
                "\(missing.stderr)")
        try "not a feed".write(toFile: hostile, atomically: true, encoding: .utf8)
        let bad = try QuaketuiBinary.run(["import", hostile], stateDirectory: dir.url.appendingPathComponent("s"))
        #expect(bad.status == 1)
        #expect(Self.isClean(bad.stderr), "\(bad.stderr.debugDescription)")
    }

    @Test func listEscapesUnsafeScalarsInJSONAndStripsThemInText() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = dir.url.appendingPathComponent("hostile.geojson")
        try HostileInputTests.collection([HostileInputTests.feature("h\u{9D}1", time: "1700000000000", place: Self.hostilePlace)])
            .write(to: feed, atomically: true, encoding: .utf8)
        let state = dir.url.appendingPathComponent("s")
        let imported = try QuaketuiBinary.run(["import", feed.path, "--json"], stateDirectory: state)
        #expect(imported.status == 0, "\(imported.stderr)")
        let json = try QuaketuiBinary.run(["list", "--json"], stateDirectory: state)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(Self.isClean(json.stdout), "\(json.stdout.debugDescription)")
        #expect(json.stdout.contains("\\u202e") && json.stdout.contains("\\u009b"), "\(json.stdout)")
        // Escaped, not lost: the parsed JSON holds the original text.
        let object = try json.json()
        let quake = ((object["sections"] as? [[String: Any]])?.first?["quakes"] as? [[String: Any]])?.first
        #expect(quake?["place"] as? String == Self.hostilePlace)
        let text = try QuaketuiBinary.run(["list"], stateDirectory: state)
        #expect(Self.isClean(text.stdout), "\(text.stdout.debugDescription)")
        #expect(text.stdout.contains("Place"))
    }
}
