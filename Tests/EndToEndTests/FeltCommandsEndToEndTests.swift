import Foundation
import QuakeTestSupport
import Testing

/// Issue 55 in the commands that need no terminal: `watch --refresh` ranks the alerts of one
/// refresh as the browser and `status` do; `intensityAtHome` in `list --json` is at home
/// (`null` without one), whatever `--near` measures distances from; the intensity flags' help.
@Suite(.waitsOnProcesses) struct FeltCommandsEndToEndTests {
    typealias F = FeltAtHomeEndToEndTests

    @Test func watchRefreshPrintsTheAlertsOfOneRefreshLedByTheStrongestShaking() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("state")
        try QuaketuiBinary.config("home", "\(F.home.latitude),\(F.home.longitude)", "--name", "Aksaray", stateDirectory: state)
        try QuaketuiBinary.config("alertIntensity", "4", stateDirectory: state)
        try QuaketuiBinary.config("alertMagnitude", "6", stateDirectory: state)
        // One download with both: the M 6.5 off Chile (by magnitude) is the older, so it arrives
        // first; the M 4.8 7 km from home (by intensity) shakes home more and must lead.
        let mirror = dir.appending("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        try HostileInputTests.collection([
            FeltAlertEndToEndTests.featureBeforeNow("chile", 6.5, northKm: 0, minutesAgo: 3, alert: "green",
                                                    place: "80 km W of Iquique, Chile", latitude: -20.2, longitude: -70.1),
            FeltAlertEndToEndTests.featureBeforeNow("near", 4.8, northKm: 7, depth: 5, minutesAgo: 1, place: "7 km N of Aksaray, Turkey"),
        ]).write(to: mirror.appendingPathComponent("all_day.geojson"), atomically: true, encoding: .utf8)
        // Another watcher keeps only what shakes home at II or more: the near quake, not Chile's.
        let felt = try QuaketuiBinary.startWatch(["--min-intensity", "2", "--json"], stateDirectory: state)
        defer { felt.kill(); felt.wait() }
        let watch = try QuaketuiBinary.startWatch(["--refresh"], stateDirectory: state, environment: [
            "QUAKETUI_FEED_BASE_URL": mirror.absoluteString, "QUAKETUI_AUTO_REFRESH_INTERVAL": "1"])
        defer { watch.kill(); watch.wait() }
        let alerts = { watch.stderr.split(separator: "\n").filter { $0.hasPrefix("\u{07}ALERT ") }.map { String($0.dropFirst()) } }
        #expect(eventually(timeout: 20) { alerts().count >= 2 }, "\(watch.stderr)")
        let near = "ALERT M 4.8 7.0 km N of Aksaray, predicted there: "
            + FeltAlertEndToEndTests.intensityLabel(4.8, northKm: 7, depth: 5) + " — 7 km N of Aksaray, Turkey"
        #expect(alerts().first == near, "\(watch.stderr)")
        #expect(alerts().dropFirst().first?.hasPrefix("ALERT M 6.5 ") == true, "\(watch.stderr)")
        #expect(alerts().dropFirst().first?.hasSuffix(" W of Aksaray, predicted there: I not felt — 80 km W of Iquique, Chile") == true,
                "\(watch.stderr)")
        #expect(alerts().count == 2, "\(watch.stderr)")
        let feltCodes = { felt.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["code"] as? String
        } }
        #expect(eventually(timeout: 20) { !feltCodes().isEmpty }, "\(felt.stdout) \(felt.stderr)")
        #expect(feltCodes().count == 1 && feltCodes().first?.hasSuffix("near") == true, "\(felt.stdout)")
    }

    /// The first quake of `list --json ARGS`.
    static func listed(_ arguments: [String], in state: URL) throws -> [String: Any] {
        let list = try QuaketuiBinary.run(["list", "--json"] + arguments, stateDirectory: state)
        #expect(list.status == 0, "\(list.stderr)")
        let quakes = (try list.json()["sections"] as? [[String: Any]] ?? []).flatMap { $0["quakes"] as? [[String: Any]] ?? [] }
        return try #require(quakes.first, "\(list.stdout)")
    }

    @Test func intensityAtHomeIsAtHomeAndNullWithoutOneWhateverNearMeasuresFrom() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.url
        try F.importing([F.nearHome("aksaray", 5.6, northKm: 21, minutesAgo: 10, place: "21 km N of Aksaray, Turkey")],
                        into: state, "one.geojson", folder: state)
        // No home: --near measures the distance, but nothing is "at home".
        let noHome = try Self.listed(["--near", "\(F.home.latitude),\(F.home.longitude)"], in: state)
        #expect(abs((noHome["distanceKm"] as? Double ?? 0) - 21) < 0.1, "\(noHome)")
        #expect(noHome["intensityAtHome"] is NSNull, "\(noHome)")
        #expect(noHome["sArrivalSeconds"] is NSNull, "\(noHome)")

        // Home at Aksaray: the same values with --near elsewhere as without it.
        try QuaketuiBinary.config("home", "\(F.home.latitude),\(F.home.longitude)", "--name", "Aksaray", stateDirectory: state)
        let atHome = try Self.listed([], in: state)
        let value = ExpectedResults.intensity(magnitude: 5.6, epicentralKm: 21, depthKm: 10)!
        #expect(atHome["intensityAtHome"] as? Double == ExpectedResults.shown(value).oneDecimal, "\(atHome)")
        #expect(atHome["sArrivalSeconds"] as? Double == ((21.0 * 21 + 100).squareRoot() / 3.5 * 10).rounded() / 10, "\(atHome)")
        let elsewhere = try Self.listed(["--near", "35.68,139.69"], in: state)
        #expect((elsewhere["distanceKm"] as? Double ?? 0) > 7_000, "\(elsewhere)")
        #expect(elsewhere["intensityAtHome"] as? Double == atHome["intensityAtHome"] as? Double, "\(elsewhere)")
        #expect(elsewhere["sArrivalSeconds"] as? Double == atHome["sArrivalSeconds"] as? Double, "\(elsewhere)")
    }

    /// The value of `--intensity` and `--min-intensity` is named INTENSITY, not I, which reads
    /// as intensity I ("felt … as I or more"); the manual and the completions share the table.
    @Test func theIntensityFlagsNameTheirValueSoTheHelpReadsAsItMeans() throws {
        let intensity = "Only quakes predicted to be felt at home (or --near) at INTENSITY or stronger, 1–10 or I–X: 4, 4+ and IV say the same (as :intensity)."
        for command in ["list", "stats", "watch"] {
            let help = try QuaketuiBinary.run(["help", command])
            #expect(help.option("--intensity <intensity>") == intensity, "\(command): \(help.stdout)")
            #expect(!help.stdout.contains(" as I or "), "\(command)")
        }
        for command in ["list", "stats", "watch"] {
            let help = try QuaketuiBinary.run(["help", command])
            #expect(help.option("--min-intensity <intensity>")
                    == "Only quakes predicted to be felt at home (or --near) at INTENSITY or stronger (1–10 or I–X): --intensity INTENSITY+.",
                    "\(command)")
            #expect(help.lines.contains { $0.contains("[--min-intensity <intensity>]") }, "\(command): the usage line")
        }
        let manual = try QuaketuiBinary.run(["--generate-manual"])
        #expect(manual.lines.contains(".B \\-\\-intensity \\fIintensity\\fR"), "\(manual.stdout)")
        #expect(manual.lines.contains(".B \\-\\-min-intensity \\fIintensity\\fR"))
        #expect(!manual.stdout.contains("\\fIi\\fR"))
        // Both given: the refusal says what --min-intensity is, with a number.
        let both = try QuaketuiBinary.run(["list", "--intensity", "4", "--min-intensity", "4"])
        #expect(both.status == 64)
        #expect(both.errorLines.first == "Error: Give either --intensity or --min-intensity, not both: --min-intensity 4 is --intensity 4+.")
    }
}
