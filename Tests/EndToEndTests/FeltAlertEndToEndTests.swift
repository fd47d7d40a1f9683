import Foundation
import Glibc
import QuakeTestSupport
import Testing

/// Issue 55's alerts in a real terminal: `alertIntensity` alone alerts a small quake near home
/// and not a large far one; several alerts at once are led by the strongest shaking predicted at
/// home, its distance as the list writes it and home by its name, the others in `L`.
@Suite(.waitsOnProcesses, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"),
       .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct FeltAlertEndToEndTests {
    typealias F = FeltAtHomeEndToEndTests

    /// A feature `northKm` north of Aksaray (or at `latitude`/`longitude`), `minutesAgo` before now.
    static func featureBeforeNow(_ id: String, _ magnitude: Double, northKm: Double, depth: Double = 10, minutesAgo: Int64,
                        alert: String? = nil, place: String, latitude: Double? = nil, longitude: Double? = nil) -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let shift = F.atMs - now  // F.nearHome counts back from F.atMs
        return F.nearHome(id, magnitude, northKm: northKm, depth: depth, minutesAgo: minutesAgo + shift / 60_000, alert: alert,
                         place: place, latitude: latitude, longitude: longitude)
    }

    static func intensityLabel(_ magnitude: Double, northKm: Double, depth: Double = 10) -> String {
        let value = ExpectedResults.intensity(magnitude: magnitude, epicentralKm: northKm, depthKm: depth)!
        let whole = ExpectedResults.shown(value).whole
        let words = ["not felt", "weak", "weak", "light", "moderate", "strong", "very strong", "severe", "violent", "extreme"]
        return F.numeral(magnitude, northKm: northKm, depth: depth) + " " + words[whole - 1]
    }

    /// A pane where a quake of M 6 or more alerts.
    static func paneAlertingFromM6(_ scene: String) throws -> BrowserPane {
        let pane = try BrowserPane(columns: 150, rows: 40, scene: scene)
        _ = try pane.settle()
        try QuaketuiBinary.config("alertMagnitude", "6", stateDirectory: pane.dir.url)
        return pane
    }

    /// A version of quake `id` of 10 minutes ago, published `updatedMinutesAgo`, with ComCat's `ids`.
    static func version(_ id: String, _ magnitude: Double, place: String, latitude: Double, longitude: Double,
                        updatedMinutesAgo: Int64, ids: String? = nil) -> String {
        let updated = Int64(Date().timeIntervalSince1970 * 1000) - updatedMinutesAgo * 60_000
        let idsField = ids.map { #""ids":"\#($0)","# } ?? ""
        return featureBeforeNow(id, magnitude, northKm: 0, minutesAgo: 10, place: place, latitude: latitude, longitude: longitude)
            .replacingOccurrences(of: #""place":"#, with: idsField + #""updated":\#(updated),"place":"#)
    }

    /// One import of more quakes than a read keeps (`LiveState.maximumTracked`, 5,000), oldest
    /// first as FDSN text and CSV come: the newest quake, past the kept ones, alerts too.
    @Test func aQuakePastTheFirstFiveThousandOfABulkImportAlertsToo() throws {
        let pane = try Self.paneAlertingFromM6("bulk")
        defer { pane.close() }
        let state = pane.dir.url
        let small = (0..<6_000).map { i in
            Self.featureBeforeNow("bulk\(i)", 2.0, northKm: 0, minutesAgo: 50 - Int64(i / 200), place: "Off Chile", latitude: -33, longitude: -72)
        }
        let first = Self.featureBeforeNow("bulkold", 6.9, northKm: 0, minutesAgo: 55, place: "Near Iquique, Chile", latitude: -20.2, longitude: -70.1)
        let last = Self.featureBeforeNow("bulknew", 6.8, northKm: 0, minutesAgo: 1, place: "Off Valparaiso, Chile", latitude: -33, longitude: -72)
        try F.importing([first] + small + [last], into: state, "bulk.geojson", folder: state)
        let lead = "ALERT M 6.9 Near Iquique, Chile"
        let screen = try pane.tmux.waitForScreen(pane.target, timeout: 30, "the alerts") { $0.status.message?.hasPrefix(lead) == true }
        #expect(screen.status.message == lead + " (+1 more: L, n)", "\(screen.status)")
        #expect(Set(try propertyList(at: state.appendingPathComponent("alerts.plist")).keys) == ["bulkold", "bulknew"])
    }

    /// A network's quake that alerted, published again by USGS under its own code with the
    /// first among its `ids` (ComCat's handover): one quake, one alert.
    @Test func aQuakeComCatMergedUnderANewCodeDoesNotAlertAgain() throws {
        let pane = try Self.paneAlertingFromM6("merged")
        defer { pane.close() }
        let state = pane.dir.url
        func feature(_ id: String, _ magnitude: Double, ids: String, updatedMinutesAgo: Int64) -> String {
            Self.version(id, magnitude, place: "Alias test, Alaska", latitude: 61.5, longitude: -150,
                         updatedMinutesAgo: updatedMinutesAgo, ids: ids)
        }
        try F.importing([feature("ak0250001", 6.2, ids: ",ak0250001,", updatedMinutesAgo: 4)], into: state, "network.geojson", folder: state)
        try pane.tmux.waitForScreen(pane.target, timeout: 20, "the alert") { $0.status.message?.hasPrefix("ALERT M 6.2 Alias test") == true }
        try pane.send(.keys(["Escape", "g"]))
        try pane.tmux.waitForScreen(pane.target, timeout: 20, "the quake at the top") { $0.quakeRows.first?.words.contains("ak0250001") == true }
        try F.importing([feature("us7000zz01", 6.4, ids: ",ak0250001,us7000zz01,", updatedMinutesAgo: 2)], into: state, "usgs.geojson", folder: state)
        try pane.tmux.waitForScreen(pane.target, timeout: 20, "the merged event") { $0.quakeRows.first?.words.contains("us7000zz01") == true }
        let after = Screen(try pane.settle())
        #expect(after.status.message?.hasPrefix("ALERT") != true, "\(after.status)")
        #expect(Set(try propertyList(at: state.appendingPathComponent("alerts.plist")).keys) == ["ak0250001"])
    }

    /// A quake revised upwards into the alert's range (USGS raising a magnitude) alerts once.
    @Test func aQuakeRevisedIntoTheRangeAlertsOnce() throws {
        let pane = try Self.paneAlertingFromM6("revised")
        defer { pane.close() }
        let state = pane.dir.url
        func version(_ magnitude: Double, updatedMinutesAgo: Int64) -> String {
            Self.version("us0001rev", magnitude, place: "Revised test, Chile", latitude: -30, longitude: -71,
                         updatedMinutesAgo: updatedMinutesAgo)
        }
        try F.importing([version(4.5, updatedMinutesAgo: 9)], into: state, "first.geojson", folder: state)
        try pane.tmux.waitForScreen(pane.target, timeout: 20, "the new quake") { $0.header.new == "1 new" }
        try pane.send(.keys(["g"]))
        try pane.tmux.waitForScreen(pane.target, timeout: 20, "the quake") { $0.quakeRows.first?.words.contains("4.5") == true }
        #expect(Screen(try pane.settle()).status.message?.hasPrefix("ALERT") != true)
        try F.importing([version(6.8, updatedMinutesAgo: 1)], into: state, "revised.geojson", folder: state)
        let screen = try pane.tmux.waitForScreen(pane.target, timeout: 20, "the alert") { $0.status.message?.hasPrefix("ALERT") == true }
        #expect(screen.status.message == "ALERT M 6.8 Revised test, Chile", "\(screen.status)")
        #expect(Set(try propertyList(at: state.appendingPathComponent("alerts.plist")).keys) == ["us0001rev"])
        // Revised again, still in range: no second alert (the first stays on the status line).
        try F.importing([version(6.9, updatedMinutesAgo: 0)], into: state, "again.geojson", folder: state)
        try pane.tmux.waitForScreen(pane.target, timeout: 20, "the second revision") { $0.quakeRows.first?.words.contains("6.9") == true }
        let last = Screen(try pane.settle())
        #expect(last.status.message == "ALERT M 6.8 Revised test, Chile", "\(last.status)")
        try pane.send(.keys(["L"]))
        let entries = Screen(try pane.settle()).overlay?.entries ?? []
        #expect(entries.filter { $0.hasPrefix("ALERT") } == ["ALERT M 6.8 Revised test, Chile"], "\(entries)")
    }

    @Test func alertsByIntensityAloneAndSeveralAtOnceLedByTheStrongestShaking() throws {
        let pane = try BrowserPane(columns: 150, rows: 40, scene: "felt")
        defer { pane.close() }
        _ = try pane.settle()
        let state = pane.dir.url
        try QuaketuiBinary.config("home", "\(F.home.latitude),\(F.home.longitude)", "--name", "Aksaray", stateDirectory: state)
        try QuaketuiBinary.config("alertIntensity", "4", stateDirectory: state)
        // A small quake 6 km away and a large one off Chile arrive together: only the small one alerts.
        try F.importing([Self.featureBeforeNow("small", 4.2, northKm: 6, depth: 5, minutesAgo: 2, place: "6 km N of Aksaray, Turkey"),
                         Self.featureBeforeNow("large", 7.5, northKm: 0, minutesAgo: 3, place: "Off Chile", latitude: -33, longitude: -72)],
                        into: state, "first.geojson", folder: state)
        let small = "ALERT M 4.2 6.0 km N of Aksaray, predicted there: \(Self.intensityLabel(4.2, northKm: 6, depth: 5)) — 6 km N of Aksaray, Turkey"
        try pane.tmux.waitForScreen(pane.target, timeout: 20, "the intensity alert") { $0.status.message == small }

        // Three at once with alertMagnitude 5 too: the M 5.6 next to home leads the M 6.4 off Chile.
        try QuaketuiBinary.config("alertMagnitude", "5", stateDirectory: state)
        try pane.send(.keys(["Escape"]))
        try F.importing([Self.featureBeforeNow("chile", 6.4, northKm: 0, minutesAgo: 1, alert: "green", place: "80 km W of Iquique, Chile",
                                      latitude: -20.2, longitude: -70.1),
                         Self.featureBeforeNow("aksaray", 5.6, northKm: 21, minutesAgo: 1, alert: "orange", place: "21 km N of Aksaray, Turkey"),
                         Self.featureBeforeNow("minor", 3.1, northKm: 14, minutesAgo: 1, place: "14 km N of Aksaray, Turkey")],
                        into: state, "second.geojson", folder: state)
        let lead = "ALERT M 5.6 21 km N of Aksaray, predicted there: \(Self.intensityLabel(5.6, northKm: 21)) — 21 km N of Aksaray, Turkey"
        let screen = try pane.tmux.waitForScreen(pane.target, timeout: 20, "the lead alert") {
            $0.status.message?.hasPrefix(lead) == true
        }
        let message = screen.status.message ?? ""
        #expect(message == lead + " (+1 more: L, n)", "\(message)")
        try pane.send(.keys(["L"]))
        let log = try pane.settle()
        let entries = Screen(log).overlay?.entries ?? []
        // The lead first (newest), then the Chile quake with its distance as the list writes it.
        #expect(entries.first?.hasPrefix(lead) == true, "\(entries)")
        #expect(entries.dropFirst().first == "ALERT M 6.4 12,587 km W of Aksaray, predicted there: "
                + Self.intensityLabel(6.4, northKm: 12_587) + " — 80 km W of Iquique, Chile", "\(entries)")
    }
}
