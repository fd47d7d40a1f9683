import Foundation
import QuakeScenes
import QuakeModel

/// What the live monitor adds to a scene (issue 13): where the user last looked at new quakes
/// and which quakes arrived since, and what the automatic refresh last did.
///
/// "Looked" means: the scene was first opened, or the user pressed `a` (mark all seen). Every
/// quake inserted into the store after that point (by any process) is new until the next `a`;
/// moving onto a new quake does not clear its mark. The point is saved per scene
/// (`ContentView.seenArrival`), so marks survive `q`, `kill -9` and a relaunch.
///
/// Apart from that, `looked` (`ContentView.lastLooked`) is where arrivals stood the last time the
/// scene showed them to someone looking at the pane (issue 55): what arrived after it is the
/// "while you were away" summary (`BrowserState+Away.swift`).
public struct LiveState: Equatable, Sendable {
    /// `ContentView.seenArrival`: nil until the scene has looked once.
    public var seen: ArrivalCursor?
    /// How far this process has read arrivals (at or after `seen`).
    public var readThrough: ArrivalCursor?
    /// Codes of the quakes that arrived after `seen` and are still stored, marked ● in the list
    /// (the first `maximumTracked` of them).
    public var newCodes: Set<String> = []
    /// How many quakes arrived after `seen` and are still stored: `newCodes` and, past
    /// `maximumTracked` (a bulk import), those counted but not marked.
    public var newTotal = 0
    /// The smallest row id among the quakes that arrived after `seen`: every stored row from it
    /// on is new, which is how the new quakes past `maximumTracked` are counted again after a delete.
    public var firstNewID: Int64?
    /// Codes of the events a report of which was revised after `seen` (issue 53), marked `◆` in
    /// the list until `a`, as new quakes are `●`: read again with every arrival read from the
    /// store's `quake.revised` (`QuakeArrivals.revised`), so they come back after a relaunch.
    public var revisedCodes: Set<String> = []
    /// `ContentView.alertedQuakes`: the quakes whose alert this scene has shown, newest last
    /// (at most `SceneKeys.alertedLimit`): arrivals read again after a relaunch do not show them again.
    public var alerted: [String] = []
    /// `refresh.plist` as last read: what the automatic refresh did and when it runs next.
    public var refresh: RefreshStatus?

    // While you were away (issue 55): see `BrowserState+Away.swift`.
    /// `ContentView.lastLooked`: where arrivals stood, and when, the last time the scene showed
    /// them to someone looking; nil until the scene has looked once.
    public var looked: Looked?
    /// Whether the pane has focus (focus reports, mode 1004); true until the terminal says otherwise.
    public var hasFocus = true
    /// When the pane lost focus; nil while it has it.
    public var focusLostAt: Date?
    /// What has arrived since the pane lost focus (nil while it has focus).
    public var away: AwaySummary?
    /// The quakes `n` walks after a summary: those it counted and those that arrived since (until
    /// `a`); nil: `n` walks every new quake.
    public var walk: Walk?
    /// How long a pane must be without focus for its return to be a coming back (10 minutes;
    /// `$QUAKETUI_AWAY_SECONDS` sets it for tests).
    public var awayAfter: TimeInterval = 600

    /// New quakes remembered one by one; past this (a bulk import) only the count is kept.
    public static let maximumTracked = 5_000

    public init() {}

    public var newCount: Int { newTotal }
    /// More quakes arrived than are marked one by one.
    public var isOverflowing: Bool { newTotal > newCodes.count }

    /// What the runtime needs to read the next arrivals (`QuakeArrivals`): which quakes are
    /// marked (to find those deleted since) and where the new rows start (to count them again).
    public var tracking: Tracking {
        Tracking(newCodes: newCodes, firstNewID: isOverflowing ? firstNewID : nil, revisedAfter: seen?.token)
    }

    /// Where arrivals stood and when (`ContentView.lastLooked`).
    public struct Looked: Equatable, Sendable {
        public var cursor: ArrivalCursor
        public var time: Date

        public init(cursor: ArrivalCursor, time: Date) {
            self.cursor = cursor
            self.time = time
        }
    }

    /// The quakes `n` walks after a summary, and the time the summary counted from.
    public struct Walk: Equatable, Sendable {
        public var codes: [String]
        public var since: Date
        /// How many arrived since (more than `codes` after a bulk import).
        public var count: Int

        public init(codes: [String], since: Date, count: Int? = nil) {
            (self.codes, self.since, self.count) = (codes, since, max(count ?? codes.count, codes.count))
        }
    }

    /// At a process's first read of arrivals (a relaunch), where the quakes that came while no one
    /// looked begin, when that is not where the read of new quakes begins (`seen`): the runtime
    /// then reads those too (`QuakeArrivals.sinceLooked`). Nil otherwise.
    public var lookedReadStart: ArrivalCursor? {
        guard readThrough == nil, seen != nil, let looked, looked.cursor != seen else { return nil }
        return looked.cursor
    }

