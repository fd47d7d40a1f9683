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
        usage: ["list [--sort time|magnitude|region|depth|distance|intensity] [--ascending|--descending] [--search <text>] [<filters>] [--min-magnitude <m>] [--min-intensity <intensity>] [--near <lat,lon>] [--radius <km>] [--limit <n>] [--decluster gk|reasenberg] [--json]",
                "list --scene <id> [--limit <n>] [--json]"],
        discussion: """
            Sections follow the sort: days for time, whole magnitudes for magnitude, regions
            for region, depth bands (10 km wide to 100 km, then 100 km wide) for depth, shallowest
            first, distance bands (< 100, 100–300, 300–1,000, 1,000–3,000, ≥ 3,000 in the app
            setting distanceUnit) for distance, nearest first, whole predicted intensities at home
            (X extreme … I not felt) for intensity, strongest first. An order may be given by the
            start of its name alone (--sort mag, as the list's column header writes it).

            The filters are the browser's ':' filters, the same words as flags, read by the same
            parser: --mag 4 (or 4+), --mag 4-6, --depth 0-70, --depth 300+, --since 24h (30m, 7d,
            2w), --time 2025-01-01 (or FROM..TO, the end excluded, a day or 2025-01-01T06:30, in the
            timeZone setting), --type earthquake (--type '!quarry blast' hides a type), --alert
            orange (that PAGER level and higher), --felt, --intensity 4+ and --mag-type mww
            (:magtype; unknown for none). What the ':' line refuses they refuse, in its words.

            --scene ID lists what that scene's pane shows: its search, ':' filters, sort and
            direction, near-home filter (~) and the app settings (minimumMagnitude, timeZone,
            home), every row of its list (collapsed sections too); --since counts back from now,
            as a relaunch of the scene does. A scene 'quaketui open' has sent a quake but that has
            not started yet lists the whole list, as it will show it; an unknown scene is an
            error. --scene takes no other filter or sort.

            Distances and predicted intensities are measured from --near LAT,LON, else from the
            app setting home ('quaketui config home LAT,LON'); --sort distance, --sort intensity,
            --min-intensity and --radius need one of them. The intensity is the Modified Mercalli
            intensity Allen, Wald & Worden (2012) predict there (a median, without site effects;
            see the README); --min-intensity 4 (or IV) keeps the quakes shown as IV or stronger.
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

            --mag-type T lists only the quakes whose magnitude type is T. --decluster gk or
            reasenberg lists the background alone: the quakes Gardner & Knopoff (1974) windows or
            Reasenberg (1985) clusters do not mark as dependent (see 'quaketui stats --help'), with
            sections and total counted over them, and "declustered":{"method","removed"} in --json.

            A line is MAGNITUDE TYPE  TIME  DEPTH  PLACE  [CODE], then '2 ag' when several
            agencies reported the quake (the depth in the app setting distanceUnit, as the browser
            shows it; — where unknown; a type longer than 4 cells cut, as the browser's column).
            'quaketui watch' prints the same line.

            --json prints {"sample","total","sections":[{"id","title","count","quakes":[QUAKE]}]},
            where QUAKE is the object 'watch --json' prints too: {"code","magnitude","magType",
            "place","time","updated","depth","latitude","longitude","type","status","alert",
            "tsunami","felt","sig","net","url","title","source","intensityAtHome",
            "sArrivalSeconds","agencies","reports"} (null where the quake has no value); with --near or a home, each
            quake also has "distanceKm" (great-circle, km) and "bearing" (degrees clockwise from
            north, from the point to the epicentre). "intensityAtHome" is the intensity predicted
            at home (the app setting, wherever --near measures from) to one decimal (1.0–10.0) and
            "sArrivalSeconds" when its S waves reach home (within 1,000 km), both null without a
            home or a magnitude. "agencies" is how many agencies reported the quake and
            "reports" their solutions, the preferred one (whose code the quake keeps) first:
            [{"agency","code","time","latitude","longitude","depth","magnitude","magType","status",
            "updated"}].
            """,
        options: [
            .init(name: "sort", value: "ORDER", help: "time (default), magnitude, region, depth, distance or intensity (these two need --near or a home).",
                  completion: .values(QuakeSortOrder.allCases.map(\.rawValue))),
            .init(name: "ascending", value: nil, help: "Oldest, smallest or A first."),
            .init(name: "descending", value: nil, help: "Newest, largest or Z first."),
            .init(name: "search", value: "TEXT", help: "Only quakes whose place holds every word of TEXT (or another name of that place), or whose code starts with it."),
            FilterFlags.minimumMagnitude,
        ] + FilterFlags.options + [
            FilterFlags.minimumIntensity,
            .init(name: "near", value: "LAT,LON", help: "Measure distances from this point (decimal degrees) instead of home."),
            .init(name: "radius", value: "KM", help: "Only quakes within KM kilometres of --near (or of home)."),
            .init(name: "limit", value: "N", help: "Print at most N quakes (sections keep their full counts)."),
            declusterOption, sceneOption,
            CommandSpec.stateDir, CommandSpec.json,
        ])

    /// `--scene ID`: what that scene's pane shows (issue 56.11).
    static let sceneOption = CommandSpec.Option(
        name: "scene", value: "ID", help: "List what this scene's pane shows: its search, filters and sort (see 'quaketui scenes').",
        completion: .scenes)
    /// `--decluster gk|reasenberg`: the background alone (issue 54), in `list` and `stats`.
    static let declusterOption = CommandSpec.Option(
        name: "decluster", value: "METHOD", help: "Only the background: gk (Gardner & Knopoff 1974) or reasenberg (Reasenberg 1985).",
        completion: .values(Declustering.allCases.map(\.rawValue)))

    /// `--decluster`'s method, nil without it.
    static func declustering(_ arguments: ParsedArguments, command: CommandSpec = spec) throws(UsageError) -> Declustering? {
        guard let text = arguments.value("decluster") else { return nil }
        guard let method = Declustering(rawValue: text.lowercased()) else {
            throw UsageError(message: "'\(SafeText.sanitize(text))' is not a method of declustering; use gk or reasenberg."
                             + Spelling.didYouMean(text, in: Declustering.allCases.map(\.rawValue)), command: command)
        }
        return method
    }

    /// The point distances are measured from: `--near`, else home; a usage error when `--sort
    /// distance` or `--radius` needs one and there is none.
    static func distanceOrigin(from arguments: ParsedArguments, home: HomeLocation?,
                               command: CommandSpec = spec) throws(UsageError) -> GeoPoint? {
        var origin = home.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        if let text = arguments.value("near") {
            origin = try point(text, command: command)
        }
        let sort = arguments.value("sort").flatMap { QuakeSortOrder(named: $0) }
        let intensity = ["min-intensity", "intensity"].first { arguments.value($0) != nil }
        if origin == nil, sort?.needsHome == true || arguments.value("radius") != nil || intensity != nil {
            let flag = arguments.value("radius") != nil ? "--radius"
                : intensity.map { "--" + $0 } ?? "--sort \(sort?.rawValue ?? "distance")"
            throw UsageError(message: "\(flag) needs a point: give --near LAT,LON, or set a home with 'quaketui config home LAT,LON'.",
                             command: command)
        }
        return origin
    }

    /// `--near`'s `LAT,LON`, or a usage error saying what is wrong with it: not two numbers,
    /// or which of them is off the globe (`latitude 100 is out of range (-90…90)`).
    static func point(_ text: String, command: CommandSpec) throws(UsageError) -> GeoPoint {
        switch GeoPoint.parse(text) {
        case .success(let point): return point
        case .failure(let problem):
            throw UsageError(message: "'\(SafeText.sanitize(text))' \(problem.sentence); use LAT,LON in decimal degrees, such as 35.68,139.69.",
                             command: command)
        }
    }

    static func radius(from arguments: ParsedArguments, command: CommandSpec = spec) throws(UsageError) -> Double? {
        try arguments.number("radius", is: "a radius", use: "a positive number of kilometres, at most 20038", command: command) { $0 > 0 && $0 <= 20_038 }
    }

    /// The request of the command line's sort, search and filters; `--since` counts back from
    /// `now` (ms since the epoch), `--time`'s days are in `timeZone`, `--intensity` is predicted at `home`.
    static func request(from arguments: ParsedArguments, timeZone: TimeZone, home: GeoPoint?, now: Int64,
                        command: CommandSpec = spec) throws(UsageError) -> SectionedFetchRequest {
        var order = QuakeSortOrder.time
        if let text = arguments.value("sort") {
            guard let parsed = QuakeSortOrder(named: text) else {
                throw UsageError(message: "'\(text)' is not a sort order; use time, magnitude, region, depth, distance or intensity."
                                 + Spelling.didYouMean(text, in: QuakeSortOrder.allCases.map(\.rawValue)), command: command)
            }
            order = parsed
        }
        if arguments.has("ascending") && arguments.has("descending") {
            throw UsageError(message: "Give either --ascending or --descending, not both.", command: command)
        }
        let ascending: Bool? = arguments.has("ascending") ? true : arguments.has("descending") ? false : nil
        let minimum = try arguments.number("min-magnitude", is: "a magnitude", use: "a number such as 4.5", command: command)
        let filters = try FilterFlags.rowFilters(arguments, now: now, timeZone: timeZone, home: home, command: command)
        return SectionedFetchRequest(
            predicate: QuakePredicate(searchText: arguments.value("search") ?? "", minimumMagnitude: minimum, rowFilters: filters),
            sortDescriptor: QuakeSortDescriptor(order, ascending: ascending), timeZone: timeZone)
    }

    /// `--min-intensity`: a whole intensity, 1–10 or I–X; nil without the flag.
    static func minimumIntensity(from arguments: ParsedArguments, command: CommandSpec = spec) throws(UsageError) -> Int? {
        guard let text = arguments.value("min-intensity") else { return nil }
        guard let whole = FeltIntensity.parseWhole(text.trimmingCharacters(in: .whitespaces)) else {
            throw UsageError(message: "'\(SafeText.sanitize(text))' is not an intensity; use a whole Modified Mercalli intensity, 1 to 10 or I to X, such as 4.",
                             command: command)
        }
        return whole
    }

    static func limit(from arguments: ParsedArguments) throws(UsageError) -> Int {
        guard let text = arguments.value("limit") else { return .max }
        guard let value = Int(text), value >= 0 else {
            throw UsageError(message: "'\(text)' is not a count; use a whole number such as 20.", command: spec)
        }
        return value
    }

    /// The request a command line of `list`'s filters asks for, with the app settings it needs
    /// (time zone, home, distance unit), the state directory, the point distances are measured
    /// from and home (the app setting, nil when unset). The command line is checked before the
    /// state directory is touched.
    static func resolvedRequest(_ arguments: ParsedArguments, command: CommandSpec = spec) throws
        -> (StateDirectory, SectionedFetchRequest, origin: GeoPoint?, home: GeoPoint?) {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        // The syntax first, before any file is read (a point stands in for home: --intensity's
        // need of one is said with the others', by distanceOrigin).
        _ = try request(from: arguments, timeZone: .current, home: GeoPoint(latitude: 0, longitude: 0), now: now, command: command)
        let radius = try radius(from: arguments, command: command)
        let minimumIntensity = try minimumIntensity(from: arguments, command: command)
        if arguments.value("near") != nil { _ = try distanceOrigin(from: arguments, home: nil, command: command) }
        // Nothing is created: the settings of a directory without a store read as defaults,
        // so the usage errors they decide come first, then a missing store is refused.
        let state = try arguments.resolvedStateDirectory()
        let settings = try AppStorage(state: state, preparing: false)
        // Every answer depends on a setting (the time zone at least): never the defaults in their place.
        try settings.requireReadable()
        let origin = try distanceOrigin(from: arguments, home: settings.value(for: AppKeys.home), command: command)
        var request = try request(from: arguments, timeZone: timeZone(settings.value(for: AppKeys.timeZone)), home: origin, now: now,
                                  command: command)
        if let origin {
            request.distanceReference = DistanceReference(origin: origin, unit: settings.value(for: AppKeys.distanceUnit) == "mi" ? .mi : .km)
            if let radius { request.predicate.rowFilters.append(.near(origin, radiusKm: radius)) }
            if let minimumIntensity { request.predicate.rowFilters.append(.intensity(atLeast: minimumIntensity, home: origin)) }
        }
        try arguments.requireStore(in: state)
        let home = settings.value(for: AppKeys.home).map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        return (state, request, origin, home)
    }

    /// What `list` says on stderr while the store holds the bundled sample.
    static let sampleNote = "showing the bundled sample catalogue (not real data); run 'quaketui refresh' for the live feed"

    static func run(_ arguments: ParsedArguments) throws {
        let limit = try limit(from: arguments)
        if let scene = arguments.value("scene") { return try runScene(scene, arguments, limit: limit) }
        let declustering = try declustering(arguments)
        let (state, request, origin, home) = try resolvedRequest(arguments)
        try list(request, origin: origin, home: home, in: state, limit: limit, declustering: declustering, arguments: arguments) { container in
            try emptyResultMessage(container: container, request: request, arguments: arguments)
        }
    }

    /// Prints `request`'s results (the background alone with `declustering`), distances from
    /// `origin` and the predicted intensity at `home`; `whyEmpty` says why there are none.
    static func list(_ request: SectionedFetchRequest, origin: GeoPoint?, home: GeoPoint?, in state: StateDirectory, limit: Int,
                     declustering: Declustering?, arguments: ParsedArguments,
                     whyEmpty: (PersistentContainer) throws -> String) throws {
        let container = try PersistentContainer(readingFrom: state.url, upgrading: SchemaUpgrade.say)
        defer { container.close() }
        let isSample = try container.viewContext.read { try SampleCatalogue.isSample($0) }
        if isSample { printError(sampleNote) }
        let controller = try FetchedResultsController(container: container, request: request)
        defer { controller.close() }
        // A type or magnitude type no stored quake has is refused as the `:` line refuses it.
        if let unknown = try FilterFlags.unknownValue(in: request.predicate.rowFilters, among: controller.storedValues) {
            throw CommandError(unknown)
        }
        let output = BufferedOutput()
        defer { output.flush() }
        let writer = ListWriter(container: container, limit: limit, timeZone: request.timeZone, origin: origin,
                                home: home, unit: distanceUnit(in: state), output: output)
        if let declustering {
            // The kept ids as the list's row filter, as the browser's `:decluster` applies them:
            // one decision of which rows are listed (`QueryPlan`).
            let kept = try container.viewContext.read { db in try db.declusteredSet(of: request, method: declustering) }
            var background = request
            background.predicate.rowFilters.append(.declustered(kept))
            let view = try FetchedResultsController(container: container, request: background)
            defer { view.close() }
            let removed = kept.removed
            if arguments.has("json") {
                try writer.writeJSON(view, isSample: isSample, declustered: (declustering, removed))
            } else if view.total == 0 {
                output.write(try whyEmpty(container) + "\n")
            } else {
                output.write("The background by \(declustering.title): \(CountFormat.count(removed, "dependent quake")) left out.\n")
                try writer.writeText(view)
            }
            return
        }
        if arguments.has("json") {
            try writer.writeJSON(controller, isSample: isSample)
        } else if controller.count == 0 {
            output.write(try whyEmpty(container) + "\n")
        } else {
            try writer.writeText(controller)
        }
    }

    /// The app setting `distanceUnit` (depths are shown in it, as in the browser).
    static func distanceUnit(in state: StateDirectory) -> DisplaySettings.DistanceUnit {
        distanceUnit((try? AppStorage(state: state, preparing: false))?.value(for: AppKeys.distanceUnit))
    }

    /// The unit the app setting `distanceUnit` names (`list`'s and `watch`'s lines).
    static func distanceUnit(_ setting: String?) -> DisplaySettings.DistanceUnit {
        setting == "mi" ? .mi : .km
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
        if arguments.value("min-intensity") != nil,
           let whole = request.predicate.rowFilters.lazy.compactMap({ if case .intensity(let w, _) = $0 { w } else { nil } }).first {
            filters.append("none predicted to be felt as \(FeltIntensity.numeral(whole)) or more")
            advice.append("lower --min-intensity")
        }
        let flags = FilterFlags.lines(arguments)
        if !flags.isEmpty {
            filters.append(flags.map { flag, line in
                "--\(flag)" + (line.contains(" ") ? " " + SafeText.sanitize(String(line.drop { $0 != " " }.dropFirst())) : "")
            }.joined(separator: ", "))
            advice.append(flags.count == 1 ? "widen or drop --\(flags[0].flag)" : "widen or drop those filters")
        }
        if let minimum = request.predicate.minimumMagnitude {
            let top = largest.map { "M " + MagnitudeBin.text($0) } ?? "none with a magnitude"
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
}

/// The rows `list` prints: a results controller's (declustered by its request's filter with `--decluster`).
protocol ListedRows {
    var total: Int { get }
    /// The rows of section `index` that are printed.
    func count(ofSection index: Int, _ section: QuakeSection) -> Int
}

extension FetchedResultsController: ListedRows {
    var total: Int { count }
    func count(ofSection index: Int, _ section: QuakeSection) -> Int { section.count }
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

    /// A stored time (ms since the epoch).
    static func string(milliseconds: Int64) -> String {
        string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
