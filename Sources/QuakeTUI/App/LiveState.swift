import Foundation
import QuakeScenes
import QuakeStore

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
    /// Codes of the quakes that arrived after `seen` (at most `maximumTracked`).
    public var newCodes: Set<String> = []
    /// More quakes arrived than are tracked: the header says `N+ new`.
    public var isOverflowing = false
    /// `ContentView.alertedQuakes`: the quakes whose alert this scene has shown, newest last
    /// (at most `SceneKeys.alertedLimit`): arrivals read again after a relaunch do not show them again.
    public var alerted: [String] = []
    /// `refresh.plist` as last read: what the automatic refresh did and when it runs next.
    public var refresh: RefreshStatus?

    /// New quakes remembered one by one; past this (a bulk import) only the count is kept.
    public static let maximumTracked = 5_000

    public init() {}

    public var newCount: Int { newCodes.count }
}

/// Quakes that arrived in the store, read by the runtime through `forEachArrival(after:)`.
public struct QuakeArrivals: Equatable, Sendable {
    /// The arrived quakes, oldest commit first (at most `LiveState.maximumTracked`).
    public var quakes: [QuakeRecord]
    /// More arrived than `quakes` holds.
    public var isTruncated: Bool
    /// The cursor after them: pass it to the next read.
    public var cursor: ArrivalCursor
    /// The alert settings (app storage `alertMagnitude`, `home`, `alertRadius`) when they were read.
    public var rule: AlertRule
    public var now: Date

    public init(quakes: [QuakeRecord], isTruncated: Bool = false, cursor: ArrivalCursor, rule: AlertRule = AlertRule(),
                now: Date) {
        self.quakes = quakes
        self.isTruncated = isTruncated
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
