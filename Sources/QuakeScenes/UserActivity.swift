import Foundation

/// Something a scene is doing that another scene or a command can continue (SPEC §4.3),
/// like `NSUserActivity`.
///
/// ```swift
/// let activity = UserActivity.showQuake(code: "us7000abcd")
/// try activities.advertise(activity, from: lease.id)
/// ```
public struct UserActivity: Sendable, Equatable, Codable {
    /// The activity type of showing one quake, with payload `{code}`.
    public static let showQuakeType = "quaketui.showQuake"

    /// The activity type, e.g. ``showQuakeType``.
    public var type: String
    /// String payload, e.g. `["code": "us7000abcd"]`.
    public var payload: [String: String]
    /// The scene that advertised or sent it (nil when sent by `quaketui open`).
    public var sceneID: SceneID?
    /// When it was advertised or sent.
    public var date: Date

    public init(type: String, payload: [String: String], sceneID: SceneID? = nil, date: Date = Date()) {
        self.type = type
        self.payload = payload
        self.sceneID = sceneID
        self.date = date
    }

    /// "Show this quake".
    public static func showQuake(code: String, date: Date = Date()) -> UserActivity {
        UserActivity(type: showQuakeType, payload: ["code": code], date: date)
    }

    /// The quake code if this is a ``showQuakeType`` activity.
    public var quakeCode: String? { type == UserActivity.showQuakeType ? payload["code"] : nil }

    /// The activity as stored in `activity.plist`.
    var propertyListItem: PropertyListItem {
        var d: [String: PropertyListItem] = [
            "type": .string(type),
            "payload": .dictionary(payload.mapValues { .string($0) }),
            "date": .date(date),
        ]
        if let sceneID { d["scene"] = .string(sceneID.rawValue) }
        return .dictionary(d)
    }

    /// Reads an activity from `activity.plist`; nil if it is malformed.
    init?(propertyListItem item: PropertyListItem) {
        guard case .dictionary(let d) = item, case .string(let type)? = d["type"],
              case .dictionary(let rawPayload)? = d["payload"], case .date(let date)? = d["date"]
        else { return nil }
        var payload: [String: String] = [:]
        for (key, value) in rawPayload {
            guard case .string(let string) = value else { return nil }
            payload[key] = string
        }
        var scene: SceneID?
        if case .string(let raw)? = d["scene"] {
            guard let id = try? SceneID(validating: raw) else { return nil }
            scene = id
        }
        self.init(type: type, payload: payload, sceneID: scene, date: date)
    }
}
