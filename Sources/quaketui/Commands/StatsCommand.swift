import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `quaketui stats`: the catalogue at a glance — magnitudes with Mc and the b-value, quakes per
/// day, depths, regions — for the quakes `list` would print with the same filters.
enum StatsCommand {
    static let spec = CommandSpec(
        name: "stats",
        abstract: "Print statistics of the quakes list shows: magnitudes (Mc, b-value), days, depths, regions.",
        usage: ["stats [--search <text>] [<filters>] [--min-magnitude <m>] [--min-intensity <intensity>] [--radius <km> [--near <lat,lon>]] [--mc maxc|gft90|gft95|mbs] [--decluster gk|reasenberg] [--json]"],
        discussion: """
            The quakes are those 'quaketui list' prints with the same search and filters: the
            browser's ':' filters as flags (--mag, --depth, --since, --time, --type, --alert,
            --felt, --intensity, --mag-type; see 'quaketui list --help'). Magnitudes are
            binned to 0.1: the bin of M 1.1 holds 1.05 <= M < 1.15 (floor(M x 10 + 0.5) / 10).
            Quakes without a magnitude, or with one outside M -5 to 10, are counted as having
            no usable magnitude. Mc, the magnitude of completeness, is estimated by --mc:
            maxc (the default: the most populated bin, the lower on a tie, + 0.2; Woessner &
            Wiemer 2005; none when that is above every quake), gft90 and gft95 (goodness of fit, Wiemer & Wyss 2000) or mbs (b-value
            stability, Cao & Gao 2002). Above it, b = log10(e) / (mean M - (Mc - 0.05))
            (Aki 1965, Utsu 1966), its error 2.30 b^2 sqrt(sum (M - mean)^2 / (n (n - 1)))
            (Shi & Bolt 1982), and a = log10(n) + b Mc, with n the quakes at or above Mc; with
            fewer than 50, or no spread, there is no b-value and stats says why. A bootstrap of
            200 seeded resamples gives the standard deviations of Mc and b; b-positive
            (van der Elst 2021) is b from the differences of 0.2 or more between successive
            magnitudes in time order. Errors are printed to two significant digits. Days follow
            the app setting timeZone; depths are binned by 10 km to 100 km, then by 100 km.

            stats names the magnitude types and agencies of the quakes with their shares, fits
            each type alone, and warns when the fit mixes types, the magnitudes have two modes, or
            b-positive (over every magnitude) mixes types.
            --mag-type T keeps only the quakes of type T (as list does). --decluster gk
            (Gardner & Knopoff 1974 windows) or reasenberg (Reasenberg 1985) counts the
            background alone and says how many dependent quakes it removed.

            --json prints {"count","magnitude":{"bins":[{"from","to","count"}],"unusable",
            "completeness","completenessMethod","completenessError","bValue","bValueError",
            "bValueBootstrapError","bootstrapSamples","bValuePositive","aValue","n"},
            "daily":[{"day","count"}],"depth":{"bins":[{"from","to","count"}]},
            "regions":[{"region","count"}],"warnings":[sentence]} (null where there is no fit),
            with "magnitude":{…,"types":[{"type","count","share","completeness","bValue",
            "bValueError"}]}, "agencies":[{"agency","count","share"}] and, with --decluster,
            "declustered":{"method","removed"} ("count" is then the background's).
            """,
        options: [
            .init(name: "search", value: "TEXT", help: "Only quakes whose place holds every word of TEXT, as list --search."),
            FilterFlags.minimumMagnitude,
        ] + FilterFlags.options + [
            FilterFlags.minimumIntensity,
            .init(name: "near", value: "LAT,LON", help: "With --radius (required): measure from this point instead of home."),
            .init(name: "radius", value: "KM", help: "Only quakes within KM kilometres of --near (or of home)."),
            .init(name: "mc", value: "METHOD", help: "How Mc is estimated: maxc (default), gft90, gft95 or mbs.",
                  completion: .values(CompletenessMethod.allCases.map(\.rawValue))),
            ListCommand.declusterOption,
            CommandSpec.stateDir, CommandSpec.json,
        ])

