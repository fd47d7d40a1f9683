import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTUI

/// `quaketui fetch [filters] [--service S] [--json]`: page through an FDSN event service.
enum FetchCommand {
    static let spec = CommandSpec(
        name: "fetch",
        abstract: "Fetch a catalogue's history from an FDSN event service (USGS, EMSC, IRIS, INGV, GEOFON).",
        usage: ["fetch [--start <time>] [--end <time>] [--min-magnitude <m>] [--max-magnitude <m>] [--min-depth <km>] [--max-depth <km>] [--bbox <w,s,e,n>] [--near <lat,lon> --radius <km>] [--service <name|url>] [--json]"],
        discussion: """
            Asks the service's /fdsnws/event/1/query one time window at a time, each window small
            enough to stay under the service's limit (USGS: 20,000 events): a window that reaches
            the limit, or is refused with HTTP 413, is halved. Windows are committed a few
            seconds' worth at a time and show up live in every running browser. One request at a time;
            HTTP 429 and 503 wait for Retry-After. Interrupted (ctrl-c, kill -9, a network error),
            the same command continues from the first uncommitted window.

            TIMES: a date (2011-03-01), a date and time in UTC (2011-03-11T05:46:00), 'now', or a
            span before now: 30d, 12h, 2w, 10y. Default: the last 30 days.
            SERVICES: usgs (default), emsc, iris, ingv, geofon, or the URL of any FDSN event
            service. Codes of agencies other than USGS are prefixed (emsc:…, iris:…).
            QUAKETUI_FDSN_BASE_URL replaces a named service's URL (mirrors, tests).
            """,
        options: [
            .init(name: "start", value: "TIME", help: "Events on or after this time (default: 30d)."),
            .init(name: "end", value: "TIME", help: "Events on or before this time (default: now)."),
            .init(name: "min-magnitude", value: "M", help: "Smallest magnitude, as the service tests it (its stored value)."),
            .init(name: "max-magnitude", value: "M", help: "Largest magnitude."),
            .init(name: "min-depth", value: "KM", help: "Shallowest depth in km."),
            .init(name: "max-depth", value: "KM", help: "Deepest depth in km."),
            .init(name: "bbox", value: "W,S,E,N", help: "A box in degrees: west, south, east, north longitudes/latitudes."),
            .init(name: "near", value: "LAT,LON", help: "The centre of a circle (with --radius)."),
            .init(name: "radius", value: "KM", help: "The circle's radius in km (with --near)."),
            .init(name: "service", value: "NAME|URL", help: "usgs, emsc, iris, ingv, geofon, or an FDSN event service URL."),
            CommandSpec.stateDir, CommandSpec.json,
        ])

    static let userAgent = "quaketui/\(Quaketui.version) (fetch; FDSN event client; one request at a time)"

    static func run(_ arguments: ParsedArguments) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'; fetch takes only options.", command: spec)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let startText = arguments.value("start") ?? "30d"
        let endText = arguments.value("end") ?? "now"
        var query: FDSNQuery
        let service = arguments.value("service") ?? "usgs"
        do {
            query = try FDSNQuery(service: service)
        } catch {
            // A name that is not a URL may be a typo of a known one (`emsx`).
            let guess = service.contains(":") ? "" : Spelling.didYouMean(service, in: FDSNQuery.services.map(\.name))
            throw UsageError(message: error.description.prefix(1).uppercased() + error.description.dropFirst() + "." + guess,
                             command: spec)
        }
        do {
            query.start = try FDSNQuery.time(startText, now: now)
            query.end = try FDSNQuery.time(endText, now: now)
        } catch {
            throw UsageError(message: error.description.prefix(1).uppercased() + error.description.dropFirst() + ".", command: spec)
        }
        guard query.start < query.end else {
            throw UsageError(message: "--start (\(startText)) must be before --end (\(endText)).", command: spec)
        }
        query.minMagnitude = try number(arguments, "min-magnitude")
        query.maxMagnitude = try number(arguments, "max-magnitude")
        query.minDepth = try number(arguments, "min-depth")
        query.maxDepth = try number(arguments, "max-depth")
        if let box = try numbers(arguments, "bbox", count: 4) {
            guard (-90...90).contains(box[1]), (-90...90).contains(box[3]), box[1] <= box[3],
                  (-180...180).contains(box[0]), (-180...180).contains(box[2]) else {
                throw UsageError(message: "--bbox is west,south,east,north with longitudes in -180…180 and south ≤ north.", command: spec)
            }
            query.box = box
        }
        let near = try numbers(arguments, "near", count: 2)
        let radius = try number(arguments, "radius")
        switch (near, radius) {
        case let (near?, radius?):
            guard (-90...90).contains(near[0]), (-180...180).contains(near[1]), radius > 0 else {
                throw UsageError(message: "--near is LAT,LON (latitude -90…90, longitude -180…180) and --radius a positive km.", command: spec)
            }
            query.circle = near + [radius]
        case (nil, nil): break
        default: throw UsageError(message: "--near and --radius go together.", command: spec)
        }

