import Foundation
import QuakeTestSupport
import Testing

/// `quaketui sequence CODE --json` (issue 54) against the method recomputed here from the feed:
/// the aftershocks within the Wells & Coppersmith radius by a brute-force haversine, Mc, the
/// Omori fit by an independent maximiser, and the Reasenberg & Jones numbers by their closed form.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct SequenceCommandTests {
    static let feed = "2.5_month-2019-07-19.geojson"
    static let earthRadius = 6371.0088

    static func distance(_ a: CoreFields, _ b: CoreFields) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let h = pow(sin((φ2 - φ1) / 2), 2) + cos(φ1) * cos(φ2) * pow(sin((b.longitude - a.longitude) * .pi / 180 / 2), 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// `N = 10^(a + b (Mm − M)) ((t2 + c)^(1−p) − (t1 + c)^(1−p)) / (1 − p)` and `1 − e^−N`.
    static func closedForm(a: Double, b: Double, p: Double, c: Double, mainshock: Double, magnitude: Double,
                           from t1: Double, days: Double) -> (Double, Double) {
        let n = pow(10, a + b * (mainshock - magnitude)) * (pow(t1 + days + c, 1 - p) - pow(t1 + c, 1 - p)) / (1 - p)
        return (n, 1 - exp(-n))
    }

    static func imported() throws -> (TemporaryDirectory, [CoreFields]) {
        let dir = try TemporaryDirectory()
        let url = SharedData.url(feed)
        let result = try QuaketuiBinary.run(["import", url.path], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        return (dir, try IndependentParse.expected(for: url))
    }

    /// The 2019 Ridgecrest M 7.1: over a thousand aftershocks at or above Mc, so its own
    /// parameters; every number as recomputed here. The month holds 17 days before the
    /// mainshock, not the year a background needs: the Omori law alone (K 239, c 0.170,
    /// p 1.114, as scipy finds too), and a sentence saying why.
    @Test func ridgecrestEqualsTheMethodRecomputedFromTheFeed() throws {
        let (dir, rows) = try Self.imported()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(["sequence", "ci38457511", "--json"], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(Set(json.keys) == ["mainshock", "radiusKm", "radiusMethod", "radiusNote", "count", "end", "mc", "aboveMc", "b", "bError",
                                   "omori", "background", "backgroundNote", "model", "forecast", "forecastFrom", "forecastNote",
                                   "parameters", "warnings"])
        #expect(json["radiusMethod"] as? String == "wellsCoppersmith" && json["radiusNote"] is NSNull)
        // One catalogue: the window ends at its newest quake, nothing said.
        let ending = try #require(json["end"] as? [String: Any])
        #expect(ending["by"] as? String == "catalogue"
                && ending["time"] as? String == IndependentParse.isoString(milliseconds: rows.map(\.time).max()!))
        #expect(ending["gapDays"] is NSNull && ending["largerQuake"] is NSNull && ending["note"] is NSNull)
        let main = try #require(rows.first { $0.code == "ci38457511" })
        let mainMagnitude = try #require(main.magnitude)
        let radius = pow(10, -3.22 + 0.69 * mainMagnitude)
        #expect(json["mainshock"] as? String == "ci38457511")
        #expect(abs((json["radiusKm"] as? Double ?? 0) - radius) < 1e-9)
        let aftershocks = rows.filter { $0.code != main.code && $0.time >= main.time && Self.distance(main, $0) <= radius }
        #expect(json["count"] as? Int == aftershocks.count)
        #expect(aftershocks.count > 1_000)

        // Mc, the fit above it (to the newest quake of the store), b, a.
        let tenths = aftershocks.compactMap(\.magnitude).map(IndependentMagnitudeMethods.tenth)
        let mc = try #require(IndependentMagnitudeMethods.maxc(tenths))
        let day = 86_400_000.0
        let times = aftershocks.filter { $0.magnitude.map(IndependentMagnitudeMethods.tenth).map { $0 >= mc } ?? false }
            .map { Double($0.time - main.time) / day }
        let end = Double(rows.map(\.time).max()! - main.time) / day
        let omoriKeys = try #require(json["omori"] as? [String: Any])
        #expect(Set(omoriKeys.keys) == ["K", "c", "p", "KError", "cError", "pError", "mu", "muError"])
        #expect(omoriKeys["mu"] is NSNull && omoriKeys["muError"] is NSNull && json["background"] is NSNull)
        let oldest = rows.map(\.time).min()!
        #expect(json["backgroundNote"] as? String == "No background term: the store covers "
                + String(format: "%.1f days", Double(main.time - oldest) / day) + " before the mainshock; a background needs the 365 days before it, all covered.")
        let omori = omoriKeys.compactMapValues { $0 as? Double }
        let fit = IndependentOmori.fit(times, end: end)
        #expect(abs(omori["p"]! - fit.p) < 1e-4 && abs(log(omori["c"]!) - log(fit.c)) < 1e-3 && abs(omori["K"]! / fit.k - 1) < 1e-3,
                "\(omori) vs \(fit)")
        let errors = IndependentOmori.errors(k: omori["K"]!, c: omori["c"]!, p: omori["p"]!, end: end)
        #expect(abs(omori["KError"]! / errors[0] - 1) < 1e-3 && abs(omori["cError"]! / errors[1] - 1) < 1e-3
                && abs(omori["pError"]! / errors[2] - 1) < 1e-3)
        #expect(json["parameters"] as? String == "sequence")
        let b = try #require(IndependentMagnitudeMethods.b(tenths, mc: mc)).b
        let a = log10(omori["K"]!) - b * (mainMagnitude - Double(mc) / 10)
        #expect(json["mc"] as? Double == Double(mc) / 10 && json["aboveMc"] as? Int == times.count)
        #expect(abs((json["b"] as? Double ?? 0) - b) < 1e-9)
        let model = try #require(json["model"] as? [String: Double])
        #expect(abs(model["a"]! - a) < 1e-6 && abs(model["b"]! - b) < 1e-9 && model["p"] == omori["p"] && model["c"] == omori["c"], "\(model)")

        // The store ends in 2019, years before the clock: the forecast starts where the data end.
        #expect(json["forecastFrom"] as? String == "dataEnd")
        let forecast = try #require(json["forecast"] as? [[String: Any]])
        #expect(forecast.allSatisfy { $0["start"] as? String == IndependentParse.isoString(milliseconds: rows.map(\.time).max()!) })
        #expect(forecast.map { $0["magnitude"] as? Double } == [5, 5, 5, 6, 6, 6, mainMagnitude, mainMagnitude, mainMagnitude])
        #expect(forecast.map { $0["days"] as? Double } == [1, 7, 30, 1, 7, 30, 1, 7, 30])
        for entry in forecast {
            let startText = try #require(entry["start"] as? String)
            let start = try #require(IndependentParse.isoMilliseconds(startText))
            let (n, probability) = Self.closedForm(a: a, b: b, p: omori["p"]!, c: omori["c"]!, mainshock: mainMagnitude,
                                                   magnitude: entry["magnitude"] as! Double,
                                                   from: Double(start - main.time) / day, days: entry["days"] as! Double)
            // `start` is printed to the millisecond, as the forecast was computed.
            #expect(abs((entry["expected"] as! Double) / n - 1) < 1e-9, "\(entry)")
            #expect(abs((entry["probability"] as! Double) / probability - 1) < 1e-9, "\(entry)")
        }
        // The aftershocks at or above Mc are ml, mw and mlr: said (the feed's magType, read here).
        let features = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: SharedData.url(Self.feed))) as? [String: Any])
        var typeOf: [String: String] = [:]
        for case let feature as [String: Any] in features["features"] as? [Any] ?? [] {
            if let id = feature["id"] as? String, let properties = feature["properties"] as? [String: Any] {
                typeOf[id] = (properties["magType"] as? String)?.lowercased()
            }
        }
        var types: [String: Int] = [:]
        for quake in aftershocks where quake.magnitude.map(IndependentMagnitudeMethods.tenth).map({ $0 >= mc }) ?? false {
            types[typeOf[quake.code] ?? "unknown", default: 0] += 1
        }
        let shares = types.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .map { "\($0.key) \(Int((Double($0.value) * 100 / Double(times.count)).rounded())) %" }.joined(separator: ", ")
        #expect(types.count == 3)
        #expect(json["warnings"] as? [String] == ["The aftershocks at or above Mc \(String(format: "%.1f", Double(mc) / 10)) have \(types.count) "
                                                  + "magnitude types (\(shares)): Mc, the b-value and a forecast from them mix scales that are not one."])
    }

    /// A quake with few aftershocks: `omori` is null with a warning, the generic parameters,
    /// the closed form with them.
    @Test func aSmallSequenceHasNoFitAndTheGenericForecast() throws {
        let (dir, rows) = try Self.imported()
        defer { dir.remove() }
        // The M 5+ quake with the fewest aftershocks within its 10 km.
        let candidates = rows.filter { ($0.magnitude ?? 0) >= 5 && ($0.magnitude ?? 0) < 6 }
        let main = try #require(candidates.min { a, b in
            rows.filter { $0.time >= a.time && $0.code != a.code && Self.distance(a, $0) <= 10 }.count
                < rows.filter { $0.time >= b.time && $0.code != b.code && Self.distance(b, $0) <= 10 }.count
        })
        let result = try QuaketuiBinary.run(["sequence", main.code, "--json"], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["omori"] is NSNull)
        #expect(json["parameters"] as? String == "generic")
        #expect(json["radiusKm"] as? Double == 10)
        let warnings = try #require(json["warnings"] as? [String])
        #expect(warnings.count == 1 && warnings[0].hasPrefix("No Omori fit: "), "\(warnings)")
        for entry in try #require(json["forecast"] as? [[String: Any]]) {
            let start = try #require(IndependentParse.isoMilliseconds(entry["start"] as! String))
            let (n, probability) = Self.closedForm(a: -1.67, b: 0.91, p: 1.08, c: 0.05, mainshock: main.magnitude!,
                                                   magnitude: entry["magnitude"] as! Double,
                                                   from: Double(start - main.time) / 86_400_000, days: entry["days"] as! Double)
            #expect(abs((entry["expected"] as! Double) / n - 1) < 1e-9 && abs((entry["probability"] as! Double) / probability - 1) < 1e-9)
        }
        // The table says the same in words.
        let table = try QuaketuiBinary.run(["sequence", main.code], stateDirectory: dir.url)
        #expect(table.lines.filter { $0.hasPrefix("Warning: ") } == warnings.map { "Warning: " + $0 }, "\(table.stdout)")
        #expect(table.lines.filter { $0.hasPrefix("with ") }
                == ["with Reasenberg & Jones's (1989) generic California parameters: a -1.67 b 0.91 p 1.08 c 0.050 d"],
                "\(table.stdout)")
    }

    /// The 2019 month and a 2025 day in one store: six years of no data are not six years of
    /// no aftershocks. The sequence reads as the month alone gives it (count, Mc, fit) and says
    /// where and why it ends.
    @Test func aSecondCatalogueYearsLaterLeavesTheSequenceAsTheFirstGivesIt() throws {
        let (dir, rows) = try Self.imported()
        defer { dir.remove() }
        let alone = try QuaketuiBinary.run(["sequence", "ci38457511", "--json"], stateDirectory: dir.url).json()
        let later = SharedData.url("1.0_day-2025-07-27.geojson")
        #expect(try QuaketuiBinary.run(["import", later.path], stateDirectory: dir.url).status == 0)
        let both = try QuaketuiBinary.run(["sequence", "ci38457511", "--json"], stateDirectory: dir.url).json()
        for key in ["count", "mc", "aboveMc", "b", "bError", "radiusKm"] {
            #expect("\(both[key] ?? "nil")" == "\(alone[key] ?? "nil")", "\(key)")
        }
        let omori = { (json: [String: Any]) in (json["omori"] as? [String: Any])?.compactMapValues { $0 as? Double } }
        #expect(omori(both) == omori(alone) && omori(both)?["K"] != nil)
        #expect(both["count"] as? Int == 1_413)
        let newest = rows.map(\.time).max()!
        let first2025 = try IndependentParse.expected(for: later).map(\.time).min()!
        let end = try #require(both["end"] as? [String: Any])
        #expect(end["by"] as? String == "gap" && end["time"] as? String == IndependentParse.isoString(milliseconds: newest))
        #expect(abs((end["gapDays"] as? Double ?? 0) - Double(first2025 - newest) / 86_400_000) < 1e-9)
        let note = "The sequence ends 2019-07-19 02:52 UTC: no quake is stored for 6.0 years after that, too long for the store's "
            + "rate to be chance, so the count and the fit end there."
        #expect(end["note"] as? String == note)
        let table = try QuaketuiBinary.run(["sequence", "ci38457511"], stateDirectory: dir.url)
        #expect(table.lines.contains(note), "\(table.stdout)")
        #expect(table.lines.contains("Omori K 239 ± 20/day · c 0.170 ± 0.040 d · p 1.114 ± 0.055 (Ogata 1983)"), "\(table.stdout)")
        #expect(table.lines.contains("No background term: the store covers 17.0 days before the mainshock; a background needs the 365 days "
                                     + "before it, all covered."), "\(table.stdout)")
    }

    /// The M 6.4 of 4 July 2019 is the M 7.1's foreshock: its sequence ends at the M 7.1, the
    /// fit (recomputed here) over the 34 hours between them.
    @Test func aForeshocksSequenceEndsAtTheLargerQuake() throws {
        let (dir, rows) = try Self.imported()
        defer { dir.remove() }
        let result = try QuaketuiBinary.run(["sequence", "ci38443183", "--json"], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        let main = try #require(rows.first { $0.code == "ci38443183" })
        let larger = try #require(rows.first { $0.code == "ci38457511" })
        let radius = pow(10, -3.22 + 0.69 * main.magnitude!)
        let aftershocks = rows.filter { $0.code != main.code && $0.time >= main.time && $0.time < larger.time && Self.distance(main, $0) <= radius }
        #expect(json["count"] as? Int == aftershocks.count)
        let end = try #require(json["end"] as? [String: Any])
        #expect(end["by"] as? String == "largerQuake" && end["largerQuake"] as? String == "ci38457511")
        #expect(end["time"] as? String == IndependentParse.isoString(milliseconds: larger.time))
        #expect(end["note"] as? String == "The sequence ends at the M 7.1 of 2019-07-06 03:19 UTC, a larger quake: its own sequence is `sequence ci38457511`, and its forecast is the one to read: this one gives none.")
        // No forecast of its own: the M 7.1's is the one to read.
        #expect((json["forecast"] as? [Any])?.isEmpty == true && json["forecastFrom"] is NSNull)
        #expect((json["warnings"] as? [String] ?? []).contains("No forecast: this quake was a foreshock of the M 7.1 of 2019-07-06 03:19 UTC; "
                                                                 + "that quake's sequence and forecast are the ones to read (`sequence ci38457511`)."))
        let omoriKeys = try #require(json["omori"] as? [String: Any])
        #expect(omoriKeys["mu"] is NSNull && omoriKeys["muError"] is NSNull, "the month holds 16 days before the M 6.4, not a year")
        let tenths = aftershocks.compactMap(\.magnitude).map(IndependentMagnitudeMethods.tenth)
        let mc = try #require(IndependentMagnitudeMethods.maxc(tenths))
        let day = 86_400_000.0
        let times = aftershocks.filter { $0.magnitude.map(IndependentMagnitudeMethods.tenth).map { $0 >= mc } ?? false }
            .map { Double($0.time - main.time) / day }
        let fit = IndependentOmori.fit(times, end: Double(larger.time - main.time) / day)
        let omori = try #require(json["omori"] as? [String: Any]).compactMapValues { $0 as? Double }
        #expect(abs(omori["p"]! - fit.p) < 1e-4 && abs(log(omori["c"]!) - log(fit.c)) < 1e-3 && abs(omori["K"]! / fit.k - 1) < 1e-3,
                "\(omori) vs \(fit)")
        #expect(omori["p"]! < 1.5, "\(omori)")
    }

    /// Great quakes: Valdivia's M 9.5 (1960) takes Strasser et al.'s (2010) interface length,
    /// 10^(−2.477 + 0.585 × 9.5) = 1,204 km, not Wells & Coppersmith's 2,163 km, and says it is
    /// past the M 9.4 of Strasser's data; Tehuantepec's M 8.2 (2017) keeps Wells & Coppersmith's
    /// length at M 8.1. Both stores cover the year before: the background is counted there (the
    /// count within the radius, and the year's quakes in an earlier M ≥ Mc + 2's sequence left
    /// out, recomputed here by brute force). Tehuantepec's fit takes it (26 quakes, 1 left out);
    /// Valdivia's 2 (the M 8.1 foreshock's 6 others left out) leave 61 years that no Omori law
    /// beside them fits: c runs to its edge.
    @Test(arguments: [("fdsn_query-m4-south_america-1921-2021.csv", "official19600522191120_30", "strasserInterface"),
                      ("fdsn_query-m4.5-2015-2019.csv", "us2000ahv0", "wellsCoppersmithTop")])
    func aGreatQuakesRadiusIsCalibratedForItsMagnitude(feed: String, code: String, method: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let url = SharedData.url(feed)
        #expect(try QuaketuiBinary.run(["import", url.path], stateDirectory: dir.url).status == 0)
        let rows = try IndependentParse.expected(for: url)
        let json = try QuaketuiBinary.run(["sequence", code, "--json"], stateDirectory: dir.url).json()
        let main = try #require(rows.first { $0.code == code })
        let magnitude = try #require(main.magnitude)
        let radius = method == "strasserInterface" ? pow(10, -2.477 + 0.585 * magnitude) : pow(10, -3.22 + 0.69 * 8.1)
        #expect(json["radiusMethod"] as? String == method)
        #expect(abs((json["radiusKm"] as? Double ?? 0) - radius) < 1e-9)
        #expect((json["radiusNote"] as? String)?.hasPrefix("The radius is the ") == true)
        let count = rows.filter { $0.code != code && $0.time >= main.time && Self.distance(main, $0) <= radius }.count
        #expect(json["count"] as? Int == count)
        let mcTenth = Int(((json["mc"] as? Double ?? 0) * 10).rounded())
        func tenth(_ quake: CoreFields) -> Int { quake.magnitude.map(IndependentMagnitudeMethods.tenth) ?? Int.min }
        func sequenceRadius(_ quake: CoreFields) -> Double {
            let m = quake.magnitude!
            return m > 8.1 ? max(pow(10, -3.22 + 0.69 * 8.1), pow(10, -2.477 + 0.585 * m)) : max(10, pow(10, -3.22 + 0.69 * m))
        }
        let year = main.time - Int64(365.25 * 86_400_000)
        let inYear = rows.filter { $0.time >= year && $0.time < main.time && tenth($0) >= mcTenth && Self.distance(main, $0) <= radius }
        let counted = inYear.filter { quake in
            !inYear.contains { $0.time < quake.time && tenth($0) >= mcTenth + 20 && tenth($0) > tenth(quake) && Self.distance($0, quake) <= sequenceRadius($0) }
        }
        let background = try #require(json["background"] as? [String: Any])
        #expect(background["count"] as? Int == counted.count && background["notCounted"] as? Int == inYear.count - counted.count
                && background["days"] as? Double == 365.25, "\(background)")
        #expect(background["from"] as? String == IndependentParse.isoString(milliseconds: year)
                && background["to"] as? String == IndependentParse.isoString(milliseconds: main.time))
        #expect((json["backgroundNote"] as? String)?.hasPrefix("Background μ ") == true)
        if code == "us2000ahv0" {
            #expect(counted.count == 26 && inYear.count == 27)
            let omori = try #require(json["omori"] as? [String: Any])
            #expect(omori["mu"] as? Double == Double(counted.count) / 365.25
                    && omori["muError"] as? Double == Double(counted.count).squareRoot() / 365.25, "\(omori)")
        } else {
            #expect(counted.count == 2 && inYear.count == 8)
            #expect(json["omori"] is NSNull)
            #expect((json["warnings"] as? [String])?.first?.hasPrefix("No Omori fit: The Omori fit runs c to the edge") == true)
        }
        #expect(json["forecastFrom"] as? String == "dataEnd")
    }

    @Test func aCodeNotStoredIsARuntimeErrorAndNoCodeAUsageError() throws {
        let (dir, _) = try Self.imported()
        defer { dir.remove() }
        let missing = try QuaketuiBinary.run(["sequence", "us0000none"], stateDirectory: dir.url)
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: No quake us0000none in the store.\n")
        let none = try QuaketuiBinary.run(["sequence"], stateDirectory: dir.url)
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("Error: Say which quake's sequence to print: a code like us7000abcd or a USGS event page URL.\n"))
    }
}
