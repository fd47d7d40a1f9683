import Foundation
import QuakeTestSupport
@testable import QuakeScenes

/// A fresh state directory in a fresh temp dir; call `remove()` on the temp dir when done.
func makeState() throws -> (TemporaryDirectory, StateDirectory) {
    let dir = try TemporaryDirectory(prefix: "quakescenes")
    let state = try StateDirectory(path: dir.path + "/state").prepared()
    return (dir, state)
}


/// The root dictionary of a plist file on disk, or nil if it does not parse as one.
func readPlist(_ path: String) -> [String: PropertyListItem]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return PropertyListItem.rootDictionary(from: data)
}

/// The values the child process and durability tests set: one per SPEC §4.1 key.
enum SampleScene {
    static let draft = EditDraft(code: "us7000abcd", text: "Felt it in Reykjavík — <ok> & \"quoted\"", cursor: 12)
    static let collapsed = ["2026-11-20", "2026-11-19"]

    static func apply(to storage: SceneStorage) throws {
        try storage.set("us7000abcd", for: SceneKeys.selectedQuake)
        try storage.set("magnitude", for: SceneKeys.sortOrder)
        try storage.set(true, for: SceneKeys.sortAscending)
        try storage.set("Iceland", for: SceneKeys.searchText)
        try storage.set(collapsed, for: SceneKeys.collapsedSections)
        try storage.set("ci40123456", for: SceneKeys.topQuake)
        try storage.set(true, for: SceneKeys.detailIsPresented)
        try storage.set("notes", for: SceneKeys.selectedTab)
        try storage.set(draft, for: SceneKeys.editDraft)
    }

    /// The same values as plist items keyed by their SPEC names.
    static let items: [String: PropertyListItem] = [
        "ContentView.selectedQuake": .string("us7000abcd"),
        "ContentView.sortOrder": .string("magnitude"),
        "ContentView.sortAscending": .bool(true),
        "ContentView.searchText": .string("Iceland"),
        "ContentView.collapsedSections": .array(collapsed.map { .string($0) }),
        "ContentView.topQuake": .string("ci40123456"),
        "DetailView.isPresented": .bool(true),
        "DetailView.selectedTab": .string("notes"),
        "EditView.draft": .dictionary(["code": .string(draft.code), "text": .string(draft.text),
                                       "cursor": .int(draft.cursor)]),
    ]
}

/// A thread-safe boolean for callbacks.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
