import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `quaketui stats` with the methods of issue 54 on real USGS feeds and on files written here:
/// bins that hold what their edges say, the M 4.5+ month's b, `--mc`, and fits that cannot be
/// made (JSON null and a warning). The numbers are recomputed from the feed in the test.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct StatsMethodsCommandTests {
    static func stats(_ feed: URL, _ flags: [String] = []) throws -> [String: Any] {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url).status == 0)
        let result = try QuaketuiBinary.run(["stats", "--json"] + flags, stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.json()
    }

    /// Every bin of a month of every network holds exactly the quakes whose magnitudes lie
    /// between its edges (the bin of M 1.1 is 1.05 ≤ M < 1.15), and the bins with the quakes
    /// without a magnitude add up to the count.
    @Test func everyBinHoldsTheMagnitudesBetweenItsEdges() throws {
        let feed = SharedData.url("all_month-2023-04-04.csv")
        let rows = try IndependentParse.expected(for: feed)
        let json = try Self.stats(feed)
        let magnitude = try #require(json["magnitude"] as? [String: Any])
        let bins = try #require(magnitude["bins"] as? [[String: Any]])
        let magnitudes = rows.compactMap(\.magnitude)
        var wrong: [String] = []
        for bin in bins {
            let from = try #require(bin["from"] as? Double), to = try #require(bin["to"] as? Double)
            let held = magnitudes.filter { from <= $0 && $0 < to }.count
            if held != bin["count"] as? Int { wrong.append("\(from)…\(to): \(bin["count"] ?? "nil"), holds \(held)") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        let one = try #require(bins.first { ($0["from"] as? Double) == 1.05 })
        #expect(one["to"] as? Double == 1.15)
        #expect(one["count"] as? Int == magnitudes.filter { 1.05 <= $0 && $0 < 1.15 }.count)
        let binned = bins.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
        #expect(binned + (magnitude["unusable"] as? Int ?? -1) == json["count"] as? Int)
        #expect(json["count"] as? Int == rows.count)
    }

    /// The M 4.5+ month keeps b within 0.05 of 1.02 by maxc (+0.2), and the other month of
    /// 2014 within its stated uncertainty; both give every new field.
    @Test func theMonthOfLargeQuakesKeepsItsBValue() throws {
        let april = try #require(try Self.stats(SharedData.url("4.5_month-2014-04-01.geojson"))["magnitude"] as? [String: Any])
        let b = try #require(april["bValue"] as? Double)
        #expect(abs(b - 1.02) <= 0.05, "b \(b)")
        #expect(april["completenessMethod"] as? String == "maxc")
        #expect(april["bootstrapSamples"] as? Int == 200)
        let bootstrap = try #require(april["bValueBootstrapError"] as? Double)
        let shiBolt = try #require(april["bValueError"] as? Double)
        #expect(abs(bootstrap - shiBolt) <= 0.3 * shiBolt, "bootstrap \(bootstrap), Shi–Bolt \(shiBolt)")
        #expect(april["completenessError"] is Double)
        let positive = try #require(april["bValuePositive"] as? Double)
        #expect(abs(positive - 1.02) <= 0.15, "b+ \(positive)")
        let march = try #require(try Self.stats(SharedData.url("4.5_month-2014-03-21.geojson"))["magnitude"] as? [String: Any])
        let marchB = try #require(march["bValue"] as? Double), marchError = try #require(march["bValueError"] as? Double)
        #expect(abs(marchB - 1.02) <= 2 * marchError, "b \(marchB) ± \(marchError)")
    }

    /// `--mc` names the method in the JSON and the table (of a homogeneous list, where every
    /// method finds an Mc); an unknown one is a usage error.
    @Test(arguments: ["maxc", "gft90", "gft95", "mbs"])
    func theMethodIsChosenAndNamed(_ method: String) throws {
        let feed = SharedData.url("4.5_month-2014-04-01.geojson")
        let magnitude = try #require(try Self.stats(feed, ["--mc", method])["magnitude"] as? [String: Any])
        #expect(magnitude["completenessMethod"] as? String == method)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url).status == 0)
        let table = try QuaketuiBinary.run(["stats", "--mc", method], stateDirectory: dir.url)
        // The Mc line names it right after the value: `Mc 4.8 (maxc), bootstrap σ 0.027   b …`.
        let mcLine = table.lines.first { $0.hasPrefix("Mc ") }
        #expect(mcLine?.split(separator: " ").dropFirst(2).first == "(\(method)),", "\(table.stdout.prefix(300))")
        let bad = try QuaketuiBinary.run(["stats", "--mc", "best"], stateDirectory: dir.url)
        #expect(bad.status == 64)
        #expect(bad.errorLines.first == "Error: 'best' is not a method of Mc; use maxc, gft90, gft95 or mbs.", "\(bad.stderr)")
        let typo = try QuaketuiBinary.run(["stats", "--mc", "gft9"], stateDirectory: dir.url)
        #expect(typo.errorLines.first == "Error: 'gft9' is not a method of Mc; use maxc, gft90, gft95 or mbs. Did you mean 'gft90'?",
                "\(typo.stderr)")
    }

    /// The M 4.5+ month cut to the bin of M 4.5: every quake in one bin, so no Mc (maximum
    /// curvature would put it at 4.7, above them all), for the list and for each type alike, and
    /// the sentence why.
    @Test func oneBinGivesNoMcForTheListNorItsTypes() throws {
        let feed = SharedData.url("4.5_month-2014-04-01.geojson")
        let rows = try IndependentParse.expected(for: feed)
        let inBin = rows.filter { $0.magnitude.map(IndependentMagnitudeMethods.tenth) == 45 }
        let json = try Self.stats(feed, ["--mag", "4.5-4.5"])
        #expect(json["count"] as? Int == inBin.count)
        let magnitude = try #require(json["magnitude"] as? [String: Any])
        #expect(magnitude["completeness"] is NSNull && magnitude["bValue"] is NSNull)
        let types = try #require(magnitude["types"] as? [[String: Any]])
        #expect(!types.isEmpty && types.allSatisfy { $0["completeness"] is NSNull })
        let warnings = try #require(json["warnings"] as? [String])
        #expect(warnings.first == "All \(inBin.count) quakes with a magnitude are in the bin of M 4.5: no spread, so no Mc by maximum curvature "
                + "and no slope to fit.", "\(warnings)")
    }

    /// 200 quakes all of M 4.0: no b-value (null) and a sentence saying why, never b 8.69.
    @Test func quakesOfOneMagnitudeGiveNoFitAndSayWhy() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let features = (0 ..< 200).map { index in
            #"{"type":"Feature","properties":{"mag":4.0,"place":"Somewhere","time":\#(1_700_000_000_000 + index * 60_000),"updated":1700000000000},"geometry":{"type":"Point","coordinates":[10,20,10]},"id":"q\#(index)"}"#
        }
        let file = dir.appending("equal.geojson")
        try Data((#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").utf8).write(to: file)
        let json = try Self.stats(file)
        let magnitude = try #require(json["magnitude"] as? [String: Any])
        #expect(magnitude["bValue"] is NSNull && magnitude["bValueError"] is NSNull && magnitude["bValuePositive"] is NSNull)
        let warnings = try #require(json["warnings"] as? [String])
        #expect(magnitude["completeness"] is NSNull)
        #expect(warnings == ["All 200 quakes with a magnitude are in the bin of M 4.0: no spread, so no Mc by maximum curvature and no slope to fit.",
                             "No b-positive: 0 of the successive magnitude differences are 0.2 or more; it needs 50."], "\(warnings)")
    }
}