        let writableState = try arguments.stateDirectory()
        let container = try PersistentContainer(directory: writableState.url, upgrading: SchemaUpgrade.say)
        container.preferAgencies(state: writableState)
        defer { container.close() }
        container.onLockWait = WriteLockWait.say
        let bar = FetchProgressBar(label: query.agency)
        defer { bar.finish() }
        let fetch = FDSNFetch(query: query, container: container, userAgent: userAgent, note: { bar.note($0) })
        let summary = try fetch.run(identity: query.identity(startText: startText, endText: endText)) { bar.update($0) }
        bar.finish()
        if arguments.has("json") { return try printJSON(summary) }
        if let from = summary.resumedFrom { print("resumed an interrupted fetch at \(from)") }
        let clauses = ImportSummary.joinedClause(joined: summary.joined ?? 0) + ImportSummary.mergedClause(merged: summary.merged ?? 0)
            + ImportSummary.withdrawnClause(withdrawn: summary.withdrawn)
        print("fetched \(CountFormat.quakes(summary.quakes)) in \(CountFormat.count(summary.windows, "window")) from \(summary.source) "
              + "(\(CountFormat.grouped(summary.inserted - (summary.joined ?? 0))) new, \(CountFormat.grouped(summary.updated)) updated, "
              + "\(CountFormat.grouped(summary.unchanged)) unchanged, \(CountFormat.grouped(summary.skipped)) skipped this run\(clauses)) "
              + "in \(String(format: "%.2f", summary.seconds)) s")
        if let replaced = summary.sampleReplaced { print(replaced.sentence) }
    }

    private static func number(_ arguments: ParsedArguments, _ name: String) throws -> Double? {
        try arguments.number(name, is: "a number", use: "a number such as 4.5", command: spec)
    }

    private static func numbers(_ arguments: ParsedArguments, _ name: String, count: Int) throws -> [Double]? {
        guard let text = arguments.value(name) else { return nil }
        let values = text.split(separator: ",").compactMap { try? DecimalNumber.parse($0).get().value }
        guard values.count == count else {
            throw UsageError(message: "--\(name) wants \(count) numbers separated by commas, not '\(text)'.", command: spec)
        }
        return values
    }
}

/// The fetch's progress bar on stderr when it is a terminal: the whole span, windows, quakes,
/// rate, ETA. Notes (waits, retries) go above it, or alone when stderr is not a terminal.
final class FetchProgressBar {
    private let bar: ProgressBar
    private let label: String

    init(label: String) {
        self.label = label
        bar = ProgressBar(label: label)
    }

    func update(_ progress: FDSNFetch.Progress) {
        guard bar.isDue else { return }
        let width = 24, filled = Int(progress.fraction * Double(width))
        var line = "fetching \(label)  [" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "] "
        line += String(format: "%3.0f%%  ", progress.fraction * 100)
        line += "\(CountFormat.count(progress.windows, "window"))  \(CountFormat.quakes(progress.quakes))  \(CountFormat.grouped(Int(progress.quakesPerSecond)))/s"
        if let remaining = progress.remaining { line += "  ETA \(Int(remaining.rounded()))s" }
        bar.draw(line)
    }

    func note(_ text: String) { bar.note("fetch: \(text)") }

    func finish() { bar.finish() }
}
