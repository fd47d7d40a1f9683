import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `quaketui stats --json` against its method recomputed here from the feed itself (issue 32):
/// every field, on real USGS feeds, with and without the filters `list` takes.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct StatsCommandTests {
    /// The report the method gives for `rows`, computed without quaketui's code (issues 32, 54):
    /// bins of edges (t ∓ 0.5)/10, Mc the fullest bin (the lower on a tie) + 0.2, Aki–Utsu b,
    /// Shi–Bolt σ, a, b-positive over the rows in time order; the bootstrap's numbers, the
    /// warnings, the magnitude types and the agencies are checked by the tests of their own
    /// (`StatsMixCommandTests`).
    static func expectedStatistics(_ rows: [CoreFields]) -> [String: Any] {
        var bins: [Int: Int] = [:]
        for magnitude in rows.compactMap(\.magnitude) { bins[IndependentMagnitudeMethods.tenth(magnitude), default: 0] += 1 }
        let mc = bins.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first.map { $0.key + 2 }
            .flatMap { $0 <= bins.keys.max()! ? $0 : nil }
        // Every bin from the lowest to the highest, empty ones too.
        let tenths: [Int] = bins.isEmpty ? [] : Array(bins.keys.min()!...bins.keys.max()!)
        let binList: [[String: Any]] = tenths.map { t -> [String: Any] in
            ["from": Double(t * 2 - 1) / 20, "to": Double(t * 2 + 1) / 20, "count": bins[t] ?? 0]
        }
        var magnitude: [String: Any] = [
            "bins": binList,
            "completeness": mc.map { Double($0) / 10 } as Any,
            "completenessMethod": "maxc",
            "unusable": rows.filter { $0.magnitude == nil }.count,
        ]
        let above = rows.compactMap(\.magnitude).map(IndependentMagnitudeMethods.tenth).filter { mc != nil && $0 >= mc! }.map { Double($0) / 10 }
        if let mc, above.count >= 50 {
            let n = Double(above.count)
            let mean = above.reduce(0, +) / n
            let b = log10(M_E) / (mean - (Double(mc) / 10 - 0.05))
            magnitude["bValue"] = b
            magnitude["bValueError"] = 2.30 * b * b * (above.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n * (n - 1))).squareRoot()
            magnitude["aValue"] = log10(n) + b * Double(mc) / 10
            magnitude["n"] = above.count
        }
        // The store keeps the feed's order among equal times (its row ids).
        let ordered = rows.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.compactMap(\.element.magnitude).map(IndependentMagnitudeMethods.tenth)
        let differences = zip(ordered.dropFirst(), ordered).map { $0 - $1 }.filter { $0 >= 2 }
        if differences.count >= 50 {
            magnitude["bValuePositive"] = log10(M_E) / (Double(differences.reduce(0, +)) / Double(differences.count) / 10 - 0.15)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        var days: [String: Int] = [:], depths: [Double: Int] = [:], regions: [String: Int] = [:]
        for row in rows {
            days[formatter.string(from: Date(timeIntervalSince1970: Double(row.time) / 1000)), default: 0] += 1
            if let depth = row.depth {
                // The bin of the depth as shown, in tenths of a km rounded half up: 10 km wide below 100 km.
                let tenths = Double(ExpectedResults.shownTenths(depth))
                depths[tenths < 1_000 ? (tenths / 100).rounded(.down) * 10 : (tenths / 1_000).rounded(.down) * 100, default: 0] += 1
            }
            let last = row.place.split(separator: ",", omittingEmptySubsequences: false).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            // USGS's abbreviations (`CA`) are the region of the full name (`California`).
            regions[last.isEmpty ? "Unknown" : Self.documentedRegion(QuakeRecord.spelledOutRegions[last] ?? last), default: 0] += 1
        }
        return [
            "count": rows.count,
            "magnitude": magnitude,
            "daily": days.keys.sorted().map { ["day": $0, "count": days[$0]!] },
            "depth": ["bins": depths.keys.sorted().map { ["from": $0, "to": $0 < 100 ? $0 + 10 : $0 + 100, "count": depths[$0]!] }],
            "regions": regions.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(10)
                .map { ["region": $0.key, "count": $0.value] },
        ]
    }

    /// README's "Region sections" rule, written again by pattern: a border region goes under its
    /// first country, a trailing `region`/`area` goes, then leading qualifiers (`western`, `near`,
    /// `south of`, `off the coast of`) while a name is left that is not a name of its own, then
    /// the parent table (`Honshu` → `Japan`); a name left in lower case gets its capital. The word
    /// lists are the documented tables (`RegionName`'s), the algorithm is this test's own.
    static func documentedRegion(_ name: String) -> String {
        var text = name.trimmingCharacters(in: .whitespaces)
        let capitals = text.range(of: "[a-z]", options: .regularExpression) == nil && text.range(of: "[A-Z]{4}", options: .regularExpression) != nil
        if capitals { text = text.lowercased() }
        if let match = text.range(of: #"^(.*?)([^ -]+)-[^ ]+ border (region|reg\.|reg|area)$"#, options: [.regularExpression, .caseInsensitive]) {
            let whole = String(text[match])
            let words = whole.split(separator: " ")
            let hyphenated = words[words.count - 3]
            text = (words.dropLast(3).joined(separator: " ") + " " + hyphenated.split(separator: "-")[0]).trimmingCharacters(in: .whitespaces)
        }
        while text.contains(" "), let suffix = text.range(of: #" (region|reg\.|area)$"#, options: [.regularExpression, .caseInsensitive]) {
            text.removeSubrange(suffix)
        }
        let directions = RegionName.directions.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        let prefixes = [
            "(" + RegionName.qualifiers.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|") + "|the) ",
            "(" + directions + ") of ", "(" + directions + ") coast of ", "coast of ",
        ]
        stripping: while text.contains(" "), !RegionName.keptWhole.contains(TextFolding.fold(text)) {
            for prefix in prefixes {
                if let range = text.range(of: "^" + prefix, options: [.regularExpression, .caseInsensitive]), range.upperBound < text.endIndex {
                    text.removeSubrange(range)
                    continue stripping
                }
            }
            break
        }
        if let parent = RegionName.parentRegions[TextFolding.fold(text)] { return parent }
        if capitals {
            return text.split(separator: " ").enumerated().map { index, word in
                index > 0 && ["of", "the", "and", "de", "del", "la", "da", "das", "dos"].contains(word) ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
            }.joined(separator: " ")
        }
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// Numbers equal to 1e-9 relative (JSON prints doubles to their shortest form), the rest exactly.
    static func differences(_ a: Any?, _ b: Any?, _ path: String = "") -> [String] {
        switch (a, b) {
        case (let x as [String: Any], let y as [String: Any]):
            let keys = Set(x.keys).union(y.keys)
            return keys.sorted().flatMap { differences(x[$0], y[$0], "\(path).\($0)") }
        case (let x as [Any], let y as [Any]):
            guard x.count == y.count else { return ["\(path): \(x.count) items, expected \(y.count)"] }
            return zip(x, y).enumerated().flatMap { differences($1.0, $1.1, "\(path)[\($0)]") }
        case (let x as NSNumber, let y as NSNumber):
            return abs(x.doubleValue - y.doubleValue) <= 1e-9 * max(1, abs(y.doubleValue)) ? [] : ["\(path): \(x), expected \(y)"]
        case (let x as String, let y as String):
            return x == y ? [] : ["\(path): \(x), expected \(y)"]
        case (nil, nil), (is NSNull, nil), (nil, is NSNull), (is NSNull, is NSNull):
            return []
        default:
            return ["\(path): \(String(describing: a)), expected \(String(describing: b))"]
        }
    }

    @Test(arguments: ["all_week-2018-06-14.geojson", "2.5_month-2019-07-19.geojson", "4.5_month-2014-03-21.geojson"])
    func statsEqualTheMethodRecomputedFromTheFeed(_ name: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = SharedData.url(name)
        #expect(try QuaketuiBinary.run(["config", "timeZone", "utc"], stateDirectory: dir.url).status == 0)
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url).status == 0)
        let rows = try IndependentParse.expected(for: feed)
        let cases: [([String], (CoreFields) -> Bool)] = [
            ([], { _ in true }),
            // As shown: the feed's 2.45 shows 2.5 (USGS's own M 2.5+ feed lists it).
            (["--min-magnitude", "2.5"], { ExpectedResults.isShown($0.magnitude, atLeast: 2.5) }),
            (["--search", "ca"], { $0.place.lowercased().contains("ca") }),
        ]
        for (flags, keep) in cases {
            let result = try QuaketuiBinary.run(["stats", "--json"] + flags, stateDirectory: dir.url)
            #expect(result.status == 0, "\(result.stderr)")
            var json = try result.json()
            var magnitude = try #require(json["magnitude"] as? [String: Any])
            for key in ["completenessError", "bValueBootstrapError", "bootstrapSamples", "types"] { magnitude[key] = nil }
            json["magnitude"] = magnitude
            json["warnings"] = nil
            json["agencies"] = nil
            let differences = Self.differences(json, Self.expectedStatistics(rows.filter(keep)))
            #expect(differences.isEmpty, "\(name) \(flags): \(differences.prefix(5))")
        }
        let table = try QuaketuiBinary.run(["stats"], stateDirectory: dir.url)
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("\(rows.count.formatted()) quakes\n"), "\(table.stdout.prefix(200))")
    }

    @Test func aListWithFewQuakesSaysWhyItHasNoBValue() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try QuaketuiBinary.run(["import", SharedData.url("4.5_day-2017-11-29.geojson").path], stateDirectory: dir.url).status == 0)
        let json = try QuaketuiBinary.run(["stats", "--json"], stateDirectory: dir.url).json()
        let magnitude = try #require(json["magnitude"] as? [String: Any])
        #expect(magnitude["bValue"] is NSNull && magnitude["aValue"] is NSNull && magnitude["n"] is NSNull)
        let table = try QuaketuiBinary.run(["stats"], stateDirectory: dir.url).stdout
        #expect(table.split(separator: "\n").dropFirst().first?.hasSuffix("a b-value needs 50.") == true, "\(table)")
        let none = try QuaketuiBinary.run(["stats", "--search", "atlantis"], stateDirectory: dir.url)
        #expect(none.status == 0)
        #expect(none.stdout == "No quakes match among the 5 stored: no place contains 'atlantis'. Try a shorter search.\n",
                "the same explanation as list's")
    }
}
