import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `quaketui list`: the sectioned results, for people and scripts.
enum ListCommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "Print the sectioned results (for scripting).",
        usage: ["list [--sort time|magnitude|region|depth|distance] [--ascending|--descending] [--search <text>] [--min-magnitude <m>] [--near <lat,lon>] [--radius <km>] [--limit <n>] [--json]"],
        discussion: """
            Sections follow the sort: days for time, whole magnitudes for magnitude, regions
            for region, depth bands (10 km wide to 100 km, then 100 km wide) for depth, shallowest
            first, distance bands (< 100, 100–300, 300–1,000, 1,000–3,000, ≥ 3,000 in the app
            setting distanceUnit) for distance, nearest first. An order may be given by the start
            of its name alone (--sort mag, as the list's column header writes it).

            Distances are measured from --near LAT,LON, else from the app setting home
            ('quaketui config home LAT,LON'); --sort distance and --radius need one of them.
            --radius KM keeps only quakes within KM kilometres (great-circle) of that point.
            The search matches every word of TEXT in any order ("japan honshu"), each a case-
            and diacritic-insensitive substring of the place ("mexico" finds "México") or
            another name of the same place ("sumatra" finds "Sumatera", "turkey" finds
            "Türkiye"; README, Place names); whitespace separates words, nothing else is
            syntax. Text that looks like a code (letters and digits, at least one of each, no
            space: us7000abcd) also finds the quakes whose code starts with it. Days and times follow the app setting timeZone in
            defaults.plist (utc or local; local by default).

            list only reads: it never imports anything. While the store holds the bundled sample
            catalogue (synthetic data the browser shows on its first launch), list says so on
            stderr and --json has "sample": true; 'quaketui refresh' or 'quaketui import'
            replaces it with real data.

            --json prints {"sample","total","sections":[{"id","title","count","quakes":[{"code",
            "magnitude","place","time","depth","latitude","longitude","source"}]}]}; with --near
            or a home, each quake also has "distanceKm" (great-circle, km) and "bearing" (degrees
            clockwise from north, from the point to the epicentre).
            """,
        options: [
            .init(name: "sort", value: "ORDER", help: "time (default), magnitude, region, depth or distance (needs --near or a home).",
                  completion: .values(QuakeSortOrder.allCases.map(\.rawValue))),
            .init(name: "ascending", value: nil, help: "Oldest, smallest or A first."),
            .init(name: "descending", value: nil, help: "Newest, largest or Z first."),
            .init(name: "search", value: "TEXT", help: "Only quakes whose place holds every word of TEXT (or another name of that place), or whose code starts with it."),
            .init(name: "min-magnitude", value: "M", help: "Only quakes of magnitude M or more."),
            .init(name: "near", value: "LAT,LON", help: "Measure distances from this point (decimal degrees) instead of home."),
            .init(name: "radius", value: "KM", help: "Only quakes within KM kilometres of --near (or of home)."),
            .init(name: "limit", value: "N", help: "Print at most N quakes (sections keep their full counts)."),
            CommandSpec.stateDir, CommandSpec.json,
        ])

    /// The point distances are measured from: `--near`, else home; a usage error when `--sort
    /// distance` or `--radius` needs one and there is none.
    static func distanceOrigin(from arguments: ParsedArguments, home: HomeLocation?,
                               command: CommandSpec = spec) throws(UsageError) -> GeoPoint? {
        var origin = home.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        if let text = arguments.value("near") {
            guard let point = GeoPoint(parsing: text) else {
                throw UsageError(message: "'\(SafeText.sanitize(text))' is not a place; use LAT,LON in decimal degrees, such as 35.68,139.69.",
                                 command: command)
            }
            origin = point
        }
        if origin == nil, arguments.value("sort") == "distance" || arguments.value("radius") != nil {
            let flag = arguments.value("radius") != nil ? "--radius" : "--sort distance"
            throw UsageError(message: "\(flag) needs a point: give --near LAT,LON, or set a home with 'quaketui config home LAT,LON'.",
                             command: command)
        }
        return origin
    }

    static func radius(from arguments: ParsedArguments, command: CommandSpec = spec) throws(UsageError) -> Double? {
        try arguments.number("radius", is: "a radius", use: "a positive number of kilometres", command: command) { $0 > 0 }
    }

    static func request(from arguments: ParsedArguments, timeZone: TimeZone,
                        command: CommandSpec = spec) throws(UsageError) -> SectionedFetchRequest {
        var order = QuakeSortOrder.time
        if let text = arguments.value("sort") {
            guard let parsed = QuakeSortOrder(named: text) else {
                throw UsageError(message: "'\(text)' is not a sort order; use time, magnitude, region, depth or distance."
                                 + Spelling.didYouMean(text, in: QuakeSortOrder.allCases.map(\.rawValue)), command: command)
            }
            order = parsed
        }
        if arguments.has("ascending") && arguments.has("descending") {
            throw UsageError(message: "Give either --ascending or --descending, not both.", command: command)
        }
        let ascending: Bool? = arguments.has("ascending") ? true : arguments.has("descending") ? false : nil
        let minimum = try arguments.number("min-magnitude", is: "a magnitude", use: "a number such as 4.5", command: command)
        return SectionedFetchRequest(
            predicate: QuakePredicate(searchText: arguments.value("search") ?? "", minimumMagnitude: minimum),
            sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: timeZone)
    }

    static func limit(from arguments: ParsedArguments) throws(UsageError) -> Int {
        guard let text = arguments.value("limit") else { return .max }
        guard let value = Int(text), value >= 0 else {
            throw UsageError(message: "'\(text)' is not a count; use a whole number such as 20.", command: spec)
        }
        return value
    }

    /// The request a command line of `list`'s filters asks for, with the app settings it needs
    /// (time zone, home, distance unit), the state directory and the point distances are measured
    /// from. The command line is checked before the state directory is touched.
    static func resolvedRequest(_ arguments: ParsedArguments, command: CommandSpec = spec) throws
        -> (StateDirectory, SectionedFetchRequest, GeoPoint?) {
        _ = try request(from: arguments, timeZone: .current, command: command)
        let radius = try radius(from: arguments, command: command)
        if arguments.value("near") != nil { _ = try distanceOrigin(from: arguments, home: nil, command: command) }
        // Nothing is created: the settings of a directory without a store read as defaults,
        // so the usage errors they decide come first, then a missing store is refused.
        let state = try arguments.resolvedStateDirectory()
        let settings = try AppStorage(state: state, preparing: false)
        // Every answer depends on a setting (the time zone at least): never the defaults in their place.
        try settings.requireReadable()
        var request = try request(from: arguments, timeZone: timeZone(settings.value(for: AppKeys.timeZone)), command: command)
        let origin = try distanceOrigin(from: arguments, home: settings.value(for: AppKeys.home), command: command)
        if let origin {
            request.distanceReference = DistanceReference(origin: origin, unit: settings.value(for: AppKeys.distanceUnit) == "mi" ? .mi : .km)
            if let radius { request.predicate.rowFilters.append(.near(origin, radiusKm: radius)) }
        }
        try arguments.requireStore(in: state)
        return (state, request, origin)
    }

    /// What `list` says on stderr while the store holds the bundled sample.
    static let sampleNote = "showing the bundled sample catalogue (not real data); run 'quaketui refresh' for the live feed"

    static func run(_ arguments: ParsedArguments) throws {
        let limit = try limit(from: arguments)
        let (state, request, origin) = try resolvedRequest(arguments)
        let timeZone = request.timeZone
        let container = try PersistentContainer(readingFrom: state.url)
        defer { container.close() }
        let isSample = try container.viewContext.read { try SampleCatalogue.isSample($0) }
        if isSample { printError(sampleNote) }
        let controller = try FetchedResultsController(container: container, request: request)
        defer { controller.close() }
        let output = BufferedOutput()
        defer { output.flush() }
        if arguments.has("json") {
            try writeJSON(controller, limit: limit, isSample: isSample, origin: origin, to: output)
        } else if controller.count == 0 {
            output.write(try emptyResultMessage(container: container, request: request, arguments: arguments) + "\n")
        } else {
            try writeText(controller, limit: limit, timeZone: timeZone, to: output)
        }
    }

    /// Why nothing is listed, and what to do: an empty store, or the filters that hide what it
    /// holds (`list` and `stats` take the same filters).
    static func emptyResultMessage(container: PersistentContainer, request: SectionedFetchRequest,
                                           arguments: ParsedArguments) throws -> String {
        let (stored, largest) = try container.viewContext.read { db in
            (try db.statistics().quakeCount, try db.largestMagnitude())
        }
        guard stored > 0 else {
            return "The store is empty. Run 'quaketui refresh' to download the USGS month feed, or 'quaketui import FILE'."
        }
        var filters: [String] = []
        var advice: [String] = []
        if let search = arguments.value("search") {
            filters.append("no place contains '\(SafeText.sanitize(search))'")
            advice.append("try a shorter search")
        }
        if let radius = arguments.value("radius") {
            filters.append("none within \(SafeText.sanitize(radius)) km")
            advice.append("raise --radius")
        }
        if let minimum = request.predicate.minimumMagnitude {
            let top = largest.map { String(format: "M %.1f", $0) } ?? "none with a magnitude"
            filters.append("--min-magnitude \(minimum.formatted()) (the largest stored is \(top))")
            advice.append("lower --min-magnitude")
        }
        let todo = advice.joined(separator: " or ")
        return "No quakes match among the \(CountFormat.grouped(stored)) stored: \(filters.joined(separator: ", and ")). "
            + ErrorPresenter.capitalized(todo) + "."
    }

    /// The zone of the app setting `timeZone`: `utc`, or `local` (the default) for the process's zone.
    static func timeZone(_ setting: String) -> TimeZone {
        setting == "utc" ? TimeZone(identifier: "UTC")! : .current
    }

    /// Calls `body` for every printed row with its section, reading the rows in chunks.
    private static func forEachRow(_ controller: FetchedResultsController, limit: Int,
                                   _ body: (Int, QuakeSection, QuakeRow) throws -> Void) throws {
        let total = min(limit, controller.count)
        var offset = 0
        while offset < total {
            let rows = try controller.rows(in: offset..<min(total, offset + 1000))
            for (i, row) in rows.enumerated() {
                let section = controller.indexPath(forOffset: offset + i).section
                try body(section, controller.sections[section], row)
            }
            offset += rows.count
            if rows.isEmpty { break }
        }
    }

    private static func writeText(_ controller: FetchedResultsController, limit: Int, timeZone: TimeZone,
                                  to output: BufferedOutput) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var lastSection = -1
        try forEachRow(controller, limit: limit) { index, section, row in
            if index != lastSection {
                if lastSection >= 0 { output.write("\n") }
                output.write("\(SafeText.sanitize(section.title)) (\(CountFormat.grouped(section.count)))\n")
                lastSection = index
            }
            let magnitude = row.magnitude.map { String(format: "M %4.1f", $0) } ?? "M  ?  "
            let time = formatter.string(from: Date(timeIntervalSince1970: Double(row.time) / 1000))
            let place = row.place.isEmpty ? "(no place)" : SafeText.sanitize(PlaceName.displayed(row.place))
            output.write("  \(magnitude)  \(time)  \(place)  [\(SafeText.sanitize(row.code))]\n")
        }
        if limit < controller.count {
            output.write("\n… \(CountFormat.grouped(controller.count - limit)) more (of \(CountFormat.grouped(controller.count))); raise --limit to see them.\n")
        }
    }

    struct QuakeJSON: Encodable {
        let row: QuakeRow
        /// The point of `distanceKm` and `bearing`, nil for none.
        var origin: GeoPoint?
        enum CodingKeys: String, CodingKey { case code, magnitude, place, time, depth, latitude, longitude, source, distanceKm, bearing }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(row.code, forKey: .code)
            try c.encode(row.magnitude, forKey: .magnitude)  // null when unknown, not omitted
            try c.encode(row.place, forKey: .place)
            try c.encode(Date(timeIntervalSince1970: Double(row.time) / 1000), forKey: .time)
            try c.encode(row.depth, forKey: .depth)
            try c.encode(row.latitude, forKey: .latitude)
            try c.encode(row.longitude, forKey: .longitude)
            try c.encode(row.source, forKey: .source)
            if let origin {
                let epicentre = GeoPoint(latitude: row.latitude, longitude: row.longitude)
                try c.encode(origin.distance(to: epicentre), forKey: .distanceKm)
                try c.encode(origin.bearing(to: epicentre), forKey: .bearing)
            }
        }
    }

    /// Streams `{"total","sections":[{"id","title","count","quakes":[…]}]}` without building it in memory.
    private static func writeJSON(_ controller: FetchedResultsController, limit: Int, isSample: Bool, origin: GeoPoint?,
                                  to output: BufferedOutput) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601Format.string(from: date))
        }
        func json<T: Encodable>(_ value: T) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        output.writeJSON("{\"sections\":[")
        var lastSection = -1
        try forEachRow(controller, limit: limit) { index, section, row in
            if index != lastSection {
                if lastSection >= 0 { output.writeJSON("]},") }
                output.writeJSON("{\"count\":\(section.count),\"id\":\(try json(section.id)),\"title\":\(try json(section.title)),\"quakes\":[")
                lastSection = index
            } else {
                output.writeJSON(",")
            }
            output.writeJSON(try json(QuakeJSON(row: row, origin: origin)))
        }
        if lastSection >= 0 { output.writeJSON("]}") }
        output.writeJSON("],\"sample\":\(isSample),\"total\":\(controller.count)}\n")
    }
}

/// ISO-8601 with milliseconds, UTC (`2024-05-01T12:00:00.123Z`).
enum ISO8601Format {
    nonisolated(unsafe) private static let formatter: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()
    private static let lock = NSLock()
    static func string(from date: Date) -> String {
        lock.lock()
        defer { lock.unlock() }
        return formatter.string(from: date)
    }
}