    /// How many regions the table and the JSON name.
    static let regionLimit = 10

    static func run(_ arguments: ParsedArguments) throws {
        // stats prints no distances, so --near alone would change nothing: refused, as watch does.
        if arguments.value("near") != nil, ["radius", "intensity", "min-intensity"].allSatisfy({ arguments.value($0) == nil }) {
            throw UsageError(message: "--near does nothing in stats without --radius or --intensity; add --radius KM to count the quakes within KM kilometres of that point, or drop --near.",
                             command: spec)
        }
        let method = try completenessMethod(arguments)
        let declustering = try ListCommand.declustering(arguments, command: spec)
        let (state, request, _, _) = try ListCommand.resolvedRequest(arguments, command: spec)
        let container = try PersistentContainer(readingFrom: state.url, upgrading: SchemaUpgrade.say)
        defer { container.close() }
        if let unknown = try FilterFlags.unknownValue(in: request.predicate.rowFilters, among: { values in
            try container.viewContext.read { db in try db.storedValues(values) } }) {
            throw CommandError(unknown)
        }
        // b-positive over the quakes counted (the background, when declustered), in time order.
        let (statistics, positive, isSample) = try container.viewContext.read { db in
            let (statistics, positive) = try db.catalogueSummary(of: request, declustering: declustering)
            return (statistics, positive, try SampleCatalogue.isSample(db))
        }
        if isSample { printError(ListCommand.sampleNote) }
        let fit = MagnitudeFit(statistics.magnitudes.using(method), positive: positive, composition: statistics.composition)
        if arguments.has("json") { return try printJSON(Report(statistics, fit)) }
        guard statistics.count > 0 else {
            return print(try ListCommand.emptyResultMessage(container: container, request: request, arguments: arguments))
        }
        print(text(statistics, fit), terminator: "")
    }

    /// `--mc`'s method, `maxc` without it.
    static func completenessMethod(_ arguments: ParsedArguments) throws -> CompletenessMethod {
        guard let text = arguments.value("mc") else { return .maxc }
        guard let method = CompletenessMethod(rawValue: text.lowercased()) else {
            throw UsageError(message: "'\(SafeText.sanitize(text))' is not a method of Mc; use maxc, gft90, gft95 or mbs."
                             + Spelling.didYouMean(text, in: CompletenessMethod.allCases.map(\.rawValue)), command: spec)
        }
        return method
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
            var unusable: Int
            @NullIfNone var completeness: Double?
            var completenessMethod: String
            @NullIfNone var completenessError: Double?
            @NullIfNone var bValue: Double?
            @NullIfNone var bValueError: Double?
            @NullIfNone var bValueBootstrapError: Double?
            var bootstrapSamples: Int
            @NullIfNone var bValuePositive: Double?
            @NullIfNone var aValue: Double?
            @NullIfNone var n: Int?
            var types: [MagnitudeType]
        }
        /// One magnitude type's share and fit (`null`s where it has none).
        struct MagnitudeType: Encodable {
            var type: String
            var count: Int
            var share: Double
            @NullIfNone var completeness: Double?
            @NullIfNone var bValue: Double?
            @NullIfNone var bValueError: Double?
        }
        struct Agency: Encodable {
            var agency: String
            var count: Int
            var share: Double
        }
        struct Declustered: Encodable {
            var method: String
            var removed: Int
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
        var agencies: [Agency]
        var warnings: [String]
        /// Only when declustered (synthesized coding leaves a nil out).
        var declustered: Declustered?

