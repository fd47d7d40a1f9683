import Foundation

/// A typed key of app storage (`defaults.plist`) with its default, like SwiftUI's `@AppStorage`.
///
/// ```swift
/// let unit = appStorage.value(for: AppKeys.distanceUnit)   // "km" unless changed
/// ```
public struct AppKey<Value: PropertyListStorable>: Sendable {
    /// The key as written in `defaults.plist`.
    public let name: String
    /// The value when the key is missing, of the wrong type or invalid.
    public let defaultValue: Value
    /// Extra validation of a well-typed value.
    public let isValid: @Sendable (Value) -> Bool

    public init(_ name: String, default defaultValue: Value,
                isValid: @escaping @Sendable (Value) -> Bool = { _ in true }) {
        self.name = name
        self.defaultValue = defaultValue
        self.isValid = isValid
    }

    /// Decodes a stored item: nil if it has the wrong type or fails validation.
    func decode(_ item: PropertyListItem) -> Value? {
        guard let value = Value(propertyListItem: item), isValid(value) else { return nil }
        return value
    }
}
