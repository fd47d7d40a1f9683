import Foundation

/// A type-erased check of one known key, used to validate a file when it is loaded.
struct KeyCheck: Sendable {
    let name: String
    let accepts: @Sendable (PropertyListItem) -> Bool

    init<V, Store>(_ key: StorageKey<V, Store>) {
        name = key.name
        accepts = { key.decode($0) != nil }
    }
}