    public struct Tracking: Equatable, Sendable {
        public var newCodes: Set<String>
        /// Set while more quakes are new than marked: the count of rows from it on is read again
        /// after a delete.
        public var firstNewID: Int64?
        /// The events revised after this commit are marked (`seen`'s token; nil: none yet).
        public var revisedAfter: HistoryToken? = nil
    }
}

/// Quakes that arrived in the store, and which of those a scene marked are gone, read by the
/// runtime through `forEachArrival(after:)` for a scene's `LiveState.tracking`.
public struct QuakeArrivals: Equatable, Sendable {
    /// The arrived quakes, oldest commit first (at most `LiveState.maximumTracked`).
    public var quakes: [QuakeRecord]
    /// How many quakes arrived in all (more than `quakes` holds after a bulk import).
    public var count: Int
    /// The smallest row id among the arrived quakes (nil: none arrived).
    public var firstID: Int64?
    /// Quakes the scene marked new that are no longer stored (deleted since).
    public var removed: Set<String>
    /// Every new quake stored now, counted again (from the scene's first new row) because a delete
    /// may have removed some that were counted but not marked; nil when nothing was deleted.
    public var recountedTotal: Int?
    /// The cursor after them: pass it to the next read.
    public var cursor: ArrivalCursor
    /// The alert settings (app storage `alertMagnitude`, `home`, `alertRadius`) when they were read.
    public var rule: AlertRule
    public var now: Date
    /// At a relaunch, the quakes that arrived after `LiveState.lookedReadStart` (at most
    /// `LiveState.maximumTracked`) and how many in all; nil when that is where this read began
    /// (then they are `quakes`).
    public var sinceLooked: (quakes: [QuakeRecord], count: Int)? {
        get { lookedQuakes.map { ($0, lookedCount) } }
        set { (lookedQuakes, lookedCount) = (newValue?.quakes, newValue?.count ?? 0) }
    }
    /// The quakes past `quakes` (counted in `count`): those that alert, and their summary.
    public var untracked = UntrackedArrivals()
    /// For the quakes that alert and that ComCat lists under other codes too, those codes
    /// (`Connection.aliases(ofEvent:)`): a quake that alerted under one does not alert again.
    public var aliases: [String: [String]] = [:]
    /// The same of `sinceLooked`'s quakes.
    public var untrackedSinceLooked = UntrackedArrivals()
    /// The events revised after the scene's `seen` mark (`LiveState.Tracking.revisedAfter`), at
    /// most `LiveState.maximumTracked`; nil when not read.
    public var revised: Set<String>?
    private var lookedQuakes: [QuakeRecord]?
    private var lookedCount = 0

    public init(quakes: [QuakeRecord], count: Int? = nil, firstID: Int64? = nil, removed: Set<String> = [],
                recountedTotal: Int? = nil, cursor: ArrivalCursor, rule: AlertRule = AlertRule(), now: Date) {
        self.quakes = quakes
        self.count = count ?? quakes.count
        self.firstID = firstID
        self.removed = removed
        self.recountedTotal = recountedTotal
        self.cursor = cursor
        self.rule = rule
        self.now = now
    }
}

/// The quakes of a read past the first `LiveState.maximumTracked` it keeps (`QuakeArrivals.quakes`),
/// which it counts: as the runtime reads them, those that alert by the rule are kept, and the
/// largest and those near home summed (`AwaySummary`), so that no alert and no line of the away
/// summary depends on where in a bulk import a quake came.
public struct UntrackedArrivals: Equatable, Sendable {
    /// Those that alert (the update checks them as it checks `quakes`), at most `maximumTracked`;
    /// the runtime adds the quakes revised since its last read that alert now (a magnitude raised).
    public var alerting: [QuakeRecord] = []
    /// Their largest and those near home (its count and codes unused).
    public var summary = AwaySummary(since: Date(timeIntervalSince1970: 0))

    public init() {}

    /// Takes in one more quake past the kept ones.
    public mutating func add(_ quake: QuakeRecord, rule: AlertRule, now: Date, nearRadius: Double) {
        if alerting.count < LiveState.maximumTracked, rule.alert(for: quake, now: now) != nil { alerting.append(quake) }
        summary.add(CollectionOfOne(quake), count: 0, home: rule.home, nearRadius: nearRadius, keepingCodes: false)
    }
}

extension ArrivalCursor {
    /// The cursor as scene storage keeps it.
    public init(_ seen: SeenArrival) {
        self.init(token: HistoryToken(rawValue: Int64(seen.token)), maxID: Int64(seen.maxID))
    }

    public var seenArrival: SeenArrival { SeenArrival(token: Int(token.rawValue), maxID: Int(maxID)) }
}

extension LiveState.Looked {
    /// The mark as scene storage keeps it.
    public init(_ looked: LookedArrival) {
        self.init(cursor: ArrivalCursor(token: HistoryToken(rawValue: Int64(looked.token)), maxID: Int64(looked.maxID)),
                  time: looked.time)
    }

    /// To the whole second, as a property list keeps dates.
    public var lookedArrival: LookedArrival {
        LookedArrival(token: Int(cursor.token.rawValue), maxID: Int(cursor.maxID),
                      time: Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down)))
    }
}
