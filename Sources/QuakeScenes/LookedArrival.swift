import Foundation

/// Where arrivals stood, and when, the last time a scene showed them to someone looking (its pane
/// had focus, or the terminal never said otherwise), stored under `ContentView.lastLooked` as the
/// dictionary `{token: Int, maxID: Int, time: Date}`. What arrived after it is what the scene
/// summarises when it comes back (a relaunch, or focus again after a while away): "while you were
/// away" (issue 55).
///
/// ```swift
/// try storage.set(LookedArrival(token: 42, maxID: 9_412, time: Date()), for: SceneKeys.lastLooked)
/// ```
public struct LookedArrival: PropertyListStorable, Equatable, Hashable, Sendable {
    /// The history token read through (`HistoryToken.rawValue`).
    public var token: Int
    /// The largest quake row id stored then.
    public var maxID: Int
    /// When (to the whole second, as a property list keeps dates).
    public var time: Date

    public init(token: Int, maxID: Int, time: Date) {
        self.token = token
        self.maxID = maxID
        self.time = time
    }

    public init?(propertyListItem: PropertyListItem) {
        guard case .dictionary(let d) = propertyListItem,
              case .int(let token)? = d["token"], case .int(let maxID)? = d["maxID"], case .date(let time)? = d["time"],
              token >= 0, maxID >= 0
        else { return nil }
        self.init(token: token, maxID: maxID, time: time)
    }

    public var propertyListItem: PropertyListItem? {
        .dictionary(["token": .int(token), "maxID": .int(maxID), "time": .date(time)])
    }
}
