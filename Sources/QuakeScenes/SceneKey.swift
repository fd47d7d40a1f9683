import Foundation

/// A typed key of scene storage with its default, like SwiftUI's `@SceneStorage("name")`.
///
/// ```swift
/// let sort = SceneKey<String>("ContentView.sortOrder", default: "time",
///                             isValid: { ["time", "magnitude", "region"].contains($0) })
/// let order = storage.value(for: sort)
/// ```
///
/// The SPEC §4.1 keys are ``SceneKeys``; their names are a public file format.
public struct SceneKey<Value: PropertyListStorable>: Sendable {
    /// The key as written in `scenes/ID.plist`.
    public let name: String
    /// The value when the key is missing, of the wrong type or invalid.
    public let defaultValue: Value
    /// Extra validation of a well-typed value (e.g. one of a fixed set of strings).
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
