import Foundation

/// A fresh directory under the system temp dir, removed by `remove()`.
///
/// ```swift
/// let dir = try TemporaryDirectory()
/// defer { dir.remove() }
/// ```
public struct TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    /// Under `base` when given (a directory every user may enter, for a test that runs a child
    /// as another user: the system temp dir may be private to this one).
    public init(prefix: String = "quaketui-test", in base: URL? = nil) throws {
        let base = base ?? FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func appending(_ component: String) -> URL { url.appendingPathComponent(component) }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    /// A scene's saved state in this state directory (`scenes/NAME.plist`), as a dictionary.
    public func scenePlist(_ scene: String) throws -> [String: Any] {
        try propertyList(at: appending("scenes/\(scene).plist"))
    }
}

/// The dictionary a property list file holds (a scene, `defaults.plist`, `refresh.plist`).
public func propertyList(at url: URL) throws -> [String: Any] {
    let data = try Data(contentsOf: url)
    guard let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
        throw CocoaError(.propertyListReadCorrupt)
    }
    return plist
}

/// The files in `directory` whose names start with `prefix`, sorted; none when it cannot be read.
public func files(in directory: String, withPrefix prefix: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
}

/// The files quaketui set aside in `directory` as unreadable (`NAME.corrupt-TIME`), sorted.
public func filesSetAside(in directory: String) -> [String] {
    files(in: directory, withPrefix: "").filter { $0.contains(".corrupt-") }
}
