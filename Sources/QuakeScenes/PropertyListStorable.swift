import Foundation

/// A type that scene and app storage can hold: String, Bool, Int, Double, Date, Data, arrays
/// and string-keyed dictionaries of those, optionals of those (nil removes the key), and small
/// structs such as ``EditDraft`` that map to a dictionary.
///
/// ```swift
/// let key = SceneKey<[String]>("ContentView.collapsedSections", default: [])
/// try storage.set(["2026-11-21"], for: key)
/// ```
public protocol PropertyListStorable: Sendable {
    /// Reads a stored item; nil if it has the wrong type.
    init?(propertyListItem: PropertyListItem)
    /// The item to store; nil means "remove the key".
    var propertyListItem: PropertyListItem? { get }
}

extension String: PropertyListStorable {
    public init?(propertyListItem: PropertyListItem) {
        guard case .string(let v) = propertyListItem else { return nil }
        self = v
    }
    public var propertyListItem: PropertyListItem? { .string(self) }
}

extension Bool: PropertyListStorable {
    public init?(propertyListItem: PropertyListItem) {
        guard case .bool(let v) = propertyListItem else { return nil }
        self = v
    }
    public var propertyListItem: PropertyListItem? { .bool(self) }
}

extension Int: PropertyListStorable {
    public init?(propertyListItem: PropertyListItem) {
        guard case .int(let v) = propertyListItem else { return nil }
        self = v
    }
    public var propertyListItem: PropertyListItem? { .int(self) }
}

extension Double: PropertyListStorable {
    /// Accepts `<real>` and also `<integer>`, since a hand-edited `5` means 5.0.
    public init?(propertyListItem: PropertyListItem) {
        switch propertyListItem {
        case .double(let v): self = v
        case .int(let v): self = Double(v)
        default: return nil
        }
    }
    public var propertyListItem: PropertyListItem? { .double(self) }
}

extension Date: PropertyListStorable {
    public init?(propertyListItem: PropertyListItem) {
        guard case .date(let v) = propertyListItem else { return nil }
        self = v
    }
    public var propertyListItem: PropertyListItem? { .date(self) }
}

extension Data: PropertyListStorable {
    public init?(propertyListItem: PropertyListItem) {
        guard case .data(let v) = propertyListItem else { return nil }
        self = v
    }
    public var propertyListItem: PropertyListItem? { .data(self) }
}

extension Array: PropertyListStorable where Element: PropertyListStorable {
    /// Fails if any element has the wrong type (a partly wrong array falls back as a whole).
    public init?(propertyListItem: PropertyListItem) {
        guard case .array(let items) = propertyListItem else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let element = Element(propertyListItem: item) else { return nil }
            result.append(element)
        }
        self = result
    }
    /// Optional elements that are nil cannot be stored in a plist array and are dropped.
    public var propertyListItem: PropertyListItem? { .array(compactMap(\.propertyListItem)) }
}

extension Dictionary: PropertyListStorable where Key == String, Value: PropertyListStorable {
    public init?(propertyListItem: PropertyListItem) {
        guard case .dictionary(let items) = propertyListItem else { return nil }
        var result: [String: Value] = [:]
        for (key, item) in items {
            guard let value = Value(propertyListItem: item) else { return nil }
            result[key] = value
        }
        self = result
    }
    public var propertyListItem: PropertyListItem? { .dictionary(compactMapValues(\.propertyListItem)) }
}

extension Optional: PropertyListStorable where Wrapped: PropertyListStorable {
    public init?(propertyListItem: PropertyListItem) {
        guard let value = Wrapped(propertyListItem: propertyListItem) else { return nil }
        self = .some(value)
    }
    public var propertyListItem: PropertyListItem? { self?.propertyListItem }
}

extension PropertyListItem: PropertyListStorable {
    public init?(propertyListItem: PropertyListItem) { self = propertyListItem }
    public var propertyListItem: PropertyListItem? { self }
}
