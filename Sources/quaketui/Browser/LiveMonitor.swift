import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// The browser's part of the live monitor (issue 13): runs the automatic refresh (one process
/// per state directory holds `refresh.lock`; the others see its imports live), follows
/// `refresh.plist` for the status line, reads the quakes that arrive for the new-quake marks,
/// and carries out alerts.
///
/// Everything it learns reaches the browser loop as an `Action` through the `ActionInbox`.
@MainActor
final class LiveMonitor {
    private let state: StateDirectory
    private let container: PersistentContainer
    private let appStorage: AppStorage
    private let refresher: AutoRefresher
    private let alerts: AlertCommand
    private var token: ObservationToken?

    init(state: StateDirectory, container: PersistentContainer, appStorage: AppStorage) {
        self.state = state
        self.container = container
        self.appStorage = appStorage
        refresher = AutoRefresher(state: state, container: container, settings: appStorage)
        alerts = AlertCommand(state: state)
    }

    /// Starts the automatic refresh and the watch on `refresh.plist`.
    func start(posting inbox: ActionInbox) {
        let file = RefreshStatusFile(state: state)
        token = file.onChange { status in inbox.post(.refreshStatusChanged(status)) }
        inbox.post(.refreshStatusChanged(file.load()))
        refresher.start { status in inbox.post(.refreshStatusChanged(status)) }
    }

    func stop() {
        token?.cancel()
        token = nil
        refresher.stop()
    }

    /// The quakes inserted after `cursor` (none when nil: the scene looks for the first time),
    /// with the alert settings as they are now, and which of the quakes the scene `tracking`
    /// marks new were deleted since. What the process that replaced the bundled sample commits
    /// is not new: the first real download marks nothing, however many transactions it takes (a
    /// `fetch` commits one per window).
    ///
    /// With `sinceLooked` (a relaunch: `LiveState.lookedReadStart`), the quakes inserted after it
    /// are read too, for what arrived while the scene was away.
    func arrivals(after cursor: ArrivalCursor?, tracking: LiveState.Tracking, sinceLooked: ArrivalCursor? = nil,
                  nearRadius: Double) throws -> QuakeArrivals {
        let rule = AlertRule(appStorage)
        return try container.viewContext.read { db in
            try Self.arrivals(in: db, after: cursor, tracking: tracking, sinceLooked: sinceLooked, rule: rule, nearRadius: nearRadius)
        }
    }

    /// `arrivals(after:tracking:sinceLooked:)` in the caller's read of `db` (a background
    /// reader's, after a commit: 300 new quakes at 5,000,000 took 7 ms of the loop), with the
    /// alert settings `rule` and the scene's `nearRadius` (for the away summary).
    nonisolated static func arrivals(in db: Connection, after cursor: ArrivalCursor?, tracking: LiveState.Tracking,
                                     sinceLooked: ArrivalCursor?, rule: AlertRule, nearRadius: Double) throws -> QuakeArrivals {
        let now = Date()
        guard let cursor else { return QuakeArrivals(quakes: [], cursor: try db.arrivalCursor(), rule: rule, now: now) }
        let excluded = try SampleCatalogue.replacement(db)
        /// The first `maximumTracked` quakes kept, all counted, those past them taken in by `untracked`.
        struct Read {
            var quakes: [QuakeRecord] = [], count = 0, untracked = UntrackedArrivals()
            mutating func take(_ quake: QuakeRecord, rule: AlertRule, now: Date, nearRadius: Double) {
                if quakes.count < LiveState.maximumTracked {
                    quakes.append(quake)
                } else {
                    untracked.add(quake, rule: rule, now: now, nearRadius: nearRadius)
                }
                count += 1
            }
        }
        var looked: Read?
        if let sinceLooked {
            var since = Read()
            _ = try db.forEachArrival(after: sinceLooked, excluding: excluded) { since.take($0.record, rule: rule, now: now, nearRadius: nearRadius) }
            looked = since
        }
        let revised = try tracking.revisedAfter.map { try db.codesRevised(after: $0, limit: LiveState.maximumTracked) }
        let deletedSince = try db.mayHaveDeletedRows(after: cursor.token)
        let removed = deletedSince ? try db.codesNotStored(tracking.newCodes) : []
        var read = Read()
        var firstID: Int64?
        var aliases: [String: [String]] = [:]
        let next = try db.forEachArrival(after: cursor, excluding: excluded) { quake in
            read.take(quake.record, rule: rule, now: now, nearRadius: nearRadius)
            firstID = min(firstID ?? quake.id, quake.id)
            if rule.alert(for: quake.record, now: now) != nil {
                let codes = try db.aliases(ofEvent: quake.record.code)
                if !codes.isEmpty { aliases[quake.record.code] = codes }
            }
        }
        // A quake revised since the last read (a magnitude raised) that now meets the rule alerts
        // as a new one does, once (the scene and alerts.plist remember it).
        var revisedAlerting: [QuakeRecord] = []
        if rule.isEnabled, cursor.token < next.token {
            for code in try db.codesRevised(after: cursor.token, limit: LiveState.maximumTracked).sorted()
            where revisedAlerting.count < LiveState.maximumTracked {
                guard let quake = try db.quake(code: code)?.record, rule.alert(for: quake, now: now) != nil else { continue }
                revisedAlerting.append(quake)
                let codes = try db.aliases(ofEvent: code)
                if !codes.isEmpty { aliases[code] = codes }
            }
        }
        // More are new than marked: a delete may have removed some that were only counted.
        var recounted: Int?
        if deletedSince, let first = tracking.firstNewID {
            recounted = try db.rowCount(fromID: min(first, firstID ?? first))
        }
        var arrivals = QuakeArrivals(quakes: read.quakes, count: read.count, firstID: firstID, removed: removed,
                                     recountedTotal: recounted, cursor: next, rule: rule, now: now)
        arrivals.untracked = read.untracked
        arrivals.untracked.alerting += revisedAlerting
        arrivals.aliases = aliases
        arrivals.sinceLooked = looked.map { ($0.quakes, $0.count) }
        arrivals.untrackedSinceLooked = looked?.untracked ?? UntrackedArrivals()
        arrivals.revised = revised
        return arrivals
    }

    /// Carries out an alert: true when this process is the one that rings (the first to claim
    /// the quake); it then also starts `alertCommand`, whose failures come back as messages.
    func alert(_ alert: AlertRule.Alert, posting inbox: ActionInbox) -> Bool {
        guard alerts.claim(alert) else { return false }
        guard let command = appStorage.value(for: AppKeys.alertCommand), !command.isEmpty else { return true }
        do {
            guard let json = try AlertCommand.json(alert, home: AlertRule(appStorage).home, container: container) else { return true }
            AlertCommand.run(command, json: json, code: alert.code) { inbox.post(.showMessage($0, isError: true)) }
        } catch {
            inbox.post(.showMessage("The alert command was not run: \(error)", isError: true))
        }
        return true
    }
}
