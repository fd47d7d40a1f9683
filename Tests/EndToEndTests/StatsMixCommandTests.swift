import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `quaketui stats` and `list` with the magnitude types, agencies and declustering of issue 54 on
/// real USGS feeds: the mixed month warns and fits each type; `--mag-type` keeps one type;
/// `--decluster` counts the background that the independent algorithm keeps, quake by quake.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct StatsMixCommandTests {
    static let mixed = SharedData.url("all_month-2023-04-04.csv")
    static let large = SharedData.url("4.5_month-2014-04-01.geojson")

    /// The CSV's rows as (code, time, latitude, longitude, depth, magnitude, magType, net), read here.
    static func rows(_ url: URL) throws -> [(code: String, quake: IndependentDeclustering.Quake, type: String, net: String)] {
        let table = IndependentParse.csvRows(Array(try Data(contentsOf: url)))
        let header = table[0]
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        let (time, lat, lon, depth, mag, type, id) = (column("time"), column("latitude"), column("longitude"), column("depth"),
                                                       column("mag"), column("magType"), column("id"))
        let net = column("net")
        return table.dropFirst().filter { $0.count == header.count }.map { row in
            (row[id], IndependentDeclustering.Quake(time: IndependentParse.isoMilliseconds(row[time])!, latitude: Double(row[lat])!,
                                                    longitude: Double(row[lon])!, depth: Double(row[depth]), magnitude: Double(row[mag])),
             row[type].lowercased(), row[net].lowercased())
        }
    }

    static func run(_ feed: URL, _ arguments: [String]) throws -> [String: Any] {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.url).status == 0)
        let result = try QuaketuiBinary.run(arguments + ["--json"], stateDirectory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.json()
    }

    /// The 2019 M 2.5+ month declustered (Gardner & Knopoff): its background's Mc, printed, is
    /// at the upper of its two modes, and the warning says so of that Mc (it said maximum
    /// curvature puts Mc at the lower mode); undeclustered, Mc is at the lower one.
    @Test func theTwoModesWarningSaysWhereThePrintedMcIs() throws {
        let feed = SharedData.url("2.5_month-2019-07-19.geojson")
        for (arguments, side) in [(["stats", "--decluster", "gk"], "above"), (["stats"], "below")] {
            let json = try Self.run(feed, arguments)
            let mc = try #require((json["magnitude"] as? [String: Any])?["completeness"] as? Double)
            let warnings = try #require(json["warnings"] as? [String])
            let modes = try #require(warnings.first { $0.hasPrefix("The magnitudes have two modes") }, "\(warnings)")
            #expect(modes.contains(String(format: "(Mc %.1f by maxc is \(side) the valley near M ", mc)), "\(modes)")
            #expect(!modes.contains("lower mode)"), "\(modes)")
        }
    }

    /// The month of every network: both warnings, and each type's count and fit as computed here
    /// from the file's own rows of that type.
    @Test func theMixedMonthWarnsAndFitsEachType() throws {
        let rows = try Self.rows(Self.mixed)
        let json = try Self.run(Self.mixed, ["stats"])
        let warnings = try #require(json["warnings"] as? [String])
        #expect(warnings.contains { $0.hasPrefix("The fit mixes ") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("The magnitudes have two modes") }, "\(warnings)")
        // b-positive's own: the types of every usable magnitude (Alaska's ml beside global mb …).
        let usable = rows.filter { $0.quake.magnitude.map { (-5.0 ... 10).contains($0) } ?? false }
        let typeCounts = Dictionary(grouping: usable, by: \.type).mapValues(\.count).sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        #expect(warnings.contains { $0.hasPrefix("b-positive mixes \(typeCounts.count) magnitude types (\(typeCounts[0].key) ") }, "\(warnings)")
        let magnitude = try #require(json["magnitude"] as? [String: Any])
        let types = try #require(magnitude["types"] as? [[String: Any]])
        #expect(types.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == rows.count)
        for entry in types {
            let name = try #require(entry["type"] as? String)
            let own = rows.filter { $0.type == name }
            #expect(entry["count"] as? Int == own.count, "\(name)")
            let tenths = own.compactMap(\.quake.magnitude).map(IndependentMagnitudeMethods.tenth)
            let mc = IndependentMagnitudeMethods.mc(tenths, "maxc")
            // Mc by the list's rule, with or without a b-value.
            #expect(entry["completeness"] as? Double == mc.map { Double($0) / 10 }, "\(name)")
            if let mc, let fit = IndependentMagnitudeMethods.b(tenths, mc: mc), fit.n >= 50 {
                #expect(abs((entry["bValue"] as? Double ?? .nan) - fit.b) < 1e-9, "\(name)")
                #expect(abs((entry["bValueError"] as? Double ?? .nan) - fit.sigma) < 1e-9, "\(name)")
                #expect(entry["completeness"] as? Double == Double(mc) / 10, "\(name)")
            } else {
                #expect(entry["bValue"] is NSNull, "\(name)")
            }
        }
        #expect(types.map { $0["type"] as? String }.prefix(3) == ["ml", "md", "mb"])
        // ComCat's agencies are its contributing networks, the file's `net` column.
        let agencies = try #require(json["agencies"] as? [[String: Any]])
        let networks = Dictionary(grouping: rows, by: { $0.net.isEmpty ? "usgs" : $0.net }).mapValues(\.count)
        #expect(networks.count > 5, "\(networks)")
        #expect(Dictionary(uniqueKeysWithValues: agencies.map { ($0["agency"] as? String ?? "?", $0["count"] as? Int ?? -1) }) == networks)
        // Every type that two networks share for 5 % or more is warned about.
        let shared = Set(rows.map(\.type)).filter { type in
            let counts = Dictionary(grouping: rows.filter { $0.type == type }, by: \.net).mapValues(\.count).values.sorted(by: >)
            return counts.count > 1 && (counts.dropFirst().reduce(0, +)) * 20 >= counts.reduce(0, +)
        }
        let fitted = Set(types.filter { !($0["bValue"] is NSNull) }.compactMap { $0["type"] as? String })
        for type in shared.intersection(fitted) {
            #expect(warnings.contains { $0.hasPrefix("\(type) comes from ") }, "\(type): \(warnings)")
        }
        #expect(json["declustered"] == nil)
    }

    /// `--mag-type mb`: the quakes of type mb alone, in stats and list.
    @Test func magnitudeTypeKeepsOneType() throws {
        let rows = try Self.rows(Self.mixed)
        let mb = rows.filter { $0.type == "mb" }
        let stats = try Self.run(Self.mixed, ["stats", "--mag-type", "MB"])
        #expect(stats["count"] as? Int == mb.count)
        let types = try #require((stats["magnitude"] as? [String: Any])?["types"] as? [[String: Any]])
        #expect(types.count == 1 && types[0]["type"] as? String == "mb")
        let list = try Self.run(Self.mixed, ["list", "--mag-type", "mb"])
        #expect(list["total"] as? Int == mb.count)
    }

    /// `stats --decluster` and `list --decluster` on the mixed month: the background is the
    /// quakes the independent algorithm keeps, code by code.
    @Test(arguments: ["gk", "reasenberg"])
    func declusteringKeepsTheIndependentBackground(_ method: String) throws {
        let rows = try Self.rows(Self.mixed).enumerated()
            .sorted { ($0.element.quake.time, $0.offset) < ($1.element.quake.time, $1.offset) }.map(\.element)
        // Equal times: the store takes the earlier row id first, and an import numbers rows in the file's order.
        let quakes = rows.map(\.quake)
        let keep = method == "gk" ? IndependentDeclustering.gk(quakes) : IndependentDeclustering.reasenberg(quakes)
        let kept = Set(zip(rows, keep).filter(\.1).map(\.0.code))
        let stats = try Self.run(Self.mixed, ["stats", "--decluster", method])
        let declustered = try #require(stats["declustered"] as? [String: Any])
        #expect(declustered["method"] as? String == method)
        #expect(declustered["removed"] as? Int == rows.count - kept.count)
        #expect(stats["count"] as? Int == kept.count)
        let list = try Self.run(Self.mixed, ["list", "--decluster", method])
        #expect(list["total"] as? Int == kept.count)
        let sections = try #require(list["sections"] as? [[String: Any]])
        let listed = Set(sections.flatMap { ($0["quakes"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } })
        #expect(listed == kept, "\(listed.subtracting(kept).prefix(3)) listed but not kept, \(kept.subtracting(listed).prefix(3)) kept but not listed")
        #expect(sections.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == kept.count)
    }

    /// The M 4.5+ month keeps b within 0.05 of 1.02 with the types read.
    @Test func theMonthOfLargeQuakesKeepsItsBValue() throws {
        let json = try Self.run(Self.large, ["stats"])
        let b = try #require((json["magnitude"] as? [String: Any])?["bValue"] as? Double)
        #expect(abs(b - 1.02) <= 0.05, "b \(b)")
    }
}
