import Foundation
import Glibc
import QuakeTestSupport
import Testing

/// Issue 55 end to end: `quaketui status` in a real tmux `status-right` (a second tmux server
/// whose client runs in a pane of the first, so that its status bar is on a captured screen),
/// updating when quakes arrive; the intensity everywhere agreeing with `list --json`: the
/// browser's `felt here` column and detail row, `quaketui status` and `watch --json`.
@Suite(.waitsOnProcesses, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"))
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

    /// A quake placed where the paper's equation predicts `value` at home, and what every place
    /// must show for it, written out (the whole intensity is the nearest to the equation's
    /// value, not the one-decimal value rounded again).
    struct Placed {
        let code: String, magnitude: Double, depth: Double, value: Double
        let oneDecimal: Double, label: String
    }

    static let placed: [Placed] = [
        .init(code: "e447", magnitude: 4.0, depth: 10, value: 4.47, oneDecimal: 4.5, label: "IV light"),
        .init(code: "e45001", magnitude: 5.0, depth: 10, value: 4.5001, oneDecimal: 4.5, label: "V moderate"),
        .init(code: "e546", magnitude: 6.0, depth: 10, value: 5.46, oneDecimal: 5.5, label: "V moderate"),
        .init(code: "e346", magnitude: 5.0, depth: 10, value: 3.46, oneDecimal: 3.5, label: "III weak"),  // past 50 km
        .init(code: "e648", magnitude: 7.0, depth: 15, value: 6.48, oneDecimal: 6.5, label: "VI strong"),
        .init(code: "e72", magnitude: 6.0, depth: 10, value: 7.2, oneDecimal: 7.2, label: "VII very strong"),
        .init(code: "e273", magnitude: 3.1, depth: 5, value: 2.73, oneDecimal: 2.7, label: "III weak"),
        .init(code: "e147", magnitude: 2.5, depth: 5, value: 1.47, oneDecimal: 1.5, label: "I not felt"),
        .init(code: "e04", magnitude: 6.4, depth: 10, value: 0.4, oneDecimal: 1.0, label: "I not felt"),  // thousands of km
    ]

    /// Each quake of `placed` is one day and an hour before the one before it, so that
    /// `status --at` five minutes after it has only that quake in its 24 hours.
    static func placedTime(_ index: Int) -> Int64 { atMs - Int64(index) * 25 * 3_600_000 }

    /// `--at` answers as of that instant: a quake 30 s later is not there yet (without `--at`
    /// a minute ahead is allowed for an agency's clock); fractional seconds are a time too.
    @Test func statusAtATimeNamesNothingLater() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.url.appendingPathComponent("s")
        let later = #"{"type":"Feature","properties":{"mag":4.2,"place":"Later, Turkey","time":\#(Self.atMs + 30_000)},"geometry":{"type":"Point","coordinates":[\#(Self.home.longitude),\#(Self.home.latitude + 0.1),10]},"id":"later"}"#
        try Self.importing([Self.nearHome("near", 3.1, northKm: 14, minutesAgo: 20, place: "14 km N of Aksaray, Turkey"), later],
                           into: state, "later.geojson")
        try QuaketuiBinary.config("home", "\(Self.home.latitude),\(Self.home.longitude)", "--name", "Aksaray", stateDirectory: state)
        let before = try QuaketuiBinary.run(["status", "--at", Self.at], stateDirectory: state)
        #expect(before.status == 0 && before.lines == ["M3.1 14 km N · \(Self.numeral(3.1, northKm: 14)) · 20m"], "\(before.stdout)\(before.stderr)")
        let after = try QuaketuiBinary.run(["status", "--at", "2026-01-01T00:00:30.5Z"], stateDirectory: state)
        #expect(after.status == 0 && after.lines.first?.hasPrefix("M4.2 ") == true, "\(after.stdout)\(after.stderr)")
    }

    @Test func everyPlaceShowsTheIntensityThatListJSONGives() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.url
        try QuaketuiBinary.config("home", "\(Self.home.latitude),\(Self.home.longitude)", "--name", "Aksaray", stateDirectory: state)
        // Every quake alerts (so `status` speaks of it, alone in its 24 hours, wherever it is).
        try QuaketuiBinary.config("alertRadius", "20000", stateDirectory: state)
        let watch = try QuaketuiBinary.startWatch(["--json"], stateDirectory: state)
        defer { watch.kill(); watch.wait() }
        let features = try Self.placed.enumerated().map { index, quake in
            let latitude = try #require(ExpectedResults.latitude(northOf: Self.home.latitude, longitude: Self.home.longitude,
                                                                 magnitude: quake.magnitude, depthKm: quake.depth,
                                                                 intensity: quake.value), "\(quake.code)")
            let minutes = (Self.atMs - Self.placedTime(index)) / 60_000
            return Self.nearHome(quake.code, quake.magnitude, northKm: 0, depth: quake.depth, minutesAgo: minutes,
                                 place: "Q \(quake.code)", latitude: latitude)
        }
        try Self.importing(features, into: state, "placed.geojson", folder: state)

        // list --json: the one-decimal value, as written out.
        let list = try QuaketuiBinary.run(["list", "--json"], stateDirectory: state)
        let listed = try (list.json()["sections"] as? [[String: Any]] ?? []).flatMap { $0["quakes"] as? [[String: Any]] ?? [] }
        let json = Dictionary(uniqueKeysWithValues: listed.compactMap { q in (q["code"] as? String).map { ($0, q["intensityAtHome"] as? Double) } })
        for quake in Self.placed { #expect(json[quake.code] == quake.oneDecimal, "\(quake.code): \(list.stdout)") }

        // watch --json: the same value for each quake.
        #expect(watch.waitForOutput(timeout: 30) { $0.split(separator: "\n").count >= Self.placed.count }, "\(watch.stderr)")
        let watched = try watch.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        for quake in Self.placed {
            let object = watched.first { $0["code"] as? String == quake.code }
            #expect(object?["intensityAtHome"] as? Double == json[quake.code] ?? nil, "\(quake.code): \(watch.stdout)")
        }

        // quaketui status, five minutes after each quake: its whole intensity.
        var status: [String: String] = [:]
        for (index, quake) in Self.placed.enumerated() {
            let at = Date(timeIntervalSince1970: Double(Self.placedTime(index) + 300_000) / 1000)
            let result = try QuaketuiBinary.run(["status", "--at", ISO8601DateFormatter().string(from: at), "--format", "%c|%I"],
                                                stateDirectory: state)
            #expect(result.status == 0 && result.lines.count == 1, "\(quake.code): \(result.stdout)\(result.stderr)")
            let parts = (result.lines.first ?? "").split(separator: "|").map(String.init)
            #expect(parts.first == quake.code, "\(result.stdout)")
            status[quake.code] = parts.last
        }

        // The browser: the `felt here` column (on a wide pane), then the detail's `At Aksaray`
        // row for each quake in turn (j moves the detail along the list).
        let tmux = try TmuxSession(columns: 220, rows: 40)
        defer { tmux.close() }
        let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", state.path, "--scene", "a"], environment: BrowserTests.offline)
        let labels = Set((1...10).map(Self.label))
        let browser = try tmux.waitForScreen(pane, "every quake with its felt here column") { screen in
            Self.placed.allSatisfy { quake in screen.row(code: quake.code)?.columns.contains(where: labels.contains) == true }
        }
        var column: [String: String] = [:]
        for quake in Self.placed { column[quake.code] = browser.row(code: quake.code)?.columns.first(where: labels.contains) }

        try tmux.send(pane, "g")
        try tmux.send(pane, "Enter")
        var detail: [String: String] = [:]
        for step in Self.placed.indices {
            let screen = try tmux.waitForScreen(pane, "the detail of quake \(step + 1)") { screen in
                guard let code = screen.detailField("Code"), detail[code] == nil else { return false }
                return screen.detailField("At Aksaray") != nil
            }
            if let code = screen.detailField("Code") { detail[code] = screen.detailField("At Aksaray") }
            if step < Self.placed.count - 1 { try tmux.send(pane, "j") }
        }

        for quake in Self.placed {
            let value = json[quake.code] ?? nil
            // Shown whole: the same label everywhere, and the written-out one.
            #expect(column[quake.code] == quake.label, "\(quake.code): felt here \(column[quake.code] ?? "none")\n\(browser)")
            #expect(status[quake.code] == quake.label, "\(quake.code): status \(status[quake.code] ?? "none")")
            let row = detail[quake.code] ?? ""
            #expect(row.hasPrefix(quake.label + " (predicted "), "\(quake.code): detail \(row)")
            // The detail's one-decimal value is list --json's.
            #expect(row.contains("(predicted \(value.map { String(format: "%.1f", $0) } ?? "none") ± "), "\(quake.code): \(row)")
            // And the numeral is within half an intensity of it.
            if let value, let whole = (1...10).first(where: { Self.label($0) == quake.label }) {
                #expect(abs(Double(whole) - value) <= 0.5 + 1e-9, "\(quake.code)")
            }
        }
    }

    /// `IV light` for 4, written apart from `FeltIntensity`.
    static func label(_ whole: Int) -> String {
        ["I not felt", "II weak", "III weak", "IV light", "V moderate", "VI strong", "VII very strong", "VIII severe",
         "IX violent", "X extreme"][whole - 1]
    }
}
