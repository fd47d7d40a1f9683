import Foundation
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 17 through the real binary: hostile records, names and stores.
@Suite struct HostileInputTests {
    static func feature(_ id: String, time: String, place: String = "10 km N of Somewhere, Chile") -> String {
        let place = place.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x22 || $0.value == 0x5C
            ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
        return #"{"type":"Feature","properties":{"mag":4.5,"place":"\#(place)","time":\#(time)},"geometry":{"type":"Point","coordinates":[-70.6,-33.4,10]},"id":"\#(id)"}"#
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
        #expect(imported.stdout.contains("2 skipped"), "\(imported.stdout)")
        #expect((imported.stdout + imported.stderr).contains("outside the supported years 0001…9999"), "\(imported.stdout)\(imported.stderr)")
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url.appendingPathComponent("s"))
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("\"ok\""))
    }

    /// Finding 6: a store the user made read-only keeps its mode; reading works, writing fails clearly.
    @Test func aReadOnlyStoreStaysReadOnly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.url.appendingPathComponent("s")
        let feed = dir.url.appendingPathComponent("one.geojson")
        try Self.collection([Self.feature("ok", time: "1700000000000")]).write(to: feed, atomically: true, encoding: .utf8)
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: state).status == 0)
        let store = state.appendingPathComponent("quakes.sqlite").path
        #expect(chmod(store, 0o400) == 0)
        for command in [["info"], ["info", "--json"], ["list"], ["list", "--json"]] {
            let result = try QuaketuiBinary.run(command, stateDirectory: state)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let second = dir.url.appendingPathComponent("two.geojson")
        try Self.collection([Self.feature("new", time: "1700000000001")]).write(to: second, atomically: true, encoding: .utf8)
        let importing = try QuaketuiBinary.run(["import", second.path], stateDirectory: state)
        #expect(importing.status == 1)
        #expect(importing.stderr.contains("is read-only"), "\(importing.stderr)")
        #expect(importing.stderr.contains("chmod u+w"), "\(importing.stderr)")
        var info = stat()
        #expect(stat(store, &info) == 0 && info.st_mode & 0o777 == 0o400, "the mode was changed")
        #expect(chmod(store, 0o600) == 0)
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: state)
        #expect(!list.stdout.contains("\"new\""))
    }
}
