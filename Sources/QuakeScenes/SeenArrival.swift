import Foundation

/// Where a scene last looked at new quakes, stored under `ContentView.seenArrival` as the
/// dictionary `{token: Int, maxID: Int}`: the store's history token and largest row id when the
/// user last marked everything seen (`a`), or when the scene was first opened. Every quake
/// inserted after it is marked new in the list, across relaunches and `kill -9`.
///
/// ```swift
/// try storage.set(SeenArrival(token: 42, maxID: 9_412), for: SceneKeys.seenArrival)
/// ```
public struct SeenArrival: PropertyListStorable, Equatable, Hashable {
    /// The history token read through (`QuakeStore.HistoryToken.rawValue`).
    public var token: Int
    /// The largest quake row id stored then (for bulk or purged history).
    public var maxID: Int

    public init(token: Int, maxID: Int) {
        self.token = token
        self.maxID = maxID
    }

    public init?(propertyListItem: PropertyListItem) {
        guard case .dictionary(let d) = propertyListItem,
              case .int(let token)? = d["token"], case .int(let maxID)? = d["maxID"],
              token >= 0, maxID >= 0
        else { return nil }
        self.init(token: token, maxID: maxID)
    }

    public var propertyListItem: PropertyListItem? {
        .dictionary(["token": .int(token), "maxID": .int(maxID)])
    }
}
