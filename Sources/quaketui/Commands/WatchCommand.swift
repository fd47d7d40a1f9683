import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `quaketui watch [--min-magnitude M] [--near LAT,LON --radius KM] [--json]`: print each quake
/// as it arrives in the store, from any process (an import, a refresh, a browser's poll).
enum WatchCommand {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "Print quakes as they arrive in the store (one line each, or NDJSON).",
        usage: ["watch [--search <text>] [<filters>] [--min-magnitude <m>] [--min-intensity <intensity>] [--near <lat,lon> --radius <km>] [--refresh] [--json]"],
        discussion: """
            Runs until interrupted (ctrl-c) and prints every quake that any process adds to the
            store from now on — 'quaketui import', 'refresh', 'fetch', or a browser's automatic
            refresh — within a fraction of a second of its commit. Quakes print in the order they
            arrive; those that arrive together (one import, or what was committed while watch read
            the last ones) print oldest first, so the newest quake is the last line, as in a log.

            A quake already stored prints again when its agencies change: another agency's report
            of it joins its event, or one leaves. Its line ends with what it showed before that
            differs: '(was 1 ag)' when a report joined or left; '(was [us1000731j], 1 ag)' when
            the joining report is the preferred one now, so the event shows its code; '(was
            [CODE])' when only the preferred report changed (a revision, another
            agencyPreference). Other updates (revisions of a report the line does not show,
            notes) print nothing. Past 10,000 changes at once (a large import or fetch), the new
            rows print as new quakes, unmarked, and the other changes not at all.

            --refresh also runs the automatic refresh (a headless monitor for a server): the
            app settings autoRefreshFeed every autoRefreshInterval seconds, with conditional
            requests, backing off after failures; of all the processes on a state directory only
            one refreshes at a time (refresh.lock), the others see its quakes arrive. Failures
            are reported on stderr with the wait before the next try, in the browser's words
            ('; retry 4m'). With --refresh, watch also alerts as the browser does (alertMagnitude,
            alertRadius and alertIntensity around home): each quake once across every pane and
            process, with 'ALERT …' and a bell on stderr and alertCommand run with the quake's
            JSON on stdin. Alerts that arrive together are said the one that matters most first,
            as the browser and 'quaketui status' rank them: the strongest shaking predicted at
            home, then the highest PAGER level, then the largest magnitude.

            --search and the filters are list's (the browser's ':' filters as flags: --mag,
            --depth, --since, --time, --type, --alert, --felt, --intensity, --mag-type, and
            --min-intensity I for --intensity I+; see 'quaketui list --help'): watch prints only
            the arriving quakes that list would list with them. --since counts back from when
            watch started.

            A line is list's: MAGNITUDE TYPE  TIME  DEPTH  PLACE  [CODE], then '2 ag' when
            several agencies reported the quake (see 'quaketui list --help'); with --near, the
            distance and direction from the point go before the code.

            --json prints one object per line (NDJSON), the quake object of 'list --json':
            {"code","magnitude","magType","place","time","updated","depth","latitude","longitude",
            "type","status","alert","tsunami","felt","sig","net","url","title","source",
            "intensityAtHome","sArrivalSeconds","agencies","reports"}, plus "distanceKm" (to 0.1 km)
            and "bearing" (whole degrees) with --near; "agencies" is how many agencies reported the
            quake and "reports" their solutions as 'quaketui list --help' describes them, the
            preferred one first. An event printed again has "was": {"code","agencies"}, the code
            it showed and how many agencies had reported it before.
            """,
        options: [
            .init(name: "search", value: "TEXT", help: "Only quakes whose place holds every word of TEXT, as list --search."),
            FilterFlags.minimumMagnitude, FilterFlags.minimumIntensity,
        ] + FilterFlags.options + [
            .init(name: "near", value: "LAT,LON", help: "Only quakes within --radius of this point (decimal degrees)."),
            .init(name: "radius", value: "KM", help: "With --near: the radius in kilometres."),
            .init(name: "refresh", value: nil, help: "Also run the automatic refresh (see 'quaketui config')."),
            CommandSpec.stateDir, CommandSpec.json,
        ])

    /// The quakes `watch` prints: at least a magnitude, within a radius of a point, and those
    /// `list` would list with the same search and filters.
    struct Filter: Sendable {
        var minimumMagnitude: Double?
        var center: GeoPoint?
        var radius: Double?
        /// The search and `:` filters, decided as the store decides them (`SectionedFetchRequest.matches`).
        var request: SectionedFetchRequest?

        /// Whether `quake` passes, with its distance from the center when there is one.
        func admits(_ quake: QuakeRecord) -> (Bool, distance: Double?) {
            if let minimumMagnitude {
                guard MagnitudeBin.isShown(quake.magnitude, atLeast: minimumMagnitude) else { return (false, nil) }
            }
            if let request, !request.matches(quake) { return (false, nil) }
            guard let center else { return (true, nil) }
            let distance = center.distance(to: GeoPoint(latitude: quake.latitude, longitude: quake.longitude))
            return (radius.map { distance <= $0 } ?? true, distance)
        }
    }

    /// The filter of the command line; `--time`'s days are in `timeZone`, `--intensity` is
    /// predicted at `home` (unless --near gives a point), `--since` counts back from `now`.
    static func filter(from arguments: ParsedArguments, timeZone: TimeZone = .current, home: GeoPoint? = nil,
                       now: Int64 = Int64((Date().timeIntervalSince1970 * 1000).rounded())) throws(UsageError) -> Filter {
        var filter = Filter()
        filter.minimumMagnitude = try arguments.number("min-magnitude", is: "a magnitude", use: "a number such as 4.5", command: spec)
        switch (arguments.value("near"), arguments.value("radius")) {
        case (nil, nil): break
        case (let near?, _?):
            filter.center = try ListCommand.point(near, command: spec)
            filter.radius = try arguments.number("radius", is: "a radius", use: "a positive number of kilometres, at most 20038", command: spec) { $0 > 0 && $0 <= 20_038 }
        default:
            throw UsageError(message: "--near and --radius go together: --near LAT,LON --radius KM.", command: spec)
        }
        var rowFilters = try FilterFlags.rowFilters(arguments, now: now, timeZone: timeZone, home: filter.center ?? home, command: spec)
        if let whole = try ListCommand.minimumIntensity(from: arguments, command: spec) {
            guard let point = filter.center ?? home else {
                throw UsageError(message: "--min-intensity needs a point: give --near LAT,LON --radius KM, or set a home with 'quaketui config home LAT,LON'.",
                                 command: spec)
            }
            rowFilters.append(.intensity(atLeast: whole, home: point))
        }
        if let search = arguments.value("search") ?? (rowFilters.isEmpty ? nil : "") {
            filter.request = SectionedFetchRequest(predicate: QuakePredicate(searchText: search, rowFilters: rowFilters))
        }
        return filter
    }

    static func run(_ arguments: ParsedArguments) throws {
        // The syntax first (a point stands in for home), before the state directory is touched.
        _ = try filter(from: arguments, home: GeoPoint(latitude: 0, longitude: 0))
        let json = arguments.has("json")
        let state = try arguments.stateDirectory()
        let settings = try AppStorage(state: state)
        // Every line's time is in the timeZone setting, --intensity is predicted at home and
        // distances are in distanceUnit: never the defaults in place of an unreadable file.
        try settings.requireReadable()
        let timeZone = ListCommand.timeZone(settings.value(for: AppKeys.timeZone))
        let filter = try filter(from: arguments, timeZone: timeZone,
                                home: settings.value(for: AppKeys.home).map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) })
        let unit = ListCommand.distanceUnit(settings.value(for: AppKeys.distanceUnit))
        let miles = unit == .mi
        let container = try PersistentContainer(directory: state.url, upgrading: SchemaUpgrade.say)
        container.preferAgencies(state: state)
        defer { container.close() }
        var cursor = try container.viewContext.read { try $0.arrivalCursor() }
        let wake = DispatchSemaphore(value: 0)
        let observer = try StoreChangeObserver(container: container) { wake.signal() }
        defer { observer.stop() }
        var refresher: AutoRefresher?
        if arguments.has("refresh") {
            let auto = AutoRefresher(state: state, container: container, settings: settings)
            auto.start { status in
                guard let error = status.lastError, status.failures > 0 else { return }
                // The browser's words for the same wait (`retry 4m`), not a timestamp.
                let next = status.nextDue.map { "; retry " + RefreshStatusText.duration(max(0, $0.timeIntervalSinceNow), roundingUp: true) } ?? ""
                printError("Refresh of \(status.feed ?? "the feed") failed: \(error)\(next)")
            }
            refresher = auto
        }
        defer { refresher?.stop() }
        // On stderr, so a pipe of stdout sees only quakes; a script can wait for it before writing.
        printError("Watching \(SafeText.sanitize(container.path)) for new quakes; press ctrl-c to stop.")
        // `list`'s line, with the distance and direction from --near.
        let line = QuakeTextLine(timeZone: timeZone, unit: unit)
        let alerts = refresher == nil ? nil : AlertCommand(state: state)
        while true {
            wake.wait()
            let output = BufferedOutput()
            if alerts != nil { _ = settings.reload() }
            let rule = AlertRule(settings)
            let home = settings.value(for: AppKeys.home).map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
            // The alerts of what arrived together, with their quakes, said once all are read.
            var raised: [AlertRule.Alert] = []
            cursor = try container.viewContext.read { db in
                try db.forEachArrival(after: cursor, byTime: true, agencyChanges: true) { quake, was in
                    // An event printed again alerts as before: only under a code new since the cursor.
                    if alerts != nil, was?.code != quake.record.code, var alert = rule.alert(for: quake.record, now: Date()) {
                        alert.aliases = try db.aliases(ofEvent: quake.record.code)
                        raised.append(alert)
                    }
                    let (admitted, distance) = filter.admits(quake.record)
                    guard admitted else { return }
                    let bearing = filter.center.map {
                        $0.bearing(to: GeoPoint(latitude: quake.record.latitude, longitude: quake.record.longitude))
                    }
                    if json {
                        output.write(try QuakeJSON.arrival(quake.record, distanceKm: distance, bearing: bearing, home: home,
                                                           reports: try db.reports(ofEvent: quake.record.code), was: was).line() + "\n")
                    } else {
                        output.write(line.text(quake.record, agencies: try db.agencies(ofEvent: quake.record.code),
                                               distance: distance, bearing: bearing, was: was) + "\n")
                    }
                }
            }
            if let alerts { try say(raised, claimingIn: alerts, settings: settings, rule: rule, home: home, miles: miles, container: container) }
            output.flush()
        }
    }

    /// Rings, prints and runs `alertCommand` for each of `raised` (the alerts of quakes that
    /// arrived together) that no other process or pane has claimed: the one that matters most
    /// first, as the browser's status line and `quaketui status` choose it (`AlertRule.ranked`),
    /// not in their order of arrival.
    static func say(_ raised: [AlertRule.Alert], claimingIn alerts: AlertCommand, settings: AppStorage, rule: AlertRule,
                    home: GeoPoint?, miles: Bool, container: PersistentContainer) throws {
        for alert in AlertRule.ranked(raised) where alerts.claim(alert) {
            // The bell itself, which the printer's sanitizer would strip, then the sentence.
            ringBell()
            printError(alert.sentence(miles: miles, homeName: rule.homeName))
            if let command = settings.value(for: AppKeys.alertCommand), !command.isEmpty,
               let json = try AlertCommand.json(alert, home: home, container: container) {
                AlertCommand.run(command, json: json, code: alert.code) { printError($0) }
            }
        }
    }
}