        init(_ statistics: CatalogueStatistics, _ magnitudes: MagnitudeFit) {
            let mfd = magnitudes.mfd
            let fit = mfd.fit
            count = statistics.count
            magnitude = Magnitude(bins: mfd.bins.map { Bin(from: $0.from, to: $0.to, count: $0.count) },
                                  unusable: mfd.unusable,
                                  completeness: mfd.completenessTenth.map { Double($0) / 10 },
                                  completenessMethod: mfd.method.rawValue,
                                  completenessError: magnitudes.bootstrap.completenessError,
                                  bValue: fit?.b, bValueError: fit?.bError,
                                  bValueBootstrapError: fit == nil ? nil : magnitudes.bootstrap.bError,
                                  bootstrapSamples: magnitudes.bootstrap.samples,
                                  bValuePositive: magnitudes.positive?.value?.b,
                                  aValue: fit?.a, n: fit?.n,
                                  types: (magnitudes.composition?.types ?? []).map { part in
                                      // Mc by the list's rule: given wherever the method gives one, b or no b.
                                      let typeMFD = part.frequency(mfd.method), typeFit = typeMFD.fit
                                      return MagnitudeType(type: part.name, count: part.count, share: part.share,
                                                           completeness: typeMFD.completenessTenth.map { Double($0) / 10 },
                                                           bValue: typeFit?.b, bValueError: typeFit?.bError)
                                  })
            daily = statistics.daily.map { Day(day: $0.day, count: $0.count) }
            depth = Depth(bins: statistics.depthBins.map { Bin(from: $0.from, to: $0.to, count: $0.count) })
            regions = statistics.topRegions(StatsCommand.regionLimit).map { Region(region: $0.region, count: $0.count) }
            agencies = (magnitudes.composition?.agencies ?? []).map { Agency(agency: $0.name, count: $0.count, share: $0.share) }
            warnings = magnitudes.warnings
            declustered = statistics.declustered.map { Declustered(method: $0.method.rawValue, removed: $0.removed) }
        }
    }

    // MARK: Text

    /// A readable table: the fit and its warnings, then each distribution with a bar scaled to
    /// its largest count (of a list with at least one quake).
    static func text(_ statistics: CatalogueStatistics, _ magnitudes: MagnitudeFit) -> String {
        let mfd = magnitudes.mfd
        var lines = [CountFormat.quakes(statistics.count)]
        if let declustered = statistics.declustered {
            lines[0] += " in the background: \(declustered.method.title) removed \(CountFormat.count(declustered.removed, "dependent quake")) of "
                + CountFormat.grouped(statistics.count + declustered.removed)
        }
        lines += magnitudes.lines
        lines += magnitudes.warnings.map { "Warning: \($0)" }
        if let composition = magnitudes.composition {
            lines.append("Agencies: " + ListComposition.shares(composition.agencies.map { ($0.name, $0.count) }, limit: 8))
            lines.append("")
            lines += typeTable(composition, method: mfd.method)
        }
        lines.append("")
        lines += table("Magnitude", mfd.bins.map { (MagnitudeBin.rangeText(from: $0.from, to: $0.to), $0.count) }
                       + (mfd.unusable > 0 ? [("none", mfd.unusable)] : []))
        lines.append("")
        let zone = statistics.timeZone.identifier == "UTC" ? "UTC" : "local time"
        lines += table("Day (\(zone))", statistics.daily.map { ($0.day, $0.count) })
        lines.append("")
        lines += table("Depth (km)", statistics.depthBins.map { (String(format: "%4.0f–%.0f", $0.from, $0.to), $0.count) })
        lines.append("")
        lines += table("Region", statistics.topRegions(regionLimit).map { ($0.region, $0.count) })
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each magnitude type with its count, share and own fit (Mc by the same method).
    static func typeTable(_ composition: ListComposition, method: CompletenessMethod) -> [String] {
        let rows = composition.types.map { part -> [String] in
            let mfd = part.frequency(method)
            let fit = mfd.fit.map { String(format: "Mc %.1f  b ", $0.completeness) + UncertaintyFormat.string($0.b, $0.bError) }
            return [part.name, CountFormat.grouped(part.count), ListComposition.percent(part.share), fit ?? "no fit: " + (mfd.why ?? "")]
        }
        let header = ["Type", "quakes", "share", "fit (\(method.rawValue))"]
        let widths = (0 ..< 3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: widths[1] - cells[1].count) + cells[1] + "  "
                + String(repeating: " ", count: widths[2] - cells[2].count) + cells[2] + "  " + cells[3]
        }
        return [line(header)] + rows.map(line)
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
