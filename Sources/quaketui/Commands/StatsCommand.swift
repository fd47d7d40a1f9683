import Foundation
import QuakeFeed
import QuakeScenes
import QuakeStore

/// `quaketui stats`: the catalogue at a glance — magnitudes with Mc and the b-value, quakes per
/// day, depths, regions — for the quakes `list` would print with the same filters.
enum StatsCommand {
    static let spec = CommandSpec(
        name: "stats",
        abstract: "Print statistics of the quakes list shows: magnitudes (Mc, b-value), days, depths, regions.",
        usage: ["stats [--search <text>] [--min-magnitude <m>] [--radius <km> [--near <lat,lon>]] [--json]"],
        discussion: """
            The quakes are those 'quaketui list' prints with the same filters. Magnitudes are
            binned to 0.1 (floor(M x 10 + 0.5) / 10; quakes without one, or with one outside
            M -6.4 to 19.1, count in no bin). Mc, the magnitude of completeness, is the most
            populated bin (maximum curvature; the lower magnitude on a tie). Above it,
            b = log10(e) / (mean M - (Mc - 0.05)) (Aki 1965, Utsu 1966), its error
            2.30 b^2 sqrt(sum (M - mean)^2 / (n (n - 1))) (Shi & Bolt 1982), and
            a = log10(n) + b Mc, with n the quakes at or above Mc; with fewer than 50 there is no
            b-value and stats says why. Days follow the app setting timeZone; depths are binned
            by 10 km to 100 km, then by 100 km.

            --json prints {"count","magnitude":{"bins":[{"from","to","count"}],"completeness",
            "bValue","bValueError","aValue","n"},"daily":[{"day","count"}],"depth":{"bins":[{"from",
            "to","count"}]},"regions":[{"region","count"}]} (null where there is no fit).
            """,
        options: [
            .init(name: "search", value: "TEXT", help: "Only places containing TEXT."),
            .init(name: "min-magnitude", value: "M", help: "Only quakes of magnitude M or more."),
            .init(name: "near", value: "LAT,LON", help: "With --radius (required): measure from this point instead of home."),
            .init(name: "radius", value: "KM", help: "Only quakes within KM kilometres of --near (or of home)."),
            CommandSpec.stateDir, CommandSpec.json,
        ])

    /// How many regions the table and the JSON name.
    static let regionLimit = 10

    static func run(_ arguments: ParsedArguments) throws {
        // stats prints no distances, so --near alone would change nothing: refused, as watch does.
        if arguments.value("near") != nil, arguments.value("radius") == nil {
            throw UsageError(message: "--near does nothing in stats without --radius; add --radius KM to count the quakes within KM kilometres of that point, or drop --near.",
                             command: spec)
        }
        let (state, request, _) = try ListCommand.resolvedRequest(arguments, command: spec)
        let container = try PersistentContainer(readingFrom: state.url)
        defer { container.close() }
        let (statistics, isSample) = try container.viewContext.read { db in
            (try db.catalogueStatistics(of: request), try SampleCatalogue.isSample(db))
        }
        if isSample { printError(ListCommand.sampleNote) }
        if arguments.has("json") { return try printJSON(Report(statistics)) }
        guard statistics.count > 0 else {
            return print(try ListCommand.emptyResultMessage(container: container, request: request, arguments: arguments))
        }
        print(text(statistics), terminator: "")
    }

    // MARK: JSON

    struct Bin: Encodable {
        var from: Double
        var to: Double
        var count: Int
    }

    struct Report: Encodable {
        struct Magnitude: Encodable {
            var bins: [Bin]
            var completeness: Double?
            var bValue: Double?
            var bValueError: Double?
            var aValue: Double?
            var n: Int?

            /// Every key always, `null` where there is no fit (synthesized coding would drop it).
            func encode(to encoder: Encoder) throws {
                enum Keys: String, CodingKey { case bins, completeness, bValue, bValueError, aValue, n }
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(bins, forKey: .bins)
                try container.encode(completeness, forKey: .completeness)
                try container.encode(bValue, forKey: .bValue)
                try container.encode(bValueError, forKey: .bValueError)
                try container.encode(aValue, forKey: .aValue)
                try container.encode(n, forKey: .n)
            }
        }
        struct Day: Encodable {
            var day: String
            var count: Int
        }
        struct Depth: Encodable { var bins: [Bin] }
        struct Region: Encodable {
            var region: String
            var count: Int
        }
        var count: Int
        var magnitude: Magnitude
        var daily: [Day]
        var depth: Depth
        var regions: [Region]

        init(_ statistics: CatalogueStatistics) {
            let mfd = statistics.magnitudes
            let fit = mfd.fit
            count = statistics.count
            magnitude = Magnitude(bins: mfd.bins.map { Bin(from: $0.from, to: $0.to, count: $0.count) },
                                  completeness: mfd.completenessTenth.map { Double($0) / 10 },
                                  bValue: fit?.b, bValueError: fit?.bError, aValue: fit?.a, n: fit?.n)
            daily = statistics.daily.map { Day(day: $0.day, count: $0.count) }
            depth = Depth(bins: statistics.depthBins.map { Bin(from: $0.from, to: $0.to, count: $0.count) })
            regions = statistics.topRegions(StatsCommand.regionLimit).map { Region(region: $0.region, count: $0.count) }
        }

    }

    // MARK: Text

    /// A readable table: the fit, then each distribution with a bar scaled to its largest count
    /// (of a list with at least one quake).
    static func text(_ statistics: CatalogueStatistics) -> String {
        let mfd = statistics.magnitudes
        var lines = [CountFormat.quakes(statistics.count)]
        if let fit = mfd.fit {
            lines.append(String(format: "Mc %.1f   b %.2f ± %.2f   a %.2f   n %@ at or above Mc",
                                fit.completeness, fit.b, fit.bError, fit.a, CountFormat.grouped(fit.n)))
        } else if let why = mfd.why {
            lines.append(why)
        }
        lines.append("")
        lines += table("Magnitude", mfd.bins.map { (String(format: "%4.1f", $0.from), $0.count) })
        lines.append("")
        let zone = statistics.timeZone.identifier == "UTC" ? "UTC" : "local time"
        lines += table("Day (\(zone))", statistics.daily.map { ($0.day, $0.count) })
        lines.append("")
        lines += table("Depth (km)", statistics.depthBins.map { (String(format: "%4.0f–%.0f", $0.from, $0.to), $0.count) })
        lines.append("")
        lines += table("Region", statistics.topRegions(regionLimit).map { ($0.region, $0.count) })
        return lines.joined(separator: "\n") + "\n"
    }

    private static func table(_ title: String, _ rows: [(String, Int)]) -> [String] {
        let labelWidth = max(title.count, rows.map(\.0.count).max() ?? 0)
        let counts = rows.map { CountFormat.grouped($0.1) }
        let countWidth = max(6, counts.map(\.count).max() ?? 0)
        let largest = max(1, rows.map(\.1).max() ?? 1)
        var lines = [title.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  " + String(repeating: " ", count: countWidth - 6) + "quakes"]
        for ((label, count), text) in zip(rows, counts) {
            let bar = String(repeating: "█", count: max(count > 0 ? 1 : 0, count * 40 / largest))
            lines.append(label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  "
                         + String(repeating: " ", count: countWidth - text.count) + text + "  " + bar)
        }
        return lines
    }
}
