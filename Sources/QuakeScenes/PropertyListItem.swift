import Foundation

/// One property-list value as a Sendable Swift enum: the in-memory form of scene and app storage.
///
/// ```swift
/// let item = PropertyListItem.dictionary(["code": .string("us7000abcd"), "cursor": .int(3)])
/// let xml = try PropertyListItem.xmlData(for: ["EditView.draft": item])
/// ```
///
/// Converting to and from `PropertyListSerialization`'s `Any` happens only here, so the type
/// checks (is this `<true/>` or `<integer>1</integer>`?) are in one place.
public enum PropertyListItem: Sendable, Equatable {
    /// `<string>`.
    case string(String)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<integer>`.
    case int(Int)
    /// `<real>`.
    case double(Double)
    /// `<date>`; XML property lists keep whole seconds only.
    case date(Date)
    /// `<data>` (base64 in the file).
    case data(Data)
    /// `<array>`.
    case array([PropertyListItem])
    /// `<dict>` with string keys.
    case dictionary([String: PropertyListItem])

    /// Converts a value produced by `PropertyListSerialization`, or nil for anything else.
    init?(foundation value: Any) {
        switch value {
        case let v as String: self = .string(v)
        case let v as Date: self = .date(v)
        case let v as Data: self = .data(v)
        case let v as [Any]:
            var items: [PropertyListItem] = []
            items.reserveCapacity(v.count)
            for element in v {
                guard let item = PropertyListItem(foundation: element) else { return nil }
                items.append(item)
            }
            self = .array(items)
        case let v as [String: Any]:
            var items: [String: PropertyListItem] = [:]
            for (key, element) in v {
                guard let item = PropertyListItem(foundation: element) else { return nil }
                items[key] = item
            }
            self = .dictionary(items)
        default:
            guard let number = PropertyListItem(number: value) else { return nil }
            self = number
        }
    }

    /// Distinguishes `<true/>`, `<integer>` and `<real>`, whether Foundation hands back Swift
    /// values or `NSNumber`s (whose `as? Bool` would accept any 0 or 1).
    private init?(number value: Any) {
        switch value {
        case let v as Bool where type(of: value) == Bool.self: self = .bool(v)
        case let v as Int where type(of: value) == Int.self: self = .int(v)
        case let v as Double where type(of: value) == Double.self: self = .double(v)
        case let v as NSNumber:
            switch String(cString: v.objCType) {
            case "c", "B": self = .bool(v.boolValue)
            case "f", "d": self = .double(v.doubleValue)
            default: self = .int(v.intValue)
            }
        default: return nil
        }
    }

    /// The value as `PropertyListSerialization` expects it.
    var foundationValue: Any {
        switch self {
        case .string(let v): return v
        case .bool(let v): return v
        case .int(let v): return v
        case .double(let v): return v
        case .date(let v): return v
        case .data(let v): return v
        case .array(let v): return v.map(\.foundationValue)
        case .dictionary(let v): return v.mapValues(\.foundationValue)
        }
    }

    /// Parses a property list whose root must be a dictionary of convertible values.
    ///
    /// - Returns: the root, or nil if the data is not a property list, its root is not a
    ///   dictionary, or a value cannot be represented.
    static func rootDictionary(from data: Data) -> [String: PropertyListItem]? {
        guard !data.isEmpty,
              let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
              case .dictionary(let root)? = PropertyListItem(foundation: object)
        else { return nil }
        return root
    }
}
