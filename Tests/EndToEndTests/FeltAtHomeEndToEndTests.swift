import Foundation
import Glibc
import QuakeTestSupport
import Testing

/// Issue 55 end to end: `quaketui status` in a real tmux `status-right` (a second tmux server
/// whose client runs in a pane of the first, so that its status bar is on a captured screen),
/// updating when quakes arrive; the intensity everywhere agreeing with `list --json`.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
struct FeltAtHomeEndToEndTests {
    /// Aksaray, Turkey, and the moment the status line answers for (`--at`).
    static let home = (latitude: 38.37, longitude: 34.03)
    static let at = "2026-01-01T00:00:00Z"
    static let atMs: Int64 = 1_767_225_600_000

    /// A GeoJSON feature `northKm` north of home (or at `longitude`/`latitude`), `minutesAgo` before `at`.
    static func nearHome(_ id: String, _ magnitude: Double, northKm: Double, depth: Double = 10, minutesAgo: Int64,
                        alert: String? = nil, place: String, latitude: Double? = nil, longitude: Double? = nil) -> String {
        let lat = latitude ?? home.latitude + northKm / (6371.0088 * Double.pi / 180)
        let lon = longitude ?? home.longitude
        let alertField = alert.map { #","alert":"\#($0)""# } ?? ""
        return #"{"type":"Feature","properties":{"mag":\#(magnitude),"place":"\#(place)","time":\#(atMs - minutesAgo * 60_000)\#(alertField)},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat),\#(depth)]},"id":"\#(id)"}"#
    }

    /// Imports `features` into `state`, from a feed file `name` written in `folder` (default: beside `state`).
    static func importing(_ features: [String], into state: URL, _ name: String, folder: URL? = nil) throws {
        let feed = (folder ?? state.deletingLastPathComponent()).appendingPathComponent(name)
        try HostileInputTests.collection(features).write(to: feed, atomically: true, encoding: .utf8)
        let result = try QuaketuiBinary.run(["import", feed.path], stateDirectory: state)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The predicted intensity's numeral, computed apart from the app (`ExpectedResults`).
    static func numeral(_ magnitude: Double, northKm: Double, depth: Double = 10) -> String {
        let value = ExpectedResults.intensity(magnitude: magnitude, epicentralKm: northKm, depthKm: depth)!
        return ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][ExpectedResults.shown(value).whole - 1]
    }

    @Test func theStatusLineInTmuxStatusRightShowsTheQuakeThatMattersAndUpdates() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.url.appendingPathComponent("s")
        // A small quake near home 20 minutes ago, and one far away: no alert; the near one speaks.
        try Self.importing([Self.nearHome("near", 3.1, northKm: 14, minutesAgo: 20, place: "14 km N of Aksaray, Turkey"),
                            Self.nearHome("far", 4.0, northKm: 0, minutesAgo: 5, place: "Off Chile", latitude: -33, longitude: -72)],
                           into: state, "first.geojson")
        try QuaketuiBinary.config("home", "\(Self.home.latitude),\(Self.home.longitude)", "--name", "Aksaray", stateDirectory: state)
        try QuaketuiBinary.config("alertMagnitude", "5", stateDirectory: state)
        let first = "M3.1 14 km N · \(Self.numeral(3.1, northKm: 14)) · 20m"
        let direct = try QuaketuiBinary.run(["status", "--at", Self.at], stateDirectory: state)
        #expect(direct.status == 0 && direct.lines == [first], "\(direct.stdout)\(direct.stderr)")

        let inner = try TmuxSession(columns: 100, rows: 10)
        defer { inner.close() }
        let command = "\(QuaketuiBinary.url.path) status --state-dir \(state.path) --at \(Self.at)"
        try inner.command("set-option", "-g", "status-interval", "1")
        try inner.command("set-option", "-g", "status-right-length", "80")
        try inner.command("set-option", "-g", "status-right", "#(\(command))")
        let outer = try TmuxSession(columns: 100, rows: 10)
        defer { outer.close() }
        let client = try outer.start("/usr/bin/env", ["-u", "TMUX", "/usr/bin/tmux", "-L", inner.socket, "attach-session", "-t", "main"],
                                     environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        func statusBar(_ screen: String) -> String {
            (screen.split(separator: "\n", omittingEmptySubsequences: false).last { !$0.isEmpty }).map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
        }
        try outer.waitFor(client, timeout: 20, "the status line") { statusBar($0).hasSuffix(first) }

        // Two alerts arrive: the M 5.6 21 km away leads the M 6.4 off Chile (stronger shaking at home).
        try Self.importing([Self.nearHome("chile", 6.4, northKm: 0, minutesAgo: 12, alert: "green", place: "80 km W of Iquique, Chile",
                                         latitude: -20.2, longitude: -70.1),
                            Self.nearHome("aksaray", 5.6, northKm: 21, minutesAgo: 10, alert: "orange", place: "21 km N of Aksaray, Turkey")],
                           into: state, "second.geojson")
        let second = "M5.6 21 km N · \(Self.numeral(5.6, northKm: 21)) · 10m"
        let updated = try outer.waitFor(client, timeout: 20, "the status line to update") { statusBar($0).hasSuffix(second) }
        #expect(statusBar(updated).hasSuffix(second), "\(updated)")
        // The same quake, to one decimal, in list --json.
        let list = try QuaketuiBinary.run(["list", "--json", "--sort", "intensity", "--limit", "1"], stateDirectory: state)
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        let quake = ((object?["sections"] as? [[String: Any]])?.first?["quakes"] as? [[String: Any]])?.first
        #expect(quake?["code"] as? String == "aksaray")
        let value = ExpectedResults.intensity(magnitude: 5.6, epicentralKm: 21, depthKm: 10)!
        #expect(abs((quake?["intensityAtHome"] as? Double ?? 0) - ExpectedResults.shown(value).oneDecimal) < 1e-9, "\(list.stdout)")
        #expect(quake?["sArrivalSeconds"] as? Double == ((21.0 * 21 + 100).squareRoot() / 3.5 * 10).rounded() / 10)

        // --format, and nothing when nothing is worth saying (an hour later no alert is in the
        // last hour's radius, but alerts count for 24 hours; two days later: nothing).
        let formatted = try QuaketuiBinary.run(["status", "--at", Self.at, "--format", "%I at %p"], stateDirectory: state)
        #expect(formatted.lines.count == 1 && formatted.lines[0].hasSuffix(" at 21 km N of Aksaray, Turkey"), "\(formatted.stdout)")
        let later = try QuaketuiBinary.run(["status", "--at", "2026-01-03T00:00:00Z"], stateDirectory: state)
        #expect(later.status == 0 && later.stdout.isEmpty, "\(later.stdout)")
    }
}
