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
public typealias SceneKey<Value: PropertyListStorable> = StorageKey<Value, SceneStore>

/// A typed key of app storage (`defaults.plist`) with its default, like SwiftUI's `@AppStorage`.
///
/// ```swift
/// let unit = appStorage.value(for: AppKeys.distanceUnit)   // "km" unless changed
/// ```
public typealias AppKey<Value: PropertyListStorable> = StorageKey<Value, AppStore>

/// Tags that keep a scene key out of app storage and the other way round.
public enum SceneStore {}
public enum AppStore {}

/// A typed key with its default and validation: one type for both stores (``SceneKey``,
/// ``AppKey``), told apart by `Store` so a key cannot be read from the wrong one.
public struct StorageKey<Value: PropertyListStorable, Store>: Sendable {
    /// The key as written in the property list.
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
