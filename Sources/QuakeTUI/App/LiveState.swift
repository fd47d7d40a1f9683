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
    /// `ContentView.alertedQuakes`: the quakes whose alert this scene has shown, newest last
    /// (at most `SceneKeys.alertedLimit`): arrivals read again after a relaunch do not show them again.
    public var alerted: [String] = []
    /// `refresh.plist` as last read: what the automatic refresh did and when it runs next.
    public var refresh: RefreshStatus?

    /// New quakes remembered one by one; past this (a bulk import) only the count is kept.
    public static let maximumTracked = 5_000

    public init() {}

    public var newCount: Int { newTotal }
    /// More quakes arrived than are marked one by one.
    public var isOverflowing: Bool { newTotal > newCodes.count }

    /// What the runtime needs to read the next arrivals (`QuakeArrivals`): which quakes are
    /// marked (to find those deleted since) and where the new rows start (to count them again).
    public var tracking: Tracking { Tracking(newCodes: newCodes, firstNewID: isOverflowing ? firstNewID : nil) }

    public struct Tracking: Equatable, Sendable {
        public var newCodes: Set<String>
        /// Set while more quakes are new than marked: the count of rows from it on is read again
        /// after a delete.
        public var firstNewID: Int64?
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

extension ArrivalCursor {
    /// The cursor as scene storage keeps it.
    public init(_ seen: SeenArrival) {
        self.init(token: HistoryToken(rawValue: Int64(seen.token)), maxID: Int64(seen.maxID))
    }

    public var seenArrival: SeenArrival { SeenArrival(token: Int(token.rawValue), maxID: Int(maxID)) }
}
